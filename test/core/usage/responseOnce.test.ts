import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadTrace } from '../../../src/core/loadTrace';
import { summarize } from '../../../src/core/summary';
import { usageReport } from '../../../src/core/usage/usageReport';
import { eventCostUsd, rollupOf } from '../../../src/core/diff/runCost';
import type { ModelPrice } from '../../../src/core/usage/prices';
import type { TraceModel } from '../../../src/core/traceModel';
import { writerFiles } from '../../helpers/writerCorpus';
import { claudeCountedByHand } from '../../helpers/claudeByHand';

const FIXTURES = resolve(__dirname, '..', '..', 'fixtures', 'usage');

type Obj = Record<string, any>;
const linesOf = (path: string): Obj[] => readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
const n = (v: unknown): number => (typeof v === 'number' ? v : 0);

const transcripts = writerFiles('claude-code').filter((p) => p.includes(`${join('projects', '')}`));

describe('usage: a Claude Code response counts once, at its last line\'s snapshot', () => {
  it('finds the real-writer transcripts', () => assert.ok(transcripts.length >= 6, transcripts.join('\n')));

  for (const path of [...transcripts, join(FIXTURES, 'claude-split-response.jsonl')]) {
    it(`${path.slice(path.indexOf('test'))}: usage.total = each message.id at its last snapshot`, async () => {
      const want = claudeCountedByHand([path]);
      const m = await loadTrace(path);
      const u = usageReport(m).total;
      assert.deepEqual(
        [u.inputTokens, u.outputTokens, u.cacheReadTokens, u.cacheWriteTokens],
        [want.input, want.output, want.cacheRead, want.cacheWrite],
      );
      // The columns every other consumer reads (rows, turn badges, OTLP export) say the same.
      let tin = 0;
      let tout = 0;
      for (let i = 0; i < m.events.size; i++) (tin += m.events.tokensInOf(i) ?? 0), (tout += m.events.tokensOutOf(i) ?? 0);
      assert.deepEqual([tin, tout], [want.input, want.output], 'the events\' token columns');
      assert.equal(usageReport(m).byModel.reduce((a, x) => a + x.calls, 0), want.responses, 'one call per response');
    });
  }

  it('the split-response fixture: the placeholder (1 output token) is not kept, and totals agree with usage', async () => {
    const path = join(FIXTURES, 'claude-split-response.jsonl');
    const m = await loadTrace(path);
    const s = summarize(m);
    // msg …16003: 747+4231 in, 39 out at its last line (its first line said 1); msg …a006: 507+4296+252 in, 10 out.
    assert.deepEqual([s.usage.total.inputTokens, s.usage.total.outputTokens], [4978 + 5055, 49]);
    // The file's cost-state (written by Claude Code for the corpus file) is the session's totals: they agree.
    assert.deepEqual([s.totals.inputTokens, s.totals.outputTokens], [s.usage.total.inputTokens, s.usage.total.outputTokens]);
  });
});

/** A Codex rollout's usage worked out apart from the reader: each response's token_count once (a repeat of the last one's running total is the same response), its last_token_usage summed. */
function codexExpected(path: string): { input: number; output: number; cacheRead: number; responses: number; lastTotal: Obj | null } {
  const out = { input: 0, output: 0, cacheRead: 0, responses: 0, lastTotal: null as Obj | null };
  let prev: string | null = null;
  // A fork (`forked_from_id`) carries its running totals on from its origin's: the origin's share, its first running
  // total less that response, is not the fork's.
  let fork = false;
  let base: Obj | null = null;
  for (const v of linesOf(path)) {
    if (v.type === 'session_meta' && v.payload?.forked_from_id) fork = true;
    const info = v.type === 'event_msg' && v.payload?.type === 'token_count' ? v.payload.info : null;
    if (!info?.total_token_usage) continue;
    const total = JSON.stringify(info.total_token_usage);
    if (total === prev) continue;
    prev = total;
    if (fork && base === null) base = Object.fromEntries(Object.entries(info.total_token_usage as Obj).map(([k, x]) => [k, n(x) - n(info.last_token_usage?.[k])]));
    out.lastTotal = base ? Object.fromEntries(Object.entries(info.total_token_usage as Obj).map(([k, x]) => [k, n(x) - n(base![k])])) : info.total_token_usage;
    out.responses++;
    out.input += n(info.last_token_usage?.input_tokens);
    out.output += n(info.last_token_usage?.output_tokens);
    out.cacheRead += n(info.last_token_usage?.cached_input_tokens);
  }
  return out;
}

const rollouts = writerFiles('codex').filter((p) => /rollout-[^/\\]*\.jsonl$/.test(p));

