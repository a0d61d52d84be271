import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { EventTable } from '../../src/core/eventTable';
import { loadTrace } from '../../src/core/loadTrace';
import { EVENT_CATEGORIES, EVENT_STATUSES } from '../../src/core/model';
import type { EventDraft, EventPlace } from '../../src/core/model';
import { expandTraceFiles } from '../../src/core/traceFiles';
import { shownPath } from '../../src/core/tracePath';
import { CORPUS_ROOT, WRITER_CORPUS } from '../helpers/corpus';

const SAMPLES = resolve(__dirname, '..', '..', 'samples');
const FIXTURES = resolve(__dirname, '..', 'fixtures');

/** What the loader handed the table for one event, as plain values, with the changes made after it was added. */
interface Plain {
  draft: EventDraft;
  place: EventPlace;
  /** A label left to the line is made again from it with the event's facts as they are now (tokens amended later). */
  relabel?: (facts: EventDraft) => string;
}

/**
 * Loads `path` while recording, beside the compact table, every draft and place the loader gave it and every
 * later duration, status or usage change: the plain values the columns must give back.
 */
async function loadRecording(path: string): Promise<{ table: EventTable; plain: Plain[] }> {
  const plain: Plain[] = [];
  const proto = EventTable.prototype;
  const { add, setDuration, setStatus, setUsage } = proto;
  proto.add = function (this: EventTable, draft, place, value) {
    // A label the builder left to its line is what the format's deriver makes of the line's value.
    const { lineLabel, ...rest } = draft;
    const label = lineLabel ? lineLabel(value, draft) ?? '' : draft.label;
    plain.push({ draft: structuredClone({ ...rest, label }), place: { ...place }, relabel: lineLabel ? (facts) => lineLabel(value, facts) ?? '' : undefined });
    return add.call(this, draft, place, value);
  };
  proto.setDuration = function (this: EventTable, i, ms) {
    plain[i].draft.durationMs = ms;
    setDuration.call(this, i, ms);
  };
  proto.setStatus = function (this: EventTable, i, status) {
    plain[i].draft.status = status;
    setStatus.call(this, i, status);
  };
  proto.setUsage = function (this: EventTable, i, tokensIn, tokensOut, usage) {
    const p = plain[i];
    Object.assign(p.draft, { tokensIn, tokensOut, usage: structuredClone(usage) });
    if (p.relabel) p.draft.label = p.relabel(p.draft);
    setUsage.call(this, i, tokensIn, tokensOut, usage);
  };
  try {
    const model = await loadTrace(path);
    return { table: model.events, plain };
  } finally {
    Object.assign(proto, { add, setDuration, setStatus, setUsage });
  }
}

const finite = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const orNull = <T>(v: T | null | undefined) => v ?? null;

/** Every answer of the table about event i against the plain values. */
function compare(t: EventTable, i: number, { draft: d, place }: Plain, where: string): void {
  const e = t.get(i);
  const expected = {
    line: place.line, offset: place.offset, length: place.length, kind: d.kind, category: d.category ?? 'other', id: orNull(d.id), parentId: orNull(d.parentId),
    seq: finite(d.seq), time: finite(d.time), durationMs: finite(d.durationMs), status: d.status ?? 'ok', tokensIn: finite(d.tokensIn), tokensOut: finite(d.tokensOut),
    model: orNull(d.model) || null, tool: orNull(d.tool) || null, group: orNull(d.group) || null, label: d.label, hashRefs: d.hashRefs ?? [],
    mentions: (d.mentions ?? []).slice(0, 255),
  };
  const got = { ...e, label: e.label };
  for (const key of Object.keys(expected) as (keyof typeof expected)[]) assert.deepEqual(got[key], expected[key], `${where}: ${key}`);
  assert.deepEqual([t.lineOf(i), t.lengthOf(i), t.timeOf(i), t.seqOf(i)], [place.line, place.length, expected.time, expected.seq], where);
  if (expected.id !== null) assert.equal(t.id(t.indexOfId(expected.id)!), expected.id, `${where}: id lookup`);
}

