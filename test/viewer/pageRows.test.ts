import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { loadTrace, TraceModel } from '../../src/core/loadTrace';
import { expandTraceFiles } from '../../src/core/traceFiles';
import { shownPath } from '../../src/core/tracePath';
import type { IdSpan, RowData } from '../../src/protocol';
import { RowProjection } from '../../src/viewer/rowModel';
import { buildRows, labelIdSpans, traceStartTime, treeSourceOf } from '../../src/viewer/traceRows';
import { CORPUS_ROOT, WRITER_CORPUS } from '../helpers/corpus';
import { tempFile } from '../helpers/tmp';

const SAMPLES = resolve(__dirname, '..', '..', 'samples');
const DECO = { badgeOfLine: (line: number) => (line % 7 === 0 ? ('warning' as const) : undefined), isMatch: (node: number) => node % 5 === 0 };

/** The id links as first written: every id of the event (own, parent, mentions) in a Set, longest first. */
function referenceSpans(model: TraceModel, i: number, label: string): IdSpan[] {
  const e = model.events.get(i);
  const ids = new Set<string>();
  if (e.id !== null) ids.add(e.id);
  if (e.parentId !== null) ids.add(e.parentId);
  for (const m of e.mentions) ids.add(m.id);
  const found: IdSpan[] = [];
  for (const id of [...ids].sort((a, b) => b.length - a.length)) {
    if (id.length < 3) continue;
    const start = label.indexOf(id);
    if (start < 0) continue;
    const end = start + id.length;
    if (!found.some((s) => start < s.end && end > s.start)) found.push({ start, end, id });
  }
  return found.sort((a, b) => a.start - b.start).slice(0, 4);
}

/** One event row made from the materialized event, as rows were made before they read the columns. */
function referenceRow(model: TraceModel, rows: RowProjection, i: number, t0: number | null): RowData {
  const e = model.events.get(i);
  const row: RowData = {
    node: i, line: e.line, depth: rows.depthOf(i), parent: e.parent, kind: e.kind, category: e.category, label: e.label, status: e.status,
    hasChildren: rows.hasChildren(i), expanded: rows.isExpanded(i), durationMs: e.durationMs, tokensIn: e.tokensIn, tokensOut: e.tokensOut,
    offsetMs: e.time !== null && t0 !== null ? e.time - t0 : null,
  };
  const badge = DECO.badgeOfLine(e.line);
  if (badge) row.badge = badge;
  if (DECO.isMatch(i)) row.match = true;
  if (rows.isContext(i)) row.context = true;
  if (rows.chained(i)) row.chained = true;
  const spans = referenceSpans(model, i, e.label);
  if (spans.length > 0) row.idSpans = spans;
  return row;
}

describe('viewer rows: a page read from the columns', function () {
  this.timeout(300_000);

  it('equals rows made one by one from the materialized events, on every corpus file and sample, in both views', async () => {
    const { files } = await expandTraceFiles([CORPUS_ROOT, WRITER_CORPUS, SAMPLES]);
    assert.ok(files.length > 60, `${files.length} files`);
    let compared = 0;
    let linked = 0;
    for (const file of files) {
      const path = shownPath(file);
      const model = await loadTrace(path);
      const t0 = traceStartTime(model);
      for (const compact of [false, true]) {
        const rows = new RowProjection(treeSourceOf(model, compact));
        rows.expandAll();
        // Pages of 200 and of 1 row: what a page remembers of its ids must not change a row.
        const paged = [];
        for (let s = 0; s < rows.size; s += 200) paged.push(...buildRows(model, rows, s, 200, DECO, t0));
        assert.equal(paged.length, rows.size, path);
        for (let r = rows.size - 1; r >= 0; r--) {
          const node = rows.nodeAt(r);
          const [single] = buildRows(model, rows, r, 1, DECO, t0);
          assert.deepEqual(single, paged[r], `${path} row ${r}`);
          if (node < 0) continue;
          assert.deepEqual(paged[r], referenceRow(model, rows, node, t0), `${path} row ${r}${compact ? ' (compact)' : ''}`);
          compared++;
          if (paged[r].idSpans) linked++;
        }
      }
    }
    // The comparison covered id links, not only rows without any.
    assert.ok(compared > 5000 && linked > 100, `${compared} rows, ${linked} with id links`);
  });

  it('links the longest id first, the first named of two equally long ones, ids of 3 characters or more, at most 4', async () => {
    const lines = [
      { event_type: 'session_start', event_id: 'ses_root', parent_id: null, timestamp: 1, model: 'm' },
      // Own id, parent id, mentions: "abcd" (work_id) and "bcde" (delegation_id) overlap in "abcde", where the one
      // named first wins; "abcdefgh" (call_id) is longer and links where it stands; "qq" is too short; "x1y" and
      // "zz9" would be the fifth and sixth link.
      { event_type: 'harness_note', event_id: 'evt_note', parent_id: 'ses_root', timestamp: 2, work_id: 'abcd', delegation_id: 'bcde', call_id: 'abcdefgh', plan_id: 'qq', step_id: 'x1y', member: 'zz9', text: 'abcde abcdefgh qq evt_note ses_root x1y zz9' },
    ];
    const model = await loadTrace(tempFile('trace.jsonl', lines.map((l) => JSON.stringify(l)).join('\n') + '\n'), { format: 'murmur' });
    const label = model.events.labelOf(1);
    assert.equal(label, 'harness_note abcde abcdefgh qq evt_note ses_root x1y zz9');
    const at = (id: string) => ({ start: label.indexOf(id), end: label.indexOf(id) + id.length, id });
    const expected = [at('abcd'), at('abcdefgh'), at('evt_note'), at('ses_root')];
    assert.deepEqual(expected.map((s) => s.start), [13, 19, 31, 40]);
    assert.deepEqual(labelIdSpans(model, 1, label), expected);
    assert.deepEqual(referenceSpans(model, 1, label), expected);
    const rows = new RowProjection(treeSourceOf(model));
    rows.expandAll();
    assert.deepEqual(buildRows(model, rows, 0, 2, DECO, null)[1].idSpans, expected);
  });
});
