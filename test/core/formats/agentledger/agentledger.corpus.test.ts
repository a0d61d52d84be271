import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { agentledgerAdapter } from '../../../../src/core/formats/agentledger/adapter';
import { loadTrace, TraceModel } from '../../../../src/core/loadTrace';
import { CORPUS, findings, RUNS } from './agentledgerTestUtil';
import { CORPUS_ROOT } from '../../../helpers/corpus';

/** parentLine of every node, in file order (null for roots). */
function parents(m: TraceModel): (number | null)[] {
  const t = m.events;
  return Array.from({ length: t.size }, (_, i) => (t.parent(i) >= 0 ? t.lineOf(t.parent(i)) : null));
}

// run → step → attempt (step_claimed) → tool call (tool_call_requested) → events (format doc §5.5).
const PARENTS: Record<(typeof RUNS)[number], (number | null)[]> = {
  'approval-denied': [null, 1, 2, 3, 3, 3, 3, 3, 8, 8, 3, 2, 2],
  'approval-granted': [null, 1, 2, 3, 3, 3, 3, 3, 8, 8, 3, 2, 2, 2, 14, 14, 14, 14, 14, 19, 19, 19, 19, 19, 14, 14, 14, 14],
  'budget-exceeded': [null, 1, 2, 3, 3, 3, 3, 3, 8, 8, 8, 3, 3, 13, 13, 13, 3, 3, 18, 3, 3, 3],
  cancelled: [null, 1, 2, 3, 3, 3, 3, 3, 8, 8, 8, 3, 3, 3, 1, 2, 1],
  'side-effect-idempotency': [null, 1, 2, 3, 3, 5, 5, 5, 3, 3, 3, 1, 2, 13, 13, 15, 15, 15, 13, 13, 13, 13],
};

// Conformance per SOURCE.md: the failed runs end in step_failed; error_raised is a blocking failure event (review #1, #11).
const CHECK: Record<(typeof RUNS)[number], string[]> = {
  'approval-denied': ['review-no-blocking-failure-events@13', 'review-no-failed-steps@13'],
  'approval-granted': [],
  'budget-exceeded': ['review-no-blocking-failure-events@21', 'review-no-blocking-failure-events@22', 'review-no-failed-steps@22'],
  cancelled: ['review-no-blocking-failure-events@13'],
  'side-effect-idempotency': ['review-no-blocking-failure-events@10'],
};