describe('usage: a Codex response counts once, however many token_count lines repeat it', () => {
  it('finds the real-writer rollouts', () => assert.ok(rollouts.length >= 5, rollouts.join('\n')));

  const doubled = join(FIXTURES, 'rollout-2026-12-01T16-25-02-01a2326c-844c-72a2-8812-0ecf1e720fa2.jsonl');
  for (const path of [...rollouts, doubled]) {
    it(`${path.slice(path.indexOf('test'))}: usage.total = each token_count once, and the running total agrees`, async () => {
      const want = codexExpected(path);
      const m = await loadTrace(path);
      const s = summarize(m);
      const u = s.usage;
      assert.deepEqual([u.total.inputTokens, u.total.outputTokens, u.total.cacheReadTokens], [want.input, want.output, want.cacheRead]);
      assert.equal(u.byModel.reduce((a, x) => a + x.calls, 0), want.responses, 'one call per response');
      assert.deepEqual([s.totals.inputTokens, s.totals.outputTokens], [want.lastTotal?.input_tokens, want.lastTotal?.output_tokens], 'totals: the last running total');
      assert.deepEqual([s.totals.inputTokens, s.totals.outputTokens], [u.total.inputTokens, u.total.outputTokens], 'totals and usage agree');
    });
  }

  it('the doubled fixture: 2 responses (9,155 + 9,302 input), not 4', async () => {
    const u = usageReport(await loadTrace(doubled));
    assert.deepEqual([u.total.inputTokens, u.byModel.reduce((a, x) => a + x.calls, 0)], [18457, 2]);
  });
});

describe('usage: 1-hour cache writes are priced at the 1-hour rate', () => {
  // The mock's model is priced as claude-opus-4-6 is ($5 in, $25 out, $0.50 hit, $6.25 5m, $10 1h). These files record
  // their own cost (cost-state), which wins for the run and the model: the records' cost at the price is asked apart.
  const opus = { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25, cacheWrite1h: 10 };
  const close = (a: number | null, b: number): void => assert.ok(a !== null && Math.abs(a - b) < 1e-12, `${a} ≈ ${b}`);
  /** The counted records' cost at `prices`, summed (null when one is unpriced). */
  const recordsCost = (m: TraceModel, prices: Record<string, ModelPrice>): number | null => {
    let sum = 0;
    for (const i of rollupOf(m).countedIndex) {
      const c = eventCostUsd(m, i, prices);
      if (c === null) return null;
      sum += c;
    }
    return sum;
  };

  it('claude-cache-1h.jsonl: 746 plain + 4,221 written for an hour + 16 out', async () => {
    const m = await loadTrace(join(FIXTURES, 'claude-cache-1h.jsonl'));
    const u = usageReport(m, { 'claude-opus-5-5': opus });
    assert.deepEqual([u.total.inputTokens, u.total.cacheWriteTokens, u.total.outputTokens], [746 + 4221, 4221, 16]);
    close(recordsCost(m, { 'claude-opus-5-5': opus }), (746 * 5 + 4221 * 10 + 16 * 25) / 1e6);
  });

  it('the same response written for 5 minutes (the corpus file) is priced at the 5-minute rate', async () => {
    const path = transcripts.find((p) => p.includes(`${join('text', 'projects')}`))!;
    close(recordsCost(await loadTrace(path), { 'claude-opus-5-5': opus }), (746 * 5 + 4221 * 6.25 + 16 * 25) / 1e6);
  });

  it('a price without a 1-hour rate does not price 1-hour writes at a guessed rate (the file\'s own cost is taken)', async () => {
    const { cacheWrite1h: _, ...without } = opus;
    const m = await loadTrace(join(FIXTURES, 'claude-cache-1h.jsonl'));
    assert.equal(recordsCost(m, { 'claude-opus-5-5': without }), null);
    const u = usageReport(m, { 'claude-opus-5-5': without });
    assert.deepEqual(u.byModel.map((x) => [x.model, x.costSource]), [['claude-opus-5-5', 'trace']]);
  });
});

describe('errors: Claude Code API errors and retries are counted', () => {
  it('claude-api-errors.jsonl: two api_error lines (529, retry 1/10 and 2/10) are 2 errors, 2 API errors and 2 recorded retries', async () => {
    const path = join(FIXTURES, 'claude-api-errors.jsonl');
    const want = linesOf(path).filter((v) => v.type === 'system' && v.subtype === 'api_error').length;
    assert.equal(want, 2);
    const m = await loadTrace(path);
    const s = summarize(m);
    assert.equal(s.totals.errors, want);
    assert.equal(s.totals.apiErrors, want);
    assert.deepEqual(s.usage.retries, { total: want, source: 'recorded' });
    const labels = [...Array(m.events.size).keys()].filter((i) => m.events.kindOf(i) === 'system').map((i) => m.events.get(i).label);
    assert.deepEqual(labels, ['system api_error 529 retry 1/10', 'system api_error 529 retry 2/10']);
    // The response after the retries still counts once.
    assert.deepEqual([s.usage.total.inputTokens, s.usage.total.outputTokens], [746 + 4221, 16]);
  });

  it('claude-stream-api-retry.jsonl: a stream-json api_retry is an API error and a recorded retry', async () => {
    const s = summarize(await loadTrace(join(FIXTURES, 'claude-stream-api-retry.jsonl')));
    assert.deepEqual([s.totals.errors, s.totals.apiErrors], [1, 1]);
    assert.deepEqual(s.usage.retries, { total: 1, source: 'recorded' });
  });
});
