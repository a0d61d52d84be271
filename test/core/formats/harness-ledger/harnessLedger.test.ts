import { strict as assert } from 'node:assert';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { harnessLedgerAdapter } from '../../../../src/core/formats/harness-ledger/adapter';
import { loadTrace } from '../../../../src/core/loadTrace';
import { harnessCorpus, treeOf, writeTemp } from './harnessTestUtil';
import { CORPUS_ROOT } from '../../../helpers/corpus';

/** Expected per corpus file: event count and the parent line of every event (null = root). */
const CORPUS: Record<string, { events: number; parents: (number | null)[] }> = {
  'approval-denied.jsonl': { events: 11, parents: [null, 1, 2, 3, 2, 5, 5, 1, 8, 9, 1] },
  'policy-denied-canceled.jsonl': { events: 15, parents: [null, 1, 2, 3, 2, 5, 5, 1, 8, 9, 8, 11, 1, 13, 1] },
  'run-failed-provider.jsonl': { events: 11, parents: [null, 1, 2, 3, 2, 5, 5, 5, 1, 9, 1] },
  'success-approvals.jsonl': { events: 28, parents: [null, 1, 2, 3, 2, 5, 5, 5, 1, 9, 10, 9, 12, 12, 12, 12, 1, 17, 18, 17, 20, 20, 20, 20, 1, 25, 26, 1] },
  'tool-failed.jsonl': { events: 19, parents: [null, 1, 2, 3, 2, 5, 5, 5, 1, 9, 10, 9, 12, 12, 12, 1, 16, 17, 1] },
  'yolo-write.bare.jsonl': { events: 13, parents: [null, 1, 2, 3, 2, 5, 5, 5, 5, 1, 10, 11, 1] },
  'negative/success-approvals.approval-skipped.jsonl': { events: 27, parents: [null, 1, 2, 3, 2, 5, 5, 5, 1, 9, 10, 9, 12, 12, 12, 1, 16, 17, 16, 19, 19, 19, 19, 1, 24, 25, 1] },
};

