import { strict as assert } from 'node:assert';
import { deepstrikeRules } from '../../../../src/core/formats/deepstrike/rules';
import { brief, checkFile, CORE_A, CORE_B, dsCorpus, jsonl, SDK_PY, writeTemp } from './deepstrikeTestUtil';

/** Check findings per corpus file, derived from SOURCE.md and the doc's §11 (verify finds nothing). */
const EXPECTED_CHECK: Record<string, string[]> = {
  [CORE_A]: [],
  [CORE_B]: [],
  [SDK_PY]: [],
  'selfharness/passing.events.jsonl': ['4 warning deepstrike/result-content'],
  'selfharness/no-progress-deny.events.jsonl': ['4 info deepstrike/kernel-handled', '6 info deepstrike/kernel-handled', '8 info deepstrike/kernel-handled'],
  'selfharness/timeout-fnf-a.events.jsonl': [
    '4 warning deepstrike/enum-values', '4 warning deepstrike/result-content', '7 warning deepstrike/enum-values',
    '7 warning deepstrike/result-content', '11 warning deepstrike/enum-values', '11 warning deepstrike/result-content',
  ],
  'selfharness/missing-terminal.events.jsonl': [
    '4 warning deepstrike/enum-values', '4 warning deepstrike/result-content', '5 info deepstrike/pending-call-eof', '5 warning deepstrike/run-unterminated',
  ],
};

describe('deepstrike rules: corpus findings (SOURCE.md)', () => {
  for (const [name, want] of Object.entries(EXPECTED_CHECK)) {
    it(`${name}: verify`, async () => {
      assert.deepEqual(brief(await checkFile(dsCorpus(name), 'verify')), []);
    });
    it(`${name}: check`, async () => {
      assert.deepEqual(brief(await checkFile(dsCorpus(name), 'check')), want);
    });
  }

  it('missing-terminal: the unterminated run and the pending call_m1', async () => {
    const f = await checkFile(dsCorpus('selfharness/missing-terminal.events.jsonl'), 'check');
    assert.match(f[2].message, /^call call_m1 \(read_file\) has no result at end of file/);
    assert.match(f[3].message, /^run missing-1-0000 started on line 1 has no run_terminal/);
  });

  it('no-progress-deny: each denied call is handled by the kernel', async () => {
    const f = await checkFile(dsCorpus('selfharness/no-progress-deny.events.jsonl'), 'check');
    assert.match(f[0].message, /call call_d0 \(write_file\) from line 2 has no result before this llm_completed; replay inserts "\[write_file handled by kernel\]"/);
  });

  it('a JSON array document gets the same findings on its elements\' lines', async () => {
    const { readFileSync } = await import('node:fs');
    const lines = readFileSync(dsCorpus('selfharness/missing-terminal.events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as unknown);
    const p = writeTemp('missing-terminal.events.json', JSON.stringify(lines, null, 2));
    assert.deepEqual(brief(await checkFile(p, 'check')), [
      '46 warning deepstrike/enum-values', '46 warning deepstrike/result-content', '61 info deepstrike/pending-call-eof', '61 warning deepstrike/run-unterminated',
    ]);
    assert.deepEqual(brief(await checkFile(p, 'verify')), []);
  });
});

describe('deepstrike rules: doc example lines (§9)', () => {
  it('core shape, Rust-SDK sorted keys and the Node dialect all read clean', async () => {
    const core = [
      '{"seq":0,"event":{"kind":"run_started","run_id":"7f3c2a9e-1b4d-4c8e-9a6f-2d5e8b1c0a34","goal":"Summarize README.md","criteria":["cite sections"],"agent_id":"researcher","system_prompt":null}}',
      '{"event":{"kind":"llm_completed","message":{"content":"Reading the file.","role":"assistant","token_count":12,"tool_calls":[{"arguments":{"path":"README.md"},"id":"call_a1","name":"read_file"}]},"turn":1},"seq":1}',
      '{"seq":2,"event":{"kind":"tool_completed","turn":1,"results":[{"call_id":"call_a1","output":"# Project\\n...","is_error":false,"is_fatal":false,"token_count":40}]}}',
      '{"seq":3,"event":{"kind":"llm_completed","turn":1,"content":"Reading the file.","tool_calls":[{"id":"call_a2","name":"read_file","arguments":"{\\"path\\":\\"README.md\\"}"}],"token_count":12,"provider_replay":{"protocol":"anthropic-messages","model":"claude-sonnet-4"}}}',
      '{"seq":4,"event":{"kind":"tool_completed","turn":1,"results":[{"call_id":"call_a2","output":"# Project\\n...","is_error":false,"token_count":40,"content":{"blocks":[{"type":"text","text":"# Project\\n..."}]}}]}}',
      '{"seq":5,"event":{"kind":"compressed","turn":3,"archived_seq_range":[1,4],"action":"snip_compact","summary":"Read README","summary_tokens":4}}',
      '{"seq":6,"event":{"kind":"run_terminal","reason":"completed","turns_used":2,"total_tokens":1840}}',
    ];
    const p = writeTemp('doc-examples.jsonl', jsonl(core));
    assert.deepEqual(brief(await checkFile(p, 'check')), []);
    assert.deepEqual(brief(await checkFile(p, 'verify')), []);
  });

  it('the core example with its own seqs: gaps and a rollback without checkpoint', async () => {
    const p = writeTemp('doc-core.jsonl', jsonl([
      '{"seq":0,"event":{"kind":"run_started","run_id":"r","goal":"g","criteria":[],"agent_id":null,"system_prompt":null}}',
      '{"seq":5,"event":{"kind":"rollbacked","turn":2,"checkpoint_history_len":3,"reason":{"kind":"fatal_tool_error","tool_name":"write_file","error":"disk full"}}}',
      '{"seq":7,"event":{"kind":"compressed","turn":3,"archived_seq_range":[1,5],"action":"snip_compact","summary":"Read README","summary_tokens":4}}',
    ]));
    assert.deepEqual(brief(await checkFile(p, 'verify')), ['2 warning deepstrike/seq-dense', '3 warning deepstrike/seq-dense']);
    assert.deepEqual(brief(await checkFile(p, 'check')), ['2 warning deepstrike/rollback-checkpoint', '3 warning deepstrike/run-unterminated']);
  });
});

describe('deepstrike rules: catalog', () => {
  it('declares every §11 rule with the doc severity', () => {
    const got = Object.fromEntries(deepstrikeRules.rules.map((r) => [r.id.replace('deepstrike/', ''), r.severity]));
    const e = 'error', w = 'warning', i = 'info';
    assert.deepEqual(got, {
      'line-json': e, 'record-keys': e, 'kind-known': w, 'seq-dense': w, 'run-fields': e, 'event-outside-run': w, 'turn-monotonic': w,
      'call-id-known': w, 'duplicate-result': w, 'permission-pairing': w, 'resume-subset': w, 'rollback-checkpoint': w, 'compressed-range': e,
      'compressed-contiguous': w, 'summary-target': e, 'terminal-reason': w, 'run-unterminated': w, 'pending-call-eof': i, 'kernel-handled': i,
      'llm-shape': e, 'legacy-blocks': e, 'result-content': w, 'durable-content': e, 'provider-replay': e, 'enum-values': w,
      'journal-record-digest': e, 'journal-input-digest': e, 'journal-prev-digest': e, 'journal-step-seq': e, 'journal-genesis': e,
      'journal-operation': e, 'journal-canonical': e, 'journal-pruned': i, 'journal-step-digest': i,
    });
  });
});
