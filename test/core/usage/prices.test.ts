import { strict as assert } from 'node:assert';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLED_PRICES, normalizeModel, priceOf, readPricing } from '../../../src/core/usage/prices';
import { costOf } from '../../../src/core/usage/cost';
import { loadTrace } from '../../../src/core/loadTrace';
import { usageReport } from '../../../src/core/usage/usageReport';
import { WRITER_CORPUS } from '../../helpers/corpus';

describe('prices and cost', () => {
  it('finds a model under its dated or prefixed id, and nothing for a model it does not know', () => {
    assert.equal(normalizeModel('claude-sonnet-4-5-20250929'), 'claude-sonnet-4-5');
    assert.equal(normalizeModel('gpt-5-2025-08-07'), 'gpt-5');
    assert.equal(normalizeModel('anthropic/claude-sonnet-4.5'), 'claude-sonnet-4-5');
    assert.equal(normalizeModel('models/gemini-2.5-pro'), 'gemini-2.5-pro');
    assert.deepEqual(priceOf('claude-sonnet-4-5-20250929'), BUNDLED_PRICES['claude-sonnet-4-5']);
    for (const unknown of ['gpt-5.5', 'claude-opus-5-5', 'claude-sonnet-4-5-foo', 'gpt-5-turbo', 'llama-3']) assert.equal(priceOf(unknown), undefined, unknown);
  });

  it('prices cache reads and writes at their own rates and input that is neither at the input rate', () => {
    // claude-sonnet-4-5: $3 in, $15 out, $0.30 cache read, $3.75 cache write per million.
    const c = costOf({ input: 10_000, output: 1_000, cacheRead: 6_000, cacheWrite: 2_000 }, BUNDLED_PRICES['claude-sonnet-4-5'], false);
    assert.ok(Math.abs(c! - (2_000 * 3 + 6_000 * 0.3 + 2_000 * 3.75 + 1_000 * 15) / 1e6) < 1e-12);
    assert.equal(costOf({ input: null, output: 5 }, BUNDLED_PRICES['gpt-5'], false), null, 'a missing side is unpriced');
  });

  it('a cache rate no source confirmed leaves a record that used the cache unpriced, not priced at a guess', () => {
    const flash = BUNDLED_PRICES['gemini-2.5-flash'];
    assert.equal(flash.cacheRead, null);
    assert.equal(costOf({ input: 1_000, output: 100, cacheRead: 400 }, flash, false), null);
    assert.ok(Math.abs(costOf({ input: 1_000, output: 100, cacheRead: 0 }, flash, false)! - (1_000 * 0.3 + 100 * 2.5) / 1e6) < 1e-12);
    // A user's entry without a cache rate still bills cache reads as input (the setting's documented meaning).
    assert.ok(Math.abs(costOf({ input: 1_000, output: 0, cacheRead: 400 }, { input: 1, output: 2 }, false)! - 1_000 / 1e6) < 1e-12);
    for (const dropped of ['o3-mini', 'gemini-2.0-flash', 'gemini-2.0-flash-lite']) assert.equal(priceOf(dropped), undefined, dropped);
  });

  it('the user\'s table adds a model and overrides the bundled price; bad entries are named, not used', () => {
    const { prices, problems } = readPricing({ 'gpt-5.5': { input: 2, output: 16, cacheRead: 0.2 }, 'gpt-5': { input: 1, output: 8 }, broken: { input: 'cheap' }, neg: { input: -1, output: 1 } });
    assert.deepEqual(Object.keys(prices).sort(), ['gpt-5', 'gpt-5.5']);
    assert.deepEqual(problems, ['agentTrace.pricing["broken"]: "input" must be a non-negative number (US dollars per million tokens)', 'agentTrace.pricing["neg"]: "input" must be a non-negative number (US dollars per million tokens)']);
    assert.equal(priceOf('gpt-5-2025-08-07', prices)!.input, 1);
    assert.deepEqual(readPricing([1, 2]).problems, ['agentTrace.pricing must be an object of model → price']);
  });

  it('a priced model from the setting prices a Codex rollout by hand: (18457−7424)·$2 + 7424·$0.20 + 79·$16', async () => {
    const dir = join(WRITER_CORPUS, 'codex-0.171.0', 'shell-ok', 'sessions', '2026', '12', '01');
    const m = await loadTrace(join(dir, readdirSync(dir)[0]));
    const u = usageReport(m, readPricing({ 'gpt-5.5': { input: 2, output: 16, cacheRead: 0.2 } }).prices);
    assert.ok(Math.abs(u.total.costUsd! - ((18457 - 7424) * 2 + 7424 * 0.2 + 79 * 16) / 1e6) < 1e-12);
    assert.equal(u.priced, 1);
    assert.equal(u.byModel[0].costSource, 'table');
  });
});
