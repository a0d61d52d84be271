import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findProvider } from '@pydantic/genai-prices';
import { normalizeModel, priceOf, readPricing } from '../../../src/core/usage/prices';
import { costOf } from '../../../src/core/usage/cost';
import { loadTrace } from '../../../src/core/loadTrace';
import { usageReport } from '../../../src/core/usage/usageReport';
import { eventCostUsd, rollupOf } from '../../../src/core/diff/runCost';
import { corpusPath, WRITER_CORPUS } from '../../helpers/corpus';

const writer = (...p: string[]): string => join(WRITER_CORPUS, ...p);
const one = (dir: string, test: (n: string) => boolean): string => join(dir, readdirSync(dir).find(test)!);
const close = (a: number | null, b: number): void => assert.ok(a !== null && Math.abs(a - b) < 1e-12, `${a} ≈ ${b}`);

/**
 * A model's rates read from the package's own data (not through the table this project writes from it): its one price
 * (no dated periods), each rate's base (the tests' prompts stay below every tier, which is checked).
 */
function rates(provider: string, model: string, maxInput: number): Record<string, number> {
  const m = findProvider({ providerId: provider })!.models.find((x) => x.id === model)!;
  assert.ok(m && !Array.isArray(m.prices), `${provider}/${model}: one price`);
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(m.prices as Record<string, unknown>)) {
    if (typeof v === 'number') out[k] = v;
    else if (v && typeof v === 'object') {
      const t = v as { base: number; tiers: { start: number }[] };
      assert.ok(t.tiers.every((x) => x.start >= maxInput), `${provider}/${model} ${k}: below its tiers`);
      out[k] = t.base;
    }
  }
  return out;
}

type Obj = Record<string, any>;
const lines = (path: string): Obj[] => readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));

