import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deepstrikeAdapter } from '../../../../src/core/formats/deepstrike/adapter';
import { loadTrace } from '../../../../src/core/loadTrace';
import { CORE_A, CORE_B, dsCorpus, SDK_PY, treeOf, writeTemp } from './deepstrikeTestUtil';
import { CORPUS_ROOT } from '../../../helpers/corpus';

/** Expected per corpus file: event count and the parent line of every event (null = root). */
const CORPUS: Record<string, { events: number; parents: (number | null)[] }> = {
  [CORE_A]: { events: 20, parents: [null, 1, 1, 3, 4, 3, 1, 1, 8, 9, 9, 9, 8, 8, 8, 1, 1, 17, 17, 1] },
  [CORE_B]: { events: 17, parents: [null, 1, 1, 3, 3, 1, 1, 1, 1, 4, 1, 1, 12, 13, 12, 12, 1] },
  [SDK_PY]: { events: 30, parents: [null, 1, 1, 1, 4, 5, 4, 1, 1, 9, 10, 10, 10, 10, 1, 1, 16, 17, 17, 1, 20, 1, null, 23, 23, 23, 26, 27, 26, 23] },
  'selfharness/missing-terminal.events.jsonl': { events: 5, parents: [null, 1, 2, 3, 1] },
  'selfharness/no-progress-deny.events.jsonl': { events: 9, parents: [null, 1, 2, 1, 4, 1, 6, 1, 1] },
  'selfharness/passing.events.jsonl': { events: 6, parents: [null, 1, 2, 3, 1, 1] },
  'selfharness/timeout-fnf-a.events.jsonl': { events: 14, parents: [null, 1, 2, 3, 1, 5, 6, 5, 1, 9, 10, 9, 1, 1] },
};