describe('harness-ledger adapter: corpus', () => {
  for (const [name, want] of Object.entries(CORPUS)) {
    it(`${name}: detected, ${want.events} events, derived parents`, async () => {
      const m = await loadTrace(harnessCorpus(name));
      assert.equal(m.format, 'harness-ledger');
      assert.ok(m.detection.confidence >= 0.9, `confidence ${m.detection.confidence}`);
      assert.equal(m.events.size, want.events);
      assert.deepEqual(treeOf(m).map((x) => x[1]), want.parents);
      assert.equal(m.tree.roots.length, 1, 'one run root');
      assert.deepEqual(m.diagnostics, []);
    });
  }

  it('labels, status, durations, tokens, model and tools (yolo-write)', async () => {
    const m = await loadTrace(harnessCorpus('yolo-write.bare.jsonl'));
    const t = m.events;
    assert.equal(t.get(0).label, 'run run_1795963597417_48688_0 agent plato');
    assert.equal(t.get(0).group, 'run_1795963597417_48688_0');
    const resp = t.get(3);
    assert.equal(resp.kind, 'model_responded');
    assert.equal(resp.tokensIn, 1170);
    assert.equal(resp.tokensOut, 24);
    assert.equal(resp.model, '~openai/gpt-latest');
    assert.equal(resp.durationMs, 1598886 - 1597420);
    assert.match(resp.label, /^inference ~openai\/gpt-latest 1\.2k→24 tokens 1\.5 s → file\.write$/);
    const finished = t.get(8);
    assert.equal(finished.tool, 'file.write');
    assert.equal(finished.durationMs, 1);
    assert.equal(finished.label, 'tool_finished file.write 1 ms: wrote 14 bytes to hello.txt');
    assert.deepEqual(t.get(6).mentions, [{ field: 'call_id', id: 'call_W1nQz7Yb4hKc0VrT9sLmE2dX' }, { field: 'actor_id', id: 'yolo' }]);
    assert.equal(t.get(12).durationMs, 1600015 - 1597417);
    assert.equal(t.get(0).time, 1795963597417);
    assert.equal(t.get(4).seq, 4);
  });

  it('statuses for denial, failure and cancellation', async () => {
    const denied = await loadTrace(harnessCorpus('approval-denied.jsonl'));
    assert.equal(denied.events.get(6).status, 'warning');
    assert.match(denied.events.get(6).label, /^approval denied file\.write by stdin: approval denied by stdin/);
    const failed = await loadTrace(harnessCorpus('tool-failed.jsonl'));
    assert.equal(failed.events.get(7).status, 'error');
    assert.equal(failed.events.get(7).kind, 'tool_failed');
    const canceled = await loadTrace(harnessCorpus('policy-denied-canceled.jsonl'));
    assert.equal(canceled.events.get(11).status, 'warning', 'policy deny');
    assert.equal(canceled.events.get(14).status, 'warning', 'run canceled');
    const provider = await loadTrace(harnessCorpus('run-failed-provider.jsonl'));
    assert.equal(provider.events.get(10).status, 'error');
  });

  it('totals from model usage and tool calls', async () => {
    const m = await loadTrace(harnessCorpus('success-approvals.jsonl'));
    assert.deepEqual(m.formatTotals, { inputTokens: 6656, outputTokens: 204, toolCalls: 3, errors: 0, denials: 0 });
  });

  it('reads the tag anywhere among the keys, the v2 server envelope and a voice_events line', async () => {
    const p = writeTemp('forms.jsonl', [
      '{"v":2,"record":{"seq":0,"occurred_at_ms":1760000000000,"event":{"event":"run_started","run_id":"run_2","profile_id":"profile_1","profile_revision":7}}}',
      '{"voice_events":[{"t":1}]}',
      '{"event":{"run_id":"run_2","event":"run_failed","reason":"boom"},"occurred_at_ms":1760000000100,"seq":1}',
    ].join('\n') + '\n');
    const m = await loadTrace(p);
    assert.equal(m.format, 'harness-ledger');
    assert.deepEqual(treeOf(m), [[1, null, 'run_started'], [2, null, 'voice_events'], [3, 1, 'run_failed']]);
    assert.equal(m.events.get(0).label, 'run run_2 agent profile_1@7');
    assert.equal(m.events.get(2).durationMs, 100);
  });

  it('groups several runs in one file and keeps unknown events', async () => {
    const rec = (seq: number, run: string, e: string) => `{"seq":${seq},"occurred_at_ms":${seq},"event":{"event":"${e}","run_id":"${run}"}}`;
    const p = writeTemp('two-runs.jsonl', [rec(0, 'a', 'run_started'), rec(0, 'b', 'run_started'), rec(1, 'a', 'mystery'), rec(1, 'b', 'run_failed')].join('\n') + '\n');
    const m = await loadTrace(p);
    assert.deepEqual(treeOf(m), [[1, null, 'run_started'], [2, null, 'run_started'], [3, 1, 'mystery'], [4, 2, 'run_failed']]);
    assert.deepEqual([m.events.groupOf(2), m.events.groupOf(3)], ['a', 'b']);
  });
});

describe('harness-ledger adapter: detection', () => {
  const sample = (values: unknown[]) => ({ values, fileName: 'x.jsonl', path: 'x.jsonl', document: false });

  it('claims bare and enveloped records, not look-alikes', () => {
    const bare = { seq: 0, occurred_at_ms: 1, event: { event: 'run_started', run_id: 'r', agent_id: 'a' } };
    assert.ok(harnessLedgerAdapter.sniff(sample([bare])).confidence >= 0.9);
    assert.ok(harnessLedgerAdapter.sniff(sample([{ v: 1, record: bare }])).confidence >= 0.9);
    assert.equal(harnessLedgerAdapter.sniff(sample([{ seq: 0, event: { kind: 'run_started' } }])).confidence, 0);
    assert.equal(harnessLedgerAdapter.sniff(sample([{ seq: 0, occurred_at_ms: 1, event: { kind: 'x' } }])).confidence, 0);
    assert.ok(harnessLedgerAdapter.sniff(sample([{ voice_events: [] }])).confidence < 0.5);
  });

  it('scores no other corpus file at 0.5 or more', async () => {
    const root = CORPUS_ROOT;
    const files: string[] = [];
    const walk = (d: string) => {
      for (const n of readdirSync(d)) {
        const p = join(d, n);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.(jsonl|json)$/.test(n)) files.push(p);
      }
    };
    walk(root);
    assert.ok(files.length > 20);
    for (const f of files) {
      const m = await loadTrace(f);
      const mine = m.detection.candidates.find((c) => c.format === 'harness-ledger')?.confidence ?? 0;
      if (f.includes('/harness-ledger/')) assert.equal(m.format, 'harness-ledger', f);
      else assert.ok(mine < 0.5, `${f} scored ${mine}`);
    }
  });
});