describe('prices and cost', () => {
  it('a user price matches a model under its dated or prefixed id', () => {
    assert.equal(normalizeModel('claude-sonnet-4-5-20250929'), 'claude-sonnet-4-5');
    assert.equal(normalizeModel('gpt-5-2025-08-07'), 'gpt-5');
    assert.equal(normalizeModel('anthropic/claude-sonnet-4.5'), 'claude-sonnet-4-5');
    assert.equal(normalizeModel('models/gemini-2.5-pro'), 'gemini-2.5-pro');
    const { prices } = readPricing({ 'my-model': { input: 1, output: 2 } });
    assert.equal(priceOf('my-model-20260101', prices)?.entry, 'my-model');
  });

  it('prices cache reads and writes at their own rates and input that is neither at the input rate', () => {
    const c = costOf({ input: 10_000, output: 1_000, cacheRead: 6_000, cacheWrite: 2_000 }, priceOf('x', { x: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } })!, false);
    close(c, (2_000 * 3 + 6_000 * 0.3 + 2_000 * 3.75 + 1_000 * 15) / 1e6);
    assert.equal(costOf({ input: null, output: 5 }, priceOf('gpt-5')!, false), null, 'a missing side is unpriced');
    // A user's entry without a cache rate bills cache reads as input (the setting's documented meaning).
    close(costOf({ input: 1_000, output: 0, cacheRead: 400 }, priceOf('y', { y: { input: 1, output: 2 } })!, false), 1_000 / 1e6);
  });

  it('the user\'s table adds a model and overrides the bundled price; bad entries are named, not used', () => {
    const { prices, problems } = readPricing({ 'gpt-5.5': { input: 2, output: 16, cacheRead: 0.2 }, 'gpt-5': { input: 1, output: 8 }, broken: { input: 'cheap' }, neg: { input: -1, output: 1 } });
    assert.deepEqual(Object.keys(prices).sort(), ['gpt-5', 'gpt-5.5']);
    assert.deepEqual(problems, ['agentTrace.pricing["broken"]: "input" must be a non-negative number (US dollars per million tokens)', 'agentTrace.pricing["neg"]: "input" must be a non-negative number (US dollars per million tokens)']);
    const p = priceOf('gpt-5-2025-08-07', prices)!;
    assert.deepEqual([p.from, p.entry, p.periods[0].rates.input], ['user', 'gpt-5', 1]);
    assert.equal(priceOf('gpt-5-2025-08-07')!.from, 'bundled');
    assert.deepEqual(readPricing([1, 2]).problems, ['agentTrace.pricing must be an object of model → price']);
  });

  it('the user\'s price wins over the bundled one on a Codex rollout: (18457−7424)·$2 + 7424·$0.20 + 79·$16', async () => {
    const dir = writer('codex-0.171.0', 'shell-ok', 'sessions', '2026', '12', '01');
    const m = await loadTrace(join(dir, readdirSync(dir)[0]));
    const u = usageReport(m, readPricing({ 'gpt-5.5': { input: 2, output: 16, cacheRead: 0.2 } }).prices);
    close(u.total.costUsd, ((18457 - 7424) * 2 + 7424 * 0.2 + 79 * 16) / 1e6);
    assert.equal(u.priced, 1);
    assert.equal(u.byModel[0].costSource, 'table');
    assert.deepEqual(u.unpriced, []);
  });

  it('a model the price source does not know is unpriced, and the hint names it', async () => {
    const m = await loadTrace(corpusPath('agentledger', 'approval-denied', 'events.jsonl'));
    const u = usageReport(m);
    assert.deepEqual(u.byModel.map((x) => [x.model, x.costUsd, x.costSource]), [['mock-llm', null, null]]);
    assert.deepEqual(u.unpriced, [{ model: 'mock-llm', reason: `not in the bundled prices (${u.priceSource.name} ${u.priceSource.version}, ${u.priceSource.date}) nor in the user's` }]);
    assert.equal(u.priced, 0);
    assert.equal(u.priceSource.name, '@pydantic/genai-prices');
    assert.equal(u.priceTableDate, u.priceSource.date);
    // The user's price names it, and it is priced.
    const priced = usageReport(m, { 'mock-llm': { input: 1, output: 2 } });
    assert.deepEqual([priced.unpriced, priced.byModel[0].costSource], [[], 'table']);
  });

  it('a call that names no model is unpriced with that said (Codex exec --json)', async () => {
    const u = usageReport(await loadTrace(writer('codex-0.171.0', 'shell-ok', 'exec.jsonl')));
    assert.deepEqual(u.unpriced, [{ model: '(unknown model)', reason: 'the trace names no model for these calls' }]);
  });
});