describe('deepstrike adapter: corpus', () => {
  for (const [name, want] of Object.entries(CORPUS)) {
    it(`${name}: detected, ${want.events} events, derived parents`, async () => {
      const m = await loadTrace(dsCorpus(name));
      assert.equal(m.format, 'deepstrike');
      assert.ok(m.detection.confidence >= 0.9, `confidence ${m.detection.confidence}`);
      assert.equal(m.events.size, want.events);
      assert.deepEqual(treeOf(m).map((x) => x[1]), want.parents);
      assert.deepEqual(m.diagnostics, []);
    });
  }

  it('labels, status, tokens, model, tools and groups (both dialects)', async () => {
    const core = await loadTrace(dsCorpus(CORE_A));
    const t = core.events;
    assert.equal(t.get(2).label, 'llm_completed turn 1 gpt-5.1 41 tokens → git_log');
    assert.equal(t.get(2).tokensOut, 41);
    assert.equal(t.get(2).model, 'gpt-5.1');
    assert.equal(t.get(11).label, "tool_completed write_file fatal: ENOSPC: no space left on device, write 'RELEASE_NOTES.md'");
    assert.equal(t.get(11).status, 'error');
    assert.equal(t.get(11).tool, 'write_file');
    assert.equal(t.get(12).status, 'warning');
    assert.equal(t.get(19).label, 'run_terminal completed 3 turns 6.1k tokens');
    assert.equal(t.get(5).group, 'cf4b9840-38b2-48d1-8e8f-07c7ceff893c');
    assert.deepEqual(t.get(4).mentions, [{ field: 'results[0].call_id', id: 'call_Qm3xR7tVb2LpK9wZ' }]);
    const sdk = await loadTrace(dsCorpus(SDK_PY));
    assert.equal(sdk.events.get(12).status, 'warning', 'tool_denied');
    assert.equal(sdk.events.get(13).status, 'warning', 'governance_denied result');
    assert.equal(sdk.events.get(2).tokensIn, 1843);
    assert.deepEqual(sdk.events.get(2).hashRefs.map((h) => h.field), ['measurement.request_fingerprint']);
    assert.equal(sdk.events.get(22).group, '6f688fd9-8557-4461-9976-7b27fc695f1b');
    assert.equal(sdk.events.get(29).status, 'error', 'run_terminal error');
    const abort = await loadTrace(dsCorpus(CORE_B));
    assert.equal(abort.events.get(16).status, 'warning', 'user_abort');
  });

  it('totals: outputs, measured inputs, tool calls, run tokens', async () => {
    assert.deepEqual((await loadTrace(dsCorpus(SDK_PY))).formatTotals, { inputTokens: 6114, outputTokens: 266, toolCalls: 4, errors: 2, totalTokens: 9211, runs: 2 });
    assert.deepEqual((await loadTrace(dsCorpus('selfharness/passing.events.jsonl'))).formatTotals, { outputTokens: 112, toolCalls: 1, errors: 0, totalTokens: 400, runs: 1 });
  });

  it('reads a pretty-printed *.events.json array, each element on its own line', async () => {
    const lines = readFileSync(dsCorpus('selfharness/passing.events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as unknown);
    const m = await loadTrace(writeTemp('passing.events.json', JSON.stringify(lines, null, 2) + '\n'));
    assert.equal(m.format, 'deepstrike');
    assert.ok(m.document);
    assert.deepEqual(treeOf(m), [[3, null, 'run_started'], [16, 3, 'llm_completed'], [32, 16, 'tool_requested'], [46, 32, 'tool_completed'], [60, 3, 'llm_completed'], [70, 3, 'run_terminal']]);
  });

  it('reads bare SessionEvent arrays (upstream tests/fixtures/session shape)', async () => {
    const bare = [
      { kind: 'tool_gated', turn: 2, call_id: 'c1', tool: 'needs_approval', reason: 'ask_user' },
      { kind: 'suspended', turn: 2, reason: 'ask_user', pending_calls: ['c1'] },
      { kind: 'resumed', turn: 3, approved: ['c1'], denied: [] },
    ];
    const m = await loadTrace(writeTemp('events_ask_user.json', JSON.stringify(bare, null, 2)));
    assert.equal(m.format, 'deepstrike');
    assert.deepEqual(treeOf(m).map((x) => [x[0], x[2]]), [[3, 'tool_gated'], [10, 'suspended'], [18, 'resumed']]);
  });

  it('accepts either key order of {seq, event}', async () => {
    const p = writeTemp('order.jsonl', '{"event":{"kind":"run_started","run_id":"r","goal":"g","criteria":[],"agent_id":null,"system_prompt":null},"seq":0}\n{"seq":1,"event":{"kind":"run_terminal","reason":"completed","turns_used":0,"total_tokens":0}}\n');
    const m = await loadTrace(p);
    assert.deepEqual(treeOf(m), [[1, null, 'run_started'], [2, 1, 'run_terminal']]);
  });
});

describe('deepstrike adapter: detection', () => {
  const sample = (values: unknown[]) => ({ values, fileName: 'x.jsonl', path: 'x.jsonl', document: false });

  it('claims session lines, bare known kinds and journal records; not look-alikes', () => {
    assert.ok(deepstrikeAdapter.sniff(sample([{ seq: 0, event: { kind: 'run_started' } }])).confidence >= 0.9);
    assert.ok(deepstrikeAdapter.sniff(sample([{ kind: 'tool_gated', turn: 1 }])).confidence >= 0.5);
    assert.ok(deepstrikeAdapter.sniff(sample([{ step_seq: 0, record_digest: 'sha256:x', record_bytes: 'e30=' }])).confidence >= 0.9);
    assert.equal(deepstrikeAdapter.sniff(sample([{ kind: 'run_start', seq: 1, prev_hash: 'x' }])).confidence, 0);
    assert.equal(deepstrikeAdapter.sniff(sample([{ seq: 0, occurred_at_ms: 1, event: { event: 'run_started' } }])).confidence, 0);
    assert.equal(deepstrikeAdapter.sniff(sample([{ kind: 'something_else' }])).confidence, 0);
  });

  it('scores no other corpus file at 0.5 or more', async () => {
    const files: string[] = [];
    const walk = (d: string) => {
      for (const n of readdirSync(d)) {
        const p = join(d, n);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.(jsonl|json)$/.test(n)) files.push(p);
      }
    };
    walk(CORPUS_ROOT);
    for (const f of files) {
      const m = await loadTrace(f);
      const mine = m.detection.candidates.find((c) => c.format === 'deepstrike')?.confidence ?? 0;
      if (f.includes('/deepstrike/')) assert.equal(m.format, 'deepstrike', f);
      else assert.ok(mine < 0.5, `${f} scored ${mine}`);
    }
  });
});
