import type { TraceModel } from '../traceModel';
import type { ModelPrice } from './prices';
import type { Price, Rate } from './priceTypes';
import { periodAt, rateAt } from './cost';
import type { UsageRollup } from './rollup';
import { oneHourWrites } from './contextSplit';
import { priceLookup } from './usageReport';
import type { ModelRates, RatesUsed } from './statisticsTypes';

/**
 * What the Statistics tab adds to the usage report's rows per model (issue 37 item 2): the 1-hour part of the cache
 * writes, the rates the cost used (the user's price first, then the bundled table's, as the report looks them up)
 * and the share of the model's tokens left unpriced. The token and cost totals stay the report's: this reads the
 * same counted records and prices, it does not sum them again.
 */

/** A rate in US dollars per million tokens at a prompt of `input` tokens (the cost's tier), and whether it is tiered. */
function tierOf(r: Rate, input: number): { v: number; tiered: boolean } {
  return { v: rateAt(r, input), tiered: typeof r !== 'number' };
}

/**
 * The rates of `price` as the cost applies them to a call at `timeMs` with `input` prompt tokens: a cache rate the
 * price leaves out is billed as input, a reasoning rate it leaves out as output; null where the rate is not known
 * (records using it stay unpriced, never guessed).
 */
export function ratesUsed(price: Price, timeMs: number | null, input = 0): RatesUsed {
  const r = (timeMs === null ? price.periods[0] : periodAt(price.periods, timeMs)).rates;
  let tiered = false;
  const at = (x: Rate): number => {
    const got = tierOf(x, input);
    tiered ||= got.tiered;
    return got.v;
  };
  const inputRate = at(r.input);
  const outputRate = at(r.output);
  return {
    input: inputRate,
    cacheRead: r.cacheRead === undefined ? inputRate : r.cacheRead === null ? null : at(r.cacheRead),
    cacheWrite: r.cacheWrite === undefined ? inputRate : r.cacheWrite === null ? null : at(r.cacheWrite),
    cacheWrite1h: r.cacheWrite1h == null ? null : at(r.cacheWrite1h),
    output: outputRate,
    reasoning: r.reasoning === undefined ? outputRate : at(r.reasoning),
    tiered,
    periods: price.periods.length,
  };
}

/** Per model name (as the usage report names them), what the Statistics tab shows beside its totals. */
export function modelRates(model: TraceModel, rollup: UsageRollup, prices: Readonly<Record<string, ModelPrice>> = {}): Map<string, ModelRates> {
  const t = model.events;
  const u = rollup.usage;
  const price = priceLookup(prices);
  const oneHour = oneHourWrites(t, rollup.countedIndex);
  const acc = new Map<string, { own: string | null; oneHour: number | null; tokens: number; unpriced: number; last: number; lastInput: number }>();
  for (const i of rollup.countedIndex) {
    const own = rollup.modelOf(i);
    const name = own ?? '(unknown model)';
    let a = acc.get(name);
    if (!a) acc.set(name, (a = { own, oneHour: null, tokens: 0, unpriced: 0, last: i, lastInput: 0 }));
    const h = oneHour.get(i);
    if (h !== undefined) a.oneHour = (a.oneHour ?? 0) + h;
    const tokens = u.inputOutputOf(i);
    a.tokens += tokens;
    if (u.costAt(i, price(own)) === null) a.unpriced += tokens;
    a.last = i;
    a.lastInput = u.field(i, 'input') ?? 0;
  }
  const out = new Map<string, ModelRates>();
  for (const [name, a] of acc) {
    const p = price(a.own);
    out.set(name, {
      cacheWrite1hTokens: a.oneHour,
      price: p ? { from: p.from, entry: p.entry, rates: ratesUsed(p, t.timeOf(a.last), a.lastInput) } : null,
      unpricedShare: a.tokens > 0 ? a.unpriced / a.tokens : null,
    });
  }
  return out;
}
