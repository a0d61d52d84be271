import { strict as assert } from 'node:assert';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createAgentledgerChecker } from '../../../../src/core/formats/agentledger/checker';
import { loadTrace } from '../../../../src/core/loadTrace';
import { cleanup, copyRun, CORPUS, editBundle, editLine, findingObjects, findings, readLines, writeLines } from './agentledgerTestUtil';
import { agentledgerBlobLayout } from '../../../../src/core/formats/agentledger/blobLayout';

/** Check findings of a run's events.jsonl after `mutate` changed the copied directory. */
async function checkAfter(run: string, mutate: (dir: string, events: string) => void): Promise<string[]> {
  const dir = copyRun(run);
  try {
    mutate(dir, join(dir, 'events.jsonl'));
    return await findings(join(dir, 'events.jsonl'), 'check');
  } finally {
    cleanup(dir);
  }
}

const lastReplace = (from: string, to: string) => (t: string) => {
  const i = t.lastIndexOf(from);
  if (i < 0) throw new Error(`no ${from}`);
  return t.slice(0, i) + to + t.slice(i + from.length);
};

const DENIED_REVIEW = ['review-no-blocking-failure-events@13', 'review-no-failed-steps@13'];

describe('agentledger check: rows and payloads', () => {
  it('required-fields: a row without timestamp or event_id, and a line of another shape', async () => {
    assert.deepEqual(await checkAfter('approval-granted', (_, ev) => editLine(ev, 3, ', "timestamp": 1795966887.9197392', '')), ['required-fields@3']);
    const out = await checkAfter('approval-granted', (_, ev) => {
      const l = readLines(ev);
      l.splice(3, 0, '{"hello": "world"}');
      writeLines(ev, l);
    });
    assert.deepEqual(out, ['required-fields@4']);
  });

  it('event-type-known: an unknown type is info, reported on its first line only', async () => {
    const dir = copyRun('side-effect-idempotency');
    try {
      const ev = join(dir, 'events.jsonl');
      editLine(ev, 12, '"type": "system_state_patch_applied"', '"type": "custom_marker"');
      editLine(ev, 19, '"type": "state_patch_proposed"', '"type": "custom_marker"');
      const fs = await findingObjects(ev, 'check');
      assert.deepEqual(fs.map((f) => `${f.rule}@${f.line}:${f.severity}`), [
        'agentledger/review-no-blocking-failure-events@10:warning', 'agentledger/event-type-known@12:info',
      ]);
    } finally {
      cleanup(dir);
    }
  });

  it('payload-schema: a decision status outside APPROVED/DENIED, a step_claimed without attempt', async () => {
    assert.deepEqual(await checkAfter('approval-denied', (_, ev) => editLine(ev, 12, '"status": "DENIED", "tool"', '"status": "MAYBE", "tool"')), ['payload-schema@12', ...DENIED_REVIEW]);
    assert.deepEqual(await checkAfter('approval-denied', (_, ev) => editLine(ev, 3, '"payload": {"attempt": 1, ', '"payload": {')), ['payload-schema@3', ...DENIED_REVIEW]);
  });

  it('causal-token: the token must name the row\'s own run and step', async () => {
    const out = await checkAfter('side-effect-idempotency', (_, ev) => editLine(ev, 6, '\\"step_id\\":\\"step_68f31ecbe4494c79\\"}"', '\\"step_id\\":\\"step_0000000000000000\\"}"'));
    // The changed token also splits the call in two, so its permission no longer follows a request.
    assert.deepEqual(out, ['call-order@6', 'causal-token@6', 'review-no-blocking-failure-events@10']);
  });

  it('call-order: sandbox_completed before sandbox_started, a tool cost before the completion', async () => {
    const swap = (a: number, b: number) => (_: string, ev: string) => {
      const l = readLines(ev);
      [l[a - 1], l[b - 1]] = [l[b - 1], l[a - 1]];
      writeLines(ev, l);
    };
    // Swapped lines also run time backwards (the generic rule).
    assert.deepEqual(await checkAfter('approval-granted', swap(21, 22)), ['call-order@21', 'generic/time-backwards@22']);
    assert.deepEqual(await checkAfter('approval-granted', swap(23, 24)), ['call-order@23', 'call-order@24', 'generic/time-backwards@24']);
  });
});

