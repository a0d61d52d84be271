import { strict as assert } from 'node:assert';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { traceDiffJson } from '../../../src/core/diff/diffJson';
import { agentledger, claudeSession, diffFiles, linesOf, MURMUR, opCounts, writeVariant } from './diffPairs';

describe('diffTraces on pairs built from corpus and real-writer files', () => {
  it('finds nothing but equal events between two copies of a file', async () => {
    for (const src of [MURMUR, claudeSession('shell-ok'), agentledger('approval-granted', 'events.jsonl')]) {
      const copy = join(mkdtempSync(join(tmpdir(), 'atv-diff-')), 'copy.jsonl');
      copyFileSync(src, copy);
      const d = await diffFiles(src, copy);
      assert.equal(d.firstDivergence, -1, src);
      assert.equal(d.ops.length, d.a.events.size);
      assert.ok(d.ops.every((op) => op.op === 'equal'));
      assert.deepEqual([d.summary.equal, d.summary.inserted, d.summary.deleted, d.summary.changed], [d.a.events.size, 0, 0, 0]);
      assert.equal(traceDiffJson(d).firstDivergence, null);
    }
  });

  it('shows one inserted tool call at position k as one insert, everything else equal', async () => {
    const lines = linesOf(MURMUR);
    const call = JSON.parse(lines[3]);
    assert.equal(call.event_type, 'tool_call');
    const extra = { ...call, event_id: 'evt_' + 'f'.repeat(32), input: { command: 'cat notes.md' } };
    const b = writeVariant([...lines.slice(0, 4), JSON.stringify(extra), ...lines.slice(4)]);
    const d = await diffFiles(MURMUR, b);
    const c = opCounts(d);
    assert.deepEqual(c, { equal: 7, insert: 1, delete: 0, change: 0 });
    const first = d.ops[d.firstDivergence];
    assert.equal(first.op, 'insert');
    assert.equal(d.b.events.lineOf(first.b), 5);
    assert.deepEqual(traceDiffJson(d).firstDivergence, { aLine: 5, bLine: 5 });
    // Nothing after the insert is shifted into a difference.
    assert.ok(d.ops.slice(d.firstDivergence + 1).every((op) => op.op === 'equal'));
  });

  it('shows one changed argument as one change naming that field', async () => {
    const a = claudeSession('shell-ok');
    const lines = linesOf(a);
    const k = lines.findIndex((l) => l.includes('"command":"echo hello"'));
    assert.ok(k > 0);
    const b = writeVariant(lines.map((l, i) => (i === k ? l.replace('"command":"echo hello"', '"command":"echo bye"') : l)));
    const d = await diffFiles(a, b);
    assert.deepEqual(opCounts(d), { equal: d.a.events.size - 1, insert: 0, delete: 0, change: 1 });
    const op = d.ops[d.firstDivergence];
    assert.equal(op.op, 'change');
    assert.equal(d.a.events.lineOf(op.a), k + 1);
    assert.deepEqual(op.fields, [{ path: 'message.content[0].input.command', a: 'echo hello', b: 'echo bye' }]);
  });

  it('shows a deleted turn as the deletion of the turn and its tool call', async () => {
    const lines = linesOf(MURMUR);
    assert.deepEqual([JSON.parse(lines[2]).event_type, JSON.parse(lines[3]).event_type], ['inference', 'tool_call']);
    const b = writeVariant([...lines.slice(0, 2), ...lines.slice(4)]);
    const d = await diffFiles(MURMUR, b);
    assert.deepEqual(opCounts(d), { equal: 5, insert: 0, delete: 2, change: 0 });
    const dels = d.ops.filter((op) => op.op === 'delete');
    assert.deepEqual(dels.map((op) => d.a.events.lineOf(op.a)), [3, 4]);
    assert.deepEqual(dels.map((op) => op.depth), [2, 3]);
    assert.equal(dels[0].tokensDelta, -(812 + 64));
    assert.deepEqual(traceDiffJson(d).firstDivergence, { aLine: 3, bLine: 3 });
  });

  it('shows two reordered siblings as one event moved (a delete and an insert of it), the rest equal', async () => {
    const a = claudeSession('shell-ok');
    const lines = linesOf(a);
    const i = lines.findIndex((l) => l.includes('"type":"api-request-shape"'));
    assert.ok(i > 0 && lines[i + 1].includes('"type":"api-request-blob"'));
    const swapped = [...lines];
    [swapped[i], swapped[i + 1]] = [swapped[i + 1], swapped[i]];
    const d = await diffFiles(a, writeVariant(swapped));
    assert.deepEqual(opCounts(d), { equal: d.a.events.size - 1, insert: 1, delete: 1, change: 0 });
    const moved = d.ops.filter((op) => op.op !== 'equal');
    assert.equal(d.a.events.kindOf(moved.find((op) => op.op === 'delete')!.a), d.b.events.kindOf(moved.find((op) => op.op === 'insert')!.b));
  });

  it('finds where approval-granted and approval-denied part: the approval decision', async () => {
    for (const file of ['events.jsonl', 'trace.jsonl'] as const) {
      const d = await diffFiles(agentledger('approval-granted', file), agentledger('approval-denied', file));
      assert.deepEqual(traceDiffJson(d).firstDivergence, { aLine: 12, bLine: 12 }, file);
      const op = d.ops[d.firstDivergence];
      assert.equal(op.op, 'change');
      assert.equal(d.a.events.kindOf(op.a), 'tool_approval_decided');
      // The shared prefix is the first 11 lines, equal although every id and time differs between the runs.
      assert.deepEqual(d.ops.slice(0, d.firstDivergence).map((o) => d.a.events.lineOf(o.a)), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
      assert.ok(d.summary.deleted > 0 && d.summary.inserted > 0);
    }
    const d = await diffFiles(agentledger('approval-granted', 'events.jsonl'), agentledger('approval-denied', 'events.jsonl'));
    const fields = d.ops[d.firstDivergence].fields!;
    assert.deepEqual(fields.find((f) => f.path === 'payload.status'), { path: 'payload.status', a: 'APPROVED', b: 'DENIED' });
    assert.ok(!fields.some((f) => /event_id|timestamp|hash/.test(f.path)), JSON.stringify(fields));
  });

  it('shows ids, times and hashes when asked to', async () => {
    const d = await diffFiles(agentledger('approval-granted', 'events.jsonl'), agentledger('approval-denied', 'events.jsonl'), { includeVolatile: true });
    assert.deepEqual(traceDiffJson(d).firstDivergence, { aLine: 1, bLine: 1 });
    const paths = d.ops[0].fields!.map((f) => f.path);
    assert.ok(paths.includes('event_id') && paths.includes('timestamp') && paths.includes('run_id'), paths.join(', '));
  });

  it('aligns the two files one agentledger run was written in (events.jsonl and its span trace.jsonl)', async () => {
    const d = await diffFiles(agentledger('approval-granted', 'events.jsonl'), agentledger('approval-granted', 'trace.jsonl'));
    assert.equal(d.sameShape, false);
    assert.equal(d.firstDivergence, -1);
    assert.equal(d.summary.equal, 28);
    const x = await diffFiles(agentledger('approval-granted', 'events.jsonl'), agentledger('approval-denied', 'trace.jsonl'));
    assert.equal(x.a.events.kindOf(x.ops[x.firstDivergence].a ?? -1), 'tool_approval_decided');
  });

  it('reports the runs\' duration and token deltas in total, and cost as unknown for a model no price is known for (mock-llm)', async () => {
    const d = await diffFiles(agentledger('approval-granted', 'events.jsonl'), agentledger('approval-denied', 'events.jsonl'));
    // The denied run never made its second model call: 212 + 18 tokens fewer.
    assert.equal(d.summary.tokensDelta, -230);
    assert.equal(typeof d.summary.durationDeltaMs, 'number');
    assert.ok(d.summary.durationDeltaMs! < 0);
    assert.equal(d.summary.costDeltaUsd, null);
  });

  /** The Claude Code shell-ok session with the Bash result and every line after it written `ms` later. */
  function slowerToolCall(ms: number): { a: string; b: string; result: number } {
    const a = claudeSession('shell-ok');
    const lines = linesOf(a);
    const result = lines.findIndex((l) => l.includes('"type":"tool_result"'));
    assert.ok(result > 0);
    const shift = (l: string) => l.replace(/"timestamp":"([^"]+)"/, (_m, t: string) => `"timestamp":"${new Date(Date.parse(t) + ms).toISOString()}"`);
    return { a, b: writeVariant(lines.map((l, i) => (i >= result ? shift(l) : l))), result };
  }

  it('flags a tool call that took 125 s longer as a change, with the delta in the summary (issue 40)', async () => {
    const { a, b, result } = slowerToolCall(125_000);
    const d = await diffFiles(a, b);
    assert.deepEqual(opCounts(d), { equal: d.a.events.size - 1, insert: 0, delete: 0, change: 1 });
    const op = d.ops[d.firstDivergence];
    assert.equal(d.a.events.lineOf(op.a), result + 1);
    assert.equal(op.durationDeltaMs, 125_000);
    const dur = op.fields?.find((f) => f.path === 'durationMs');
    assert.ok(dur, JSON.stringify(op.fields));
    assert.equal((dur.b as number) - (dur.a as number), 125_000);
    assert.equal(d.summary.durationDeltaMs, 125_000);
    assert.deepEqual(d.summary.thresholdChanges, { duration: 1, durationDeltaMs: 125_000, tokens: 0, tokensDelta: 0, thresholds: { durationMs: 1000, tokens: 100, ratio: 0.1 } });
    const j = traceDiffJson(d);
    assert.deepEqual(j.firstDivergence, { aLine: result + 1, bLine: result + 1 });
    assert.equal(j.summary.thresholdChanges.durationDeltaMs, 125_000);
  });

  it('keeps a jitter under the threshold equal, and the threshold is an option', async () => {
    const { a, b } = slowerToolCall(300);
    const d = await diffFiles(a, b);
    assert.equal(d.firstDivergence, -1);
    assert.equal(d.summary.thresholdChanges.duration, 0);
    assert.equal(d.summary.durationDeltaMs, 300);
    const strict = await diffFiles(a, b, { thresholds: { durationMs: 100 } });
    assert.equal(strict.summary.changed, 1);
    assert.equal(strict.summary.thresholdChanges.durationDeltaMs, 300);
  });
});