describe('real-writer files priced from the package\'s own rates', () => {
  it('Codex rollouts (gpt-5.5): uncached input, cached input and output at the package\'s gpt-5.5 rates', async () => {
    const r = rates('openai', 'gpt-5.5', 20_000);
    for (const scenario of ['text', 'shell-ok', 'shell-fail']) {
      const path = one(writer('codex-0.171.0', scenario, 'sessions', '2026', '12', '01'), (n) => n.startsWith('rollout-'));
      // Each response's last_token_usage once (a token_count repeating the running total is the same response).
      let want = 0;
      let prev = '';
      for (const v of lines(path)) {
        const info = v.type === 'event_msg' && v.payload?.type === 'token_count' ? v.payload.info : null;
        if (!info?.last_token_usage) continue;
        const key = JSON.stringify(info.total_token_usage);
        if (key === prev) continue;
        prev = key;
        const t = info.last_token_usage;
        // Codex's output_tokens include its reasoning tokens, billed as output.
        want += (t.input_tokens - t.cached_input_tokens) * r.input_mtok + t.cached_input_tokens * r.cache_read_mtok + t.output_tokens * r.output_mtok;
      }
      const u = usageReport(await loadTrace(path));
      assert.ok(want > 0, scenario);
      close(u.total.costUsd, want / 1e6);
      assert.deepEqual(u.byModel.map((x) => [x.model, x.costSource]), [['gpt-5.5', 'table']], scenario);
      assert.equal(u.priced, 1);
    }
  });

  it('Gemini CLI recordings (gemini-2.5-pro): cached input at the package\'s cache rate, thoughts billed as output on top', async () => {
    const r = rates('google', 'gemini-2.5-pro', 200_000);
    for (const scenario of ['text', 'shell-ok', 'shell-fail']) {
      const path = one(writer('gemini-cli-0.61.0', scenario, 'tmp', 'project', 'chats'), (n) => n.endsWith('.jsonl'));
      // Each gemini message once (the recording writes a message again as it grows), at its last tokens.
      const last = new Map<string, Obj>();
      for (const v of lines(path)) if (v.type === 'gemini' && v.tokens) last.set(v.id, v.tokens);
      let want = 0;
      for (const t of last.values()) want += (t.input - t.cached) * r.input_mtok + t.cached * r.cache_read_mtok + (t.output + t.thoughts) * r.output_mtok;
      const u = usageReport(await loadTrace(path));
      close(u.total.costUsd, want / 1e6);
      assert.equal(u.priced, 1, `${scenario}: a call that read the cache is priced (the cache rate is the package's)`);
    }
  });

  it('a Claude Code subagent transcript (claude-opus-5-5, no cost of its own): 5-minute cache writes and hits at the package\'s rates', async () => {
    const r = rates('anthropic', 'claude-opus-5-5', 200_000);
    const dir = writer('claude-code-2.1.332', 'subagent', 'projects', '-home-user-project');
    const sub = join(dir, readdirSync(dir).find((n) => !n.endsWith('.jsonl'))!, 'subagents');
    const path = one(sub, (n) => n.endsWith('.jsonl'));
    const last = new Map<string, Obj>();
    for (const v of lines(path)) if (v.type === 'assistant' && v.message?.usage) last.set(v.message.id, v.message.usage);
    let want = 0;
    for (const t of last.values()) {
      const h1 = t.cache_creation?.ephemeral_1h_input_tokens ?? 0;
      want += t.input_tokens * r.input_mtok + t.cache_read_input_tokens * r.cache_read_mtok + (t.cache_creation_input_tokens - h1) * r.cache_write_mtok + h1 * r.cache_write_1h_mtok + t.output_tokens * r.output_mtok;
    }
    const u = usageReport(await loadTrace(path));
    close(u.total.costUsd, want / 1e6);
    assert.deepEqual(u.byModel.map((x) => [x.model, x.costSource]), [['claude-opus-5-5', 'table']]);
  });

  it('1-hour cache writes at the package\'s 1-hour rate, 5-minute writes at the 5-minute rate (claude-opus-5-5)', async () => {
    const r = rates('anthropic', 'claude-opus-5-5', 200_000);
    assert.ok(r.cache_write_1h_mtok > r.cache_write_mtok);
    // These files record their own cost (cost-state), which wins for the run: the records' cost is asked apart.
    const recordsCost = async (path: string): Promise<number> => {
      const m = await loadTrace(path);
      let sum = 0;
      for (const i of rollupOf(m).countedIndex) sum += eventCostUsd(m, i)!;
      return sum;
    };
    const fixtures = join(__dirname, '..', '..', 'fixtures', 'usage');
    close(await recordsCost(join(fixtures, 'claude-cache-1h.jsonl')), (746 * r.input_mtok + 4221 * r.cache_write_1h_mtok + 16 * r.output_mtok) / 1e6);
    const text = one(writer('claude-code-2.1.332', 'text', 'projects', '-home-user-project'), (n) => n.endsWith('.jsonl'));
    close(await recordsCost(text), (746 * r.input_mtok + 4221 * r.cache_write_mtok + 16 * r.output_mtok) / 1e6);
  });
});