describe('agentledger check: review (§9)', () => {
  it('a pending high-risk approval is two blockers at its request line', async () => {
    assert.deepEqual(await checkAfter('approval-granted', (d) => editBundle(d, (t) => t.replace('"status": "APPROVED"', '"status": "PENDING"'), false)), [
      'review-high-risk-approvals-decided@10', 'review-no-pending-approvals@10',
    ]);
  });

  it('financial_or_legal undecided is a warning the upstream review omits', async () => {
    const dir = copyRun('approval-granted');
    try {
      editBundle(dir, (t) => t.replace('"status": "APPROVED"', '"status": "PENDING"').replace('"risk_level": "high"', '"risk_level": "financial_or_legal"'), false);
      const fs = await findingObjects(join(dir, 'events.jsonl'), 'check');
      assert.deepEqual(fs.map((f) => `${f.rule}@${f.line}:${f.severity}`), [
        'agentledger/review-high-risk-approvals-decided@10:warning', 'agentledger/review-no-pending-approvals@10:error',
      ]);
    } finally {
      cleanup(dir);
    }
  });

  it('ledger rows: pending verification and unknown statuses point at their call', async () => {
    assert.deepEqual(await checkAfter('approval-granted', (d) => editBundle(d, lastReplace('"status": "SUCCEEDED"', '"status": "PENDING_VERIFICATION"'), false)), ['review-no-pending-verification@19']);
    assert.deepEqual(await checkAfter('approval-granted', (d) => editBundle(d, lastReplace('"status": "SUCCEEDED"', '"status": "DONE"'), false)), ['review-ledger-statuses-known@19']);
  });

  it('steps: a failed step in the bundle, a completed step without step_completed', async () => {
    assert.deepEqual(await checkAfter('approval-granted', (d) => editBundle(d, lastReplace('"status": "completed"', '"status": "failed"'), false)), ['review-no-failed-steps@1']);
    assert.deepEqual(await checkAfter('approval-granted', (_, ev) => writeLines(ev, readLines(ev).slice(0, 27))), ['review-completed-steps-have-events@1']);
  });

  it('artifacts, media artifacts and stream checkpoints', async () => {
    const edit = (from: string, to: string) => (d: string) => editBundle(d, (t) => t.replace(from, to), false);
    assert.deepEqual(await checkAfter('cancelled', edit('"artifacts": []', '"artifacts": [{"artifact_id": "art_1", "blob_hash": "", "blob_ref": null, "name": "x"}]')), [
      'review-artifacts-have-blob-refs@1', 'review-no-blocking-failure-events@13',
    ]);
    assert.deepEqual(await checkAfter('cancelled', edit('"media_artifacts": []', '"media_artifacts": [{"artifact_id": "m1", "kind": null, "uri": "file:///a.png"}]')), [
      'review-media-artifacts-have-refs@1', 'review-no-blocking-failure-events@13',
    ]);
    assert.deepEqual(await checkAfter('cancelled', edit('"stream_checkpoints": []', '"stream_checkpoints": [{"artifact_id": "s1", "consumer_id": "c", "offset": null, "stream_id": "s"}]')), [
      'review-no-blocking-failure-events@13', 'review-stream-checkpoints-have-offsets@1',
    ].sort((a, b) => Number(a.split('@')[1]) - Number(b.split('@')[1])));
  });

  it('without bundle.json: event-based review and one info finding', async () => {
    const dir = copyRun('approval-denied');
    try {
      rmSync(join(dir, 'bundle.json'));
      const ev = join(dir, 'events.jsonl');
      writeLines(ev, readLines(ev).slice(0, 11));
      const fs = await findingObjects(ev, 'check');
      assert.deepEqual(fs.map((f) => `${f.rule}@${f.line}:${f.severity}`), [
        'agentledger/bundle-missing@1:info', 'agentledger/review-high-risk-approvals-decided@10:error', 'agentledger/review-no-pending-approvals@10:error',
      ]);
    } finally {
      cleanup(dir);
    }
  });

  it('review-max-total-usd runs only with a limit', async () => {
    const dir = copyRun('cancelled');
    try {
      editBundle(dir, (t) => t.replace('"total_usd": 0', '"total_usd": 5.5'), false);
      const path = join(dir, 'events.jsonl');
      const run = async (limit?: number) => {
        const model = await loadTrace(path);
        const c = createAgentledgerChecker({ path, model, blobLayout: agentledgerBlobLayout }, { maxTotalUsd: limit });
        readLines(path).forEach((text, i) => c.add({ line: i + 1, text, value: JSON.parse(text), blank: false }));
        return (await c.finish()).map((f) => `${f.rule}@${f.line}`).filter((r) => r.includes('max-total'));
      };
      assert.deepEqual(await run(), []);
      assert.deepEqual(await run(10), []);
      assert.deepEqual(await run(1), ['agentledger/review-max-total-usd@1']);
    } finally {
      cleanup(dir);
    }
  });

  it('the corpus summaries agree with what the review reads', () => {
    const b = JSON.parse(readFileSync(join(CORPUS, 'budget-exceeded', 'bundle.json'), 'utf8')) as { summary: { has_failed_steps: boolean } };
    assert.equal(b.summary.has_failed_steps, true);
  });
});
