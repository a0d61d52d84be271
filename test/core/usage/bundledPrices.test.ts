import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { calcPrice } from '@pydantic/genai-prices';
import { BUNDLED_PROVIDERS, PRICE_SOURCE } from '../../../src/core/usage/bundledPrices';
import { bundledPriceOf } from '../../../src/core/usage/prices';
import { costOf } from '../../../src/core/usage/cost';

const ROOT = join(__dirname, '..', '..', '..');
const OUT = join(ROOT, 'src', 'core', 'usage', 'bundledPrices.ts');
/** scripts/prices.mjs, the generator (ESM). */
const generator = (): Promise<{ installedData(): Promise<{ version: string; providers: unknown[] }>; render(p: unknown[], v: string, d: string): string; writtenFrom(t: string): { name: string; version: string; date: string } | null }> =>
  import(pathToFileURL(join(ROOT, 'scripts', 'prices.mjs')).href);

/** The package's own calculator, as a model id alone (or LiteLLM's `provider/model`) would be priced by it. */
function theirs(model: string, usage: Record<string, number>, when = new Date('2026-12-01T12:00:00Z')): { entry: string; total: number } | null {
  const r = calcPrice(usage, model, { timestamp: when }) ?? (model.includes('/') ? calcPrice(usage, model, { providerId: 'litellm', timestamp: when }) : null);
  return r ? { entry: `${r.provider.id}/${r.model.id}`, total: r.total_price } : null;
}
const near = (a: number | null, b: number, what: string): void => assert.ok(a !== null && Math.abs(a - b) <= 1e-12 + Math.abs(b) * 1e-12, `${what}: ${a} ≈ ${b}`);

