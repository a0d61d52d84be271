import { strict as assert } from 'node:assert';
import { harnessLedgerRules } from '../../../../src/core/formats/harness-ledger/rules';
import { brief, checkFile, harnessCorpus, jsonl, writeTemp } from './harnessTestUtil';

const CLEAN = ['approval-denied.jsonl', 'policy-denied-canceled.jsonl', 'run-failed-provider.jsonl', 'tool-failed.jsonl', 'yolo-write.bare.jsonl'];

describe('harness-ledger rules: corpus findings (SOURCE.md)', () => {
  for (const name of [...CLEAN, 'success-approvals.jsonl', 'negative/success-approvals.approval-skipped.jsonl']) {
    it(`${name}: verify finds nothing`, async () => {
      assert.deepEqual(brief(await checkFile(harnessCorpus(name), 'verify')), []);
    });
  }
  for (const name of CLEAN) {
    it(`${name}: check replays to a terminal phase with no finding`, async () => {
      assert.deepEqual(brief(await checkFile(harnessCorpus(name), 'check')), []);
    });
  }
  it('success-approvals.jsonl: the only fact is a non-default policy for shell.exec', async () => {
    const f = await checkFile(harnessCorpus('success-approvals.jsonl'), 'check');
    assert.deepEqual(brief(f), ['13 info harness/effect-policy']);
    assert.match(f[0].message, /require_approval for shell\.exec \(effect external_side_effect\); the default policy for external_side_effect is deny/);
  });
  it('negative approval-skipped: the kernel\'s own error at seq 13', async () => {
    const f = await checkFile(harnessCorpus('negative/success-approvals.approval-skipped.jsonl'), 'check');
    assert.deepEqual(brief(f), ['13 info harness/effect-policy', '14 error harness/transition']);
    assert.equal(f[1].message, 'invalid transition from awaiting_approval on tool_started');
    assert.equal(f[1].seq, 13);
  });
});

describe('harness-ledger rules: doc test vectors (§7)', () => {
  const RUN = 'run_01J9Z';
  const line = (seq: number, t: number, event: string) => `{"seq":${seq},"occurred_at_ms":${1760000000000 + t},"event":${event}}`;
  const ctx = (turn: string) => `{"event":"context_built","run_id":"${RUN}","turn_id":"${turn}","context":{"token_budget":4096,"fragments":[{"lane":"system_contract","source":"system","content":"You are a careful agent.","estimated_tokens":6},{"lane":"current_task","source":"user","content":"Write note.txt","estimated_tokens":4}]}}`;
  const docRun = [
    line(0, 0, `{"event":"run_started","run_id":"${RUN}","agent_id":"agent_main"}`),
    line(1, 250, ctx('turn_1')),
    line(2, 500, `{"event":"model_requested","run_id":"${RUN}","turn_id":"turn_1","step":0,"model":"m"}`),
    line(3, 750, `{"event":"model_responded","run_id":"${RUN}","turn_id":"turn_1","step":0,"output":{"role":"assistant","content":"I will write the file."},"proposed_calls":[{"tool":"file.write","input":{"content":"done","path":"note.txt"}}],"usage":{"input_tokens":10,"output_tokens":7}}`),
    line(4, 1000, `{"event":"tool_call_proposed","run_id":"${RUN}","turn_id":"turn_1","call":{"id":"call_1","tool":"file.write","effect":"workspace_write","input":{"content":"done","path":"note.txt"}}}`),
    line(5, 1250, `{"event":"policy_evaluated","run_id":"${RUN}","call_id":"call_1","decision":{"decision":"require_approval","reason":"workspace write"}}`),
    line(6, 1500, `{"event":"approval_granted","run_id":"${RUN}","call_id":"call_1","actor_id":"human_1"}`),
    line(7, 1750, `{"event":"tool_started","run_id":"${RUN}","call_id":"call_1"}`),
    line(8, 2000, `{"event":"tool_finished","run_id":"${RUN}","result":{"call_id":"call_1","summary":"wrote note.txt","data":{"bytes":4},"artifacts":[],"visibility":"both"}}`),
    line(9, 2250, ctx('turn_2')),
    line(10, 2500, `{"event":"model_requested","run_id":"${RUN}","turn_id":"turn_2","step":1,"model":"m"}`),
    line(11, 2750, `{"event":"model_responded","run_id":"${RUN}","turn_id":"turn_2","step":1,"output":{"role":"assistant","content":"Done."},"proposed_calls":[],"usage":{"input_tokens":12,"output_tokens":2}}`),
    line(12, 3000, `{"event":"run_finished","run_id":"${RUN}"}`),
  ];

  it('the 13-line example run replays to finished', async () => {
    const p = writeTemp('doc-run.jsonl', jsonl(docRun));
    assert.deepEqual(brief(await checkFile(p, 'check')), []);
    assert.deepEqual(brief(await checkFile(p, 'verify')), []);
  });
  it('`invalid transition from ready_for_context on model_requested`', async () => {
    const p = writeTemp('doc-v1.jsonl', jsonl([docRun[0], docRun[2].replace('"seq":2', '"seq":1')]));
    const f = await checkFile(p, 'check');
    assert.equal(f.find((x) => x.rule === 'harness/transition')?.message, 'invalid transition from ready_for_context on model_requested');
  });
  it('`event sequence mismatch: expected 1, actual 5`', async () => {
    const p = writeTemp('doc-v2.jsonl', jsonl([docRun[0], docRun[5]]));
    const f = await checkFile(p, 'verify');
    assert.deepEqual(brief(f), ['2 error harness/seq-contiguous']);
    assert.equal(f[0].message, 'event sequence mismatch: expected 1, actual 5');
  });
  it('`RunId cannot be empty`', async () => {
    const p = writeTemp('doc-v3.jsonl', jsonl(['{"seq":0,"occurred_at_ms":1,"event":{"event":"run_started","run_id":"","agent_id":"a"}}']));
    const f = (await checkFile(p, 'check')).filter((x) => x.rule === 'harness/empty-id');
    assert.equal(f.length, 1);
    assert.match(f[0].message, /^RunId cannot be empty/);
  });
});

describe('harness-ledger rules: catalog', () => {
  it('declares every §9 rule with the doc severity', () => {
    const got = Object.fromEntries(harnessLedgerRules.rules.map((r) => [r.id, r.severity]));
    const e = 'error', w = 'warning', i = 'info';
    assert.deepEqual(got, {
      'harness/line-json': e, 'harness/line-shape': e, 'harness/envelope-version': w, 'harness/event-known': e, 'harness/nested-shape': e,
      'harness/empty-id': e, 'harness/unknown-event-field': w, 'harness/seq-contiguous': e, 'harness/run-id-bound': e, 'harness/transition': e,
      'harness/turn-reuse': e, 'harness/context-budget': e, 'harness/turn-match': e, 'harness/step-match': e, 'harness/call-proposed': e,
      'harness/call-id-reuse': e, 'harness/call-match': e, 'harness/compaction-range': e, 'harness/rejection-reason': e, 'harness/terminal': w,
      'harness/effect-policy': i,
    });
  });
});
