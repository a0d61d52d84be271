import { strict as assert } from 'node:assert';
import { loadTrace } from '../../src/core/loadTrace';
import { diffTraces } from '../../src/core/diff/diffTraces';
import { compareData, compareDetail, compareInit, compareRowsPage } from '../../src/viewer/compareSession';
import { COMPARE_PAGE_ROWS, MAX_COMPARE_PAGE, MAX_MALFORMED_LINES } from '../../src/protocol/compare';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/tmp';
import { PAGE_ROWS } from '../../webview/rowCache';
import { claudeSession } from '../core/diff/diffPairs';
import { agentledger } from '../core/diff/diffPairs';
import { summarize } from '../../src/core/summary';

describe('compare view host logic (rows, detail, message validation)', () => {
  it('sends unreadable lines with whole counts and at most MAX_MALFORMED_LINES line numbers; none when neither run has one', async () => {
    const dir = tempDir();
    const lines = ['{"type":"x","id":"r"}', ...Array.from({ length: MAX_MALFORMED_LINES + 20 }, (_, k) => `broken ${k}`)];
    writeFileSync(join(dir, 'a.jsonl'), lines.join('\n') + '\n');
    writeFileSync(join(dir, 'b.jsonl'), lines[0] + '\n');
    const diff = await diffTraces(await loadTrace(join(dir, 'a.jsonl')), await loadTrace(join(dir, 'b.jsonl')));
    const m = compareInit(compareData(diff, 1), false).malformed!;
    assert.equal(m.a.count, MAX_MALFORMED_LINES + 20);
    assert.deepEqual(m.a.lines, Array.from({ length: MAX_MALFORMED_LINES }, (_, k) => k + 2));
    assert.deepEqual(m.b, { count: 0, lines: [] });
    assert.deepEqual(m.firstDifference, { aLine: 2, bLine: null });
    const same = await diffTraces(await loadTrace(join(dir, 'b.jsonl')), await loadTrace(join(dir, 'b.jsonl')));
    assert.equal(compareInit(compareData(same, 1), false).malformed, null);
  });

  it('gives one row per op with both sides (bookkeeping shown), and the detail of a changed row with both events', async () => {
    const diff = await diffTraces(await loadTrace(agentledger('approval-granted', 'events.jsonl')), await loadTrace(agentledger('approval-denied', 'events.jsonl')));
    const data = compareData(diff, 1, true);
    const rows = compareRowsPage(data, 0, MAX_COMPARE_PAGE).rows;
    assert.equal(rows.length, diff.ops.length);
    const k = diff.firstDivergence;
    assert.deepEqual([rows[k].op, rows[k].a?.line, rows[k].b?.line, rows[k].a?.kind], ['change', 12, 12, 'tool_approval_decided']);
    assert.equal(rows.find((r) => r.op === 'delete')!.b, null);
    assert.equal(rows.find((r) => r.op === 'insert')!.a, null);
    const init = compareInit(data, false);
    assert.equal(init.type, 'compareInit');
    assert.deepEqual([init.rowCount, init.page.from, init.page.rows.length, init.generation], [rows.length, 0, rows.length, 1]);
    assert.deepEqual(init.hunks[0], { row: k, op: 'change' });
    const d = (await compareDetail(data, k))!;
    assert.equal(d.op, 'change');
    assert.deepEqual(d.fields.find((f) => f.path === 'payload.status'), { path: 'payload.status', a: 'APPROVED', b: 'DENIED' });
    assert.match(d.a!.json, /"status": "APPROVED"/);
    assert.match(d.b!.json, /"status": "DENIED"/);
    assert.equal(await compareDetail(data, rows.length), null);
    const ins = (await compareDetail(data, rows.findIndex((r) => r.op === 'insert')))!;
    assert.equal(ins.a, null);
    assert.equal(ins.b!.kind, 'step_failed');
  });

  it('pages the rows: a page is a slice of the ops, clamped, capped, and the first page holds the first divergence', async () => {
    const diff = await diffTraces(await loadTrace(claudeSession('shell-ok')), await loadTrace(claudeSession('shell-fail')));
    const data = compareData(diff, 7, true);
    // The view's page cache and the host's first page must agree on where pages start.
    assert.equal(COMPARE_PAGE_ROWS, PAGE_ROWS);
    const all = compareRowsPage(data, 0, MAX_COMPARE_PAGE);
    assert.equal(all.rows.length, Math.min(diff.ops.length, MAX_COMPARE_PAGE));
    const mid = compareRowsPage(data, 3, 4);
    assert.deepEqual([mid.generation, mid.from, mid.rows.length], [7, 3, 4]);
    assert.deepEqual(mid.rows.map((r) => r.op), diff.ops.slice(3, 7).map((o) => o.op));
    assert.deepEqual(mid.rows.map((r) => r.b?.line ?? null), diff.ops.slice(3, 7).map((o) => (o.b >= 0 ? diff.b.events.lineOf(o.b) : null)));
    assert.equal(compareRowsPage(data, diff.ops.length + 5, 10).rows.length, 0);
    assert.equal(compareRowsPage(data, 0, 10 ** 6).rows.length, Math.min(diff.ops.length, MAX_COMPARE_PAGE));
    // Timed events carry their bar, after their own run's start: the run's first timed line, the header's start
    // (a Claude Code session opens with bookkeeping lines, counted in the span though not drawn as bars).
    const timed = all.rows.flatMap((r) => [r.a, r.b]).filter((s) => s !== null && s.startMs !== null);
    assert.ok(timed.length > 0);
    assert.ok(timed.every((s) => s!.startMs! >= 0));
    assert.equal(data.timelines.a.t0, Date.parse(summarize(diff.a).startTime!));
    const firstBar = Math.min(...all.rows.filter((r) => r.a?.startMs != null).map((r) => r.a!.startMs!));
    assert.ok(firstBar >= 0 && firstBar < data.timelines.a.span, `first bar at ${firstBar} ms of ${data.timelines.a.span}`);
    const init = compareInit(data, false);
    const at = diff.firstDivergence;
    assert.ok(init.page.from <= at && at < init.page.from + init.page.rows.length);
    assert.equal(init.hunks.length, diff.ops.filter((o, i) => o.op !== 'equal' && (i === 0 || diff.ops[i - 1].op === 'equal')).length);
    assert.ok(init.spanMs.a > 0 && init.spanMs.b > 0);
  });

  it('folds the writers\' bookkeeping rows as the tree does: the steps that differ are the places, and a difference only in bookkeeping is still one', async () => {
    const a = await loadTrace(claudeSession('shell-ok'));
    const diff = await diffTraces(a, await loadTrace(claudeSession('shell-fail')));
    const folded = compareData(diff, 1);
    const shown = compareData(diff, 2, true);
    const BOOKKEEPING = new Set(['queue-operation', 'attachment', 'last-prompt', 'cost-state', 'api-request', 'api-request-blob', 'api-request-shape', 'tools-used', 'atis-latch']);
    const rows = compareRowsPage(folded, 0, MAX_COMPARE_PAGE).rows;
    const all = compareRowsPage(shown, 0, MAX_COMPARE_PAGE).rows;
    assert.equal(all.length, diff.ops.length);
    assert.equal(rows.length, diff.ops.length - folded.bookkeeping.rows);
    assert.ok(folded.bookkeeping.rows > 10, `${folded.bookkeeping.rows} bookkeeping rows`);
    // No row left is bookkeeping on both sides; the user's prompt, the model calls and the tool calls stay.
    assert.ok(rows.every((r) => !(BOOKKEEPING.has(r.a?.kind ?? 'queue-operation') && BOOKKEEPING.has(r.b?.kind ?? 'queue-operation'))), rows.map((r) => r.a?.kind).join(','));
    assert.ok(rows.some((r) => r.a?.kind === 'user') && rows.some((r) => /^Bash: echo hello/.test(r.a?.label ?? '')));
    const init = compareInit(folded, false);
    const full = compareInit(shown, false);
    assert.equal(init.rowCount, rows.length);
    assert.ok(init.hunks.length > 0 && init.hunks.length < full.hunks.length, `${init.hunks.length} places against ${full.hunks.length}`);
    assert.deepEqual(init.bookkeeping, { rows: folded.bookkeeping.rows, differing: folded.bookkeeping.differing, shown: false });
    assert.ok(init.bookkeeping.differing > 0);
    // The first place is a step: its detail is that row's events.
    const first = (await compareDetail(folded, init.firstDivergence))!;
    assert.equal(first.row, init.firstDivergence);
    assert.ok(!BOOKKEEPING.has(first.a?.kind ?? first.b!.kind), first.a?.kind);
    assert.equal(await compareDetail(folded, rows.length), null);

    // Runs that differ only in a bookkeeping line (the queued prompt's copy): no place shown, and still not equivalent.
    const dir = tempDir();
    const text = (await import('node:fs')).readFileSync(a.path, 'utf8');
    const changed = text.replace('"operation":"enqueue","timestamp":"2026-12-01T16:25:22.574Z"', '"operation":"enqueue","timestamp":"2026-12-01T16:25:22.575Z","extra":"x"');
    assert.notEqual(changed, text);
    writeFileSync(join(dir, 'b.jsonl'), changed);
    const only = compareInit(compareData(await diffTraces(a, await loadTrace(join(dir, 'b.jsonl')), { includeVolatile: true }), 3), true);
    assert.deepEqual([only.firstDivergence, only.hunks.length, only.differ, only.bookkeeping.differing], [-1, 0, true, 1]);
  });
});