describe('the bundled price table (src/core/usage/bundledPrices.ts, from @pydantic/genai-prices)', () => {
  it('was written from the installed version of the package, as scripts/prices.mjs writes it (run `npm run prices` when this fails)', async function () {
    this.timeout(60_000);
    const g = await generator();
    const { version, providers } = await g.installedData();
    const text = readFileSync(OUT, 'utf8');
    const from = g.writtenFrom(text);
    assert.deepEqual(from, { ...PRICE_SOURCE });
    assert.equal(from!.version, version, `bundledPrices.ts was written from ${from!.version}, ${version} is installed`);
    assert.ok(text === g.render(providers, version, from!.date), 'bundledPrices.ts differs from what the installed package gives');
    assert.match(PRICE_SOURCE.date, /^\d{4}-\d{2}-\d{2}$/);
  });

  it('prices every bundled model under its own id as the package\'s calcPrice does (same entry, same dollars)', () => {
    // Input of which 2,000 cache reads and 1,000 cache writes (5-minute), 500 output of which 100 reasoning.
    const usage = { input_tokens: 10_000, cache_read_tokens: 2_000, cache_write_tokens: 1_000, output_tokens: 500 };
    const counts = { input: 10_000, cacheRead: 2_000, cacheWrite: 1_000, output: 500, reasoning: 100 };
    const when = new Date('2026-12-01T12:00:00Z');
    let compared = 0;
    for (const p of BUNDLED_PROVIDERS) {
      for (const [id] of p.models) {
        const want = theirs(id, usage, when);
        const ours = bundledPriceOf(id);
        if (want === null) {
          assert.equal(ours, undefined, `${p.id}/${id}: calcPrice finds no price`);
          continue;
        }
        // An id may resolve to an earlier model or provider of the source (its own match order): the same one.
        assert.equal(ours?.entry, want.entry, id);
        near(costOf(counts, ours!, false, when.getTime()), want.total, id);
        compared++;
      }
    }
    assert.ok(compared > 250, `${compared} models compared`);
  });

  it('knows the models the issue found unpriced, and the ids traces write, as calcPrice does', () => {
    const usage = { input_tokens: 1_000, output_tokens: 100 };
    const ids = ['claude-opus-4-7', 'gpt-5.1-codex-max', 'gpt-5.5', 'claude-sonnet-4-5-20250929', 'claude-opus-4-8[1m]', 'claude-opus-5-5', 'gemini-2.5-pro',
      'gemini-3.1-pro-preview', 'gpt-5-codex', 'gpt-5.1', 'gpt-5-2025-08-07', 'o3', 'Claude-Haiku-4-5', 'openai/gpt-4o', 'anthropic/claude-sonnet-4.5', 'vertex_ai/claude-sonnet-4-5@20250929', 'deepseek-chat'];
    for (const id of ids) {
      const want = theirs(id, usage);
      assert.ok(want, `${id}: the package prices it`);
      assert.equal(bundledPriceOf(id)?.entry, want.entry, id);
    }
    assert.equal(bundledPriceOf('models/gemini-2.5-pro')?.entry, 'google/gemini-2.5-pro', 'a Gemini API resource name');
    for (const unknown of ['mock-llm', 'llama-3', 'gpt-5-turbo', 'claude-sonnet-9', '~openai/gpt-latest', 'meta-llama/llama-4-maverick', '']) {
      assert.equal(theirs(unknown, usage), null, `${unknown}: the package has no price`);
      assert.equal(bundledPriceOf(unknown), undefined, `${unknown}: never guessed`);
    }
  });

  it('takes a tiered rate at the record\'s input, for the whole request (gpt-5.5 past 272k, gemini-2.5-pro past 200k)', () => {
    for (const [model, input] of [['gpt-5.5', 271_999], ['gpt-5.5', 272_000], ['gemini-2.5-pro', 200_000], ['gemini-2.5-pro', 200_001]] as const) {
      const want = theirs(model, { input_tokens: input, cache_read_tokens: 10_000, output_tokens: 1_000 })!;
      near(costOf({ input, cacheRead: 10_000, output: 1_000 }, bundledPriceOf(model)!, false), want.total, `${model} at ${input}`);
    }
    const small = costOf({ input: 271_999, output: 0 }, bundledPriceOf('gpt-5.5')!, false)!;
    const large = costOf({ input: 272_000, output: 0 }, bundledPriceOf('gpt-5.5')!, false)!;
    assert.ok(large > small * 1.9, 'the long-context rate applies to the whole prompt');
  });

  it('takes a dated price at the record\'s time, and prices a record without a time only when every period agrees', () => {
    // claude-opus-4-6: long prompts cost double until 2026-03-13, a flat price since.
    const opus = bundledPriceOf('claude-opus-4-6')!;
    assert.ok(opus.periods.length > 1);
    const long = { input: 300_000, output: 1_000 };
    for (const when of ['2026-02-01T00:00:00Z', '2026-04-01T00:00:00Z']) {
      near(costOf(long, opus, false, Date.parse(when)), theirs('claude-opus-4-6', { input_tokens: 300_000, output_tokens: 1_000 }, new Date(when))!.total, when);
    }
    assert.notEqual(costOf(long, opus, false, Date.parse('2026-02-01T00:00:00Z')), costOf(long, opus, false, Date.parse('2026-04-01T00:00:00Z')));
    assert.equal(costOf(long, opus, false, null), null, 'no time, and the periods disagree: unpriced');
    near(costOf({ input: 1_000, output: 100 }, opus, false, null), theirs('claude-opus-4-6', { input_tokens: 1_000, output_tokens: 100 })!.total, 'a short prompt costs the same in every period');
    // deepseek-chat: an off-peak price by the time of day (UTC).
    const ds = bundledPriceOf('deepseek-chat')!;
    for (const when of ['2026-12-01T03:00:00Z', '2026-12-01T20:00:00Z']) {
      near(costOf({ input: 1_000, output: 100 }, ds, false, Date.parse(when)), theirs('deepseek-chat', { input_tokens: 1_000, output_tokens: 100 }, new Date(when))!.total, when);
    }
    assert.equal(costOf({ input: 1_000, output: 100 }, ds, false, null), null);
  });

  it('keeps 1-hour and 5-minute cache writes apart, as the package does', () => {
    const want = theirs('claude-sonnet-4-5', { input_tokens: 10_000, cache_write_tokens: 4_000, cache_write_1h_tokens: 3_000, cache_read_tokens: 1_000, output_tokens: 200 })!;
    near(costOf({ input: 10_000, cacheWrite: 4_000, cacheWrite1h: 3_000, cacheRead: 1_000, output: 200 }, bundledPriceOf('claude-sonnet-4-5')!, false), want.total, 'claude-sonnet-4-5');
  });
});