describe('the compact event table gives back exactly what the loader gave it', function () {
  this.timeout(300_000);

  it('on every corpus file, real-writer file, sample and fixture: ids, parents, mentions, labels, seq, times, tokens, durations', async () => {
    const { files } = await expandTraceFiles([CORPUS_ROOT, WRITER_CORPUS, SAMPLES, FIXTURES]);
    assert.ok(files.length > 60, `${files.length} files`);
    let events = 0;
    let mentions = 0;
    for (const file of files) {
      const path = shownPath(file);
      const { table, plain } = await loadRecording(path);
      assert.equal(table.size, plain.length, path);
      // Backwards too: mentions written as a repeat of an earlier one are read without the earlier read first.
      for (let i = table.size - 1; i >= 0; i--) compare(table, i, plain[i], `${path} event ${i}`);
      events += table.size;
      mentions += plain.reduce((n, p) => n + (p.draft.mentions?.length ?? 0), 0);
    }
    assert.ok(events > 3000 && mentions > 3000, `${events} events, ${mentions} mentions`);
  });

  it('gives back offsets past 2^32, times far apart, tokens past 2^32, fractions and a repeated mention', () => {
    const t = new EventTable();
    const T0 = 1767225600000;
    const drafts: { d: EventDraft; p: EventPlace }[] = [];
    for (let i = 0; i < 3000; i++) {
      const big = i % 500 === 7;
      drafts.push({
        d: {
          kind: i % 3 === 0 ? 'inference' : 'tool_call', id: `evt_${i.toString(16).padStart(32, '0')}`, parentId: i > 0 ? `evt_${(i - 1).toString(16).padStart(32, '0')}` : null,
          time: big ? 2 ** 45 + i : i % 11 === 0 ? null : T0 + i * 1000, durationMs: i % 4 === 0 ? i + 0.5 : big ? 2 ** 40 : null, tokensIn: big ? 2 ** 33 + i : i % 3 === 0 ? 800 + i : null,
          tokensOut: i % 3 === 0 ? 60 : null, seq: i % 9 === 0 ? -i : i, label: `call ${i}`, mentions: [{ field: 'task_id', id: `tsk_${Math.floor(i / 40)}` }, { field: 'message_ids[0]', id: `msg_${i}` }],
        },
        p: { line: i + 1 + Math.floor(i / 100), offset: 2 ** 32 - 100_000 + i * 400, length: big ? 2 ** 20 : 380 + (i % 40) },
      });
    }
    drafts.forEach(({ d, p }) => t.add(d, p));
    t.trim();
    drafts.forEach(({ d, p }, i) => compare(t, i, { draft: d, place: p }, `event ${i}`));
  });
  it('gives every event\'s tool, kind, group, category, status and parent in one array each as its accessors do, whole and in a prefix view', async () => {
    const { files } = await expandTraceFiles([CORPUS_ROOT, WRITER_CORPUS, SAMPLES]);
    let tools = 0;
    let parents = 0;
    for (const file of files) {
      const { events } = await loadTrace(file);
      for (const t of [events, events.prefix(Math.floor(events.size / 2))]) {
        const path = `${shownPath(file)} (${t.size} of ${events.size} events)`;
        const [tool, kind, group, cat, status, parent] = [t.refsOf('tool'), t.refsOf('kind'), t.refsOf('group'), t.codesOf('category'), t.codesOf('status'), t.parents()];
        for (const a of [tool, kind, group, cat, status, parent]) assert.equal(a.length, t.size, path);
        // In blocks into arrays reused, the last block cut at the view's end.
        const [tb, kb, sb] = [new Int32Array(7), new Int32Array(7), new Uint8Array(7)];
        for (let from = 0; from < t.size; from += 7) {
          const m = Math.min(7, t.size - from);
          assert.deepEqual([...t.refsOf('tool', from, 7, tb).subarray(0, m)], [...tool.subarray(from, from + m)], `${path} from ${from}`);
          assert.deepEqual([...t.refsOf('kind', from, 7, kb).subarray(0, m)], [...kind.subarray(from, from + m)], `${path} from ${from}`);
          assert.deepEqual([...t.codesOf('status', from, 7, sb).subarray(0, m)], [...status.subarray(from, from + m)], `${path} from ${from}`);
        }
        for (let i = 0; i < t.size; i++) {
          const at = `${path} event ${i}`;
          assert.equal(tool[i], t.toolRefOf(i), at);
          assert.equal(t.stringOf(tool[i]), t.toolOf(i), at);
          assert.equal(t.stringOf(kind[i]) ?? '', t.kindOf(i), at);
          assert.equal(t.stringOf(group[i]), t.groupOf(i), at);
          assert.equal(EVENT_CATEGORIES[cat[i]], t.categoryOf(i), at);
          assert.equal(EVENT_STATUSES[status[i]], t.statusOf(i), at);
          assert.equal(parent[i], t.parent(i), at);
          if (tool[i] !== 0) tools++;
          if (parent[i] >= 0) parents++;
        }
      }
    }
    assert.ok(tools > 500 && parents > 3000, `${tools} tool events, ${parents} with a parent`);
  });
});
