import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTrace } from '../../../src/core/loadTrace';
import { modelRates } from '../../../src/core/usage/modelRates';
import { bundledPriceOf } from '../../../src/core/usage/prices';
import { usageRollupOf } from '../../../src/core/usage/rollup';
import { claudeWithOneHourWrites, geminiWithModel } from '../../helpers/derivedTraces';

const UNKNOWN = 'acme-coder-1';

describe('usage: the rates each model\'s cost used, and its unpriced share (Statistics tab)', () => {
  let dir = '';
  before(() => (dir = mkdtempSync(join(tmpdir(), 'model-rates-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a bundled price: its entry and rates per million tokens (a cache write rate it leaves out is billed as input); an unknown model has none', async () => {
    assert.equal(bundledPriceOf(UNKNOWN), undefined, 'the made-up model is not in the bundled prices');
    const model = await loadTrace(geminiWithModel(dir, UNKNOWN));
    const r = modelRates(model, usageRollupOf(model));
    const g = r.get('gemini-2.5-pro')!;
    assert.equal(g.price?.from, 'bundled');
    assert.equal(g.price?.entry, 'google/gemini-2.5-pro');
    // The source's rates for gemini-2.5-pro below its 200k-token tier: 1.25 in, 0.125 cache read, 10 out.
    assert.deepEqual(g.price?.rates, { input: 1.25, cacheRead: 0.125, cacheWrite: 1.25, cacheWrite1h: null, output: 10, reasoning: 10, tiered: true, periods: 1 });
    assert.equal(g.unpricedShare, 0);
    const u = r.get(UNKNOWN)!;
    assert.equal(u.price, null);
    assert.equal(u.unpricedShare, 1);
    assert.equal(u.cacheWrite1hTokens, null, 'Gemini records no 1-hour writes');
  });

  it('the user\'s price comes first: its key and rates', async () => {
    const model = await loadTrace(geminiWithModel(dir, UNKNOWN));
    const r = modelRates(model, usageRollupOf(model), { [UNKNOWN]: { input: 1, output: 2, cacheRead: 0.1 } });
    assert.deepEqual(r.get(UNKNOWN)!.price, { from: 'user', entry: UNKNOWN, rates: { input: 1, cacheRead: 0.1, cacheWrite: 1, cacheWrite1h: null, output: 2, reasoning: 2, tiered: false, periods: 1 } });
    assert.equal(r.get(UNKNOWN)!.unpricedShare, 0);
  });

  it('Claude Code: the 1-hour cache writes of each response, once at its last snapshot, with the 1-hour rate', async () => {
    const path = claudeWithOneHourWrites(dir, (w) => Math.floor(w / 3));
    const want = new Map<string, number>();
    for (const l of readFileSync(path, 'utf8').split('\n').filter((x) => x)) {
      const v = JSON.parse(l);
      if (v.type === 'assistant') want.set(v.message.id, v.message.usage.cache_creation.ephemeral_1h_input_tokens);
    }
    const model = await loadTrace(path);
    const r = modelRates(model, usageRollupOf(model)).get('claude-opus-5-5')!;
    assert.equal(r.cacheWrite1hTokens, [...want.values()].reduce((a, b) => a + b, 0));
    assert.ok(r.cacheWrite1hTokens! > 0);
    assert.deepEqual(r.price?.rates, { input: 4, cacheRead: 0.2, cacheWrite: 5, cacheWrite1h: 8, output: 20, reasoning: 20, tiered: false, periods: 1 });
  });
});