describe('agentledger corpus', () => {
  for (const run of RUNS) {
    for (const file of ['events.jsonl', 'trace.jsonl']) {
      describe(`${run}/${file}`, () => {
        const path = join(CORPUS, run, file);
        let model: TraceModel;
        before(async () => {
          model = await loadTrace(path);
        });

        it('is detected as agentledger with confidence', () => {
          assert.equal(model.format, 'agentledger');
          assert.ok(model.detection.confidence >= 0.95, String(model.detection.confidence));
        });

        it('has one event per line and the derived tree', () => {
          const lines = readFileSync(path, 'utf8').trim().split('\n').length;
          assert.equal(model.events.size, lines);
          assert.equal(model.events.size, PARENTS[run].length);
          assert.deepEqual(parents(model), PARENTS[run]);
          assert.equal(model.tree.roots.length, 1);
          assert.equal(model.diagnostics.length, 0);
        });

        it('verifies clean (seq, payload hashes, blobs, bundle hash, bundle events, ledger links)', async () => {
          assert.deepEqual(await findings(path, 'verify'), []);
        });

        it('checks with exactly the review findings SOURCE.md implies', async () => {
          assert.deepEqual(await findings(path, 'check'), CHECK[run]);
        });
      });
    }
  }

  it('labels, statuses, tokens and totals read as a person wants them', async () => {
    const m = await loadTrace(join(CORPUS, 'approval-granted', 'events.jsonl'));
    const t = m.events;
    assert.equal(t.labelOf(5), 'model_call_completed mock-llm 212→18 tokens');
    assert.equal(t.labelOf(8), 'tool_permission_decided mcp.github.create_pr denied: high-risk action requires approval by default');
    assert.equal(t.labelOf(11), 'tool_approval_decided mcp.github.create_pr APPROVED by maintainer@acme');
    assert.equal(t.labelOf(22), 'tool_call_completed mcp.github.create_pr');
    assert.equal(t.statusOf(8), 'warning');
    assert.equal(t.get(5).tokensIn, 212);
    assert.equal(t.get(7).tool, 'mcp.github.create_pr');
    assert.deepEqual(m.formatTotals, { inputTokens: 424, outputTokens: 36, toolCalls: 2, errors: 0, totalTokens: 460, modelTokens: 460, costedToolCalls: 1 });
    const denied = await loadTrace(join(CORPUS, 'approval-denied', 'events.jsonl'));
    assert.deepEqual([9, 12, 13].map((l) => denied.events.statusOf(l - 1)), ['warning', 'warning', 'error']);
    const budget = await loadTrace(join(CORPUS, 'budget-exceeded', 'events.jsonl'));
    assert.deepEqual([20, 21, 22].map((l) => budget.events.statusOf(l - 1)), ['error', 'error', 'error']);
    assert.equal(budget.events.labelOf(19), 'failure_classified BudgetExceeded (not retryable)');
    assert.equal(budget.formatTotals.errors, 3);
    const cancelled = await loadTrace(join(CORPUS, 'cancelled', 'events.jsonl'));
    assert.deepEqual([15, 16, 17].map((l) => cancelled.events.statusOf(l - 1)), ['warning', 'warning', 'warning']);
    assert.equal(cancelled.events.labelOf(16), 'run_cancelled operator cancelled: report no longer needed');
  });

  it('lists payload digests and blob refs as hash refs with the right algorithm', async () => {
    const m = await loadTrace(join(CORPUS, 'side-effect-idempotency', 'events.jsonl'));
    const refs = m.events.hashRefsOf(4);
    const hex = '3da591a1b0726346c984c8927da4dc32b21a045d8eba57752ef21a0d7eac74d9';
    assert.deepEqual(refs.map((r) => [r.field, r.digest, r.algorithm]), [['payload_hash', hex, 'sha256'], ['payload_ref', hex, 'sha256']]);
    assert.deepEqual(m.events.hashRefsOf(0), [], 'inline payloads have no digest');
    const spans = await loadTrace(join(CORPUS, 'side-effect-idempotency', 'trace.jsonl'));
    assert.equal(spans.events.hashRefsOf(4)[0].field, 'attributes.agentledger.payload_hash');
    assert.equal(spans.events.get(4).id, 'evt-000005');
  });

  it('claims its own files (the corpus runs and the TypeScript runtime\'s rows), no file of another format, and not the OTLP export', () => {
    const root = CORPUS_ROOT;
    const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]));
    let checked = 0;
    for (const f of walk(root)) {
      if (!/\.jsonl?$/.test(f) || f.includes(`${join('blobs', 'sha256')}`) || basename(f) === 'bundle.json') continue;
      const text = readFileSync(f, 'utf8');
      let values: unknown[];
      let document = false;
      try {
        values = text.split('\n').filter((l) => l.trim() !== '').slice(0, 20).map((l) => JSON.parse(l) as unknown);
      } catch {
        document = true;
        try {
          values = [JSON.parse(text) as unknown];
        } catch {
          values = [];
        }
      }
      // AgentLedger's TypeScript runtime writes the same event rows under other names (a store export).
      const mine = (f.startsWith(CORPUS) && /(events|trace)\.jsonl$/.test(f)) || f.includes(`${join('outside', 'agentledger-ts')}`);
      const c = agentledgerAdapter.sniff({ values, fileName: basename(f), path: f, document }).confidence;
      assert.equal(c >= 0.5, mine, `${f}: ${c}`);
      checked++;
    }
    assert.ok(checked > 20);
  });
});
