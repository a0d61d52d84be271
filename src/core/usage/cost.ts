import type { TokenCounts } from '../usageTypes';
import type { Price, PricePeriod, Rate, Rates } from './priceTypes';

/** A record's counts as the cost reads them: the token fields and the 1-hour part of the cache writes. */
export type CostCounts = TokenCounts & { cacheWrite1h?: number | null };

const DAY_SECONDS = 86400;

/**
 * Why a cost too large for a number is refused (issue 41: a price of 1e308 made it Infinity, which JSON prints as
 * a silent null next to "priced from the table").
 */
export const OVERFLOW_REASON = 'its cost at this price overflows (more than 1.8e308 US dollars, the largest number): a price is far too large';

/** The period in force at `timeMs`, chosen as the source does: the last one whose condition holds, else the first. */
export function periodAt(periods: readonly PricePeriod[], timeMs: number): PricePeriod {
  for (let k = periods.length - 1; k >= 0; k--) {
    const p = periods[k];
    if (p.from !== undefined) {
      if (timeMs >= Date.parse(p.from)) return p;
    } else if (p.timeOfDay !== undefined) {
      const [start, end] = p.timeOfDay;
      const s = (((timeMs / 1000) % DAY_SECONDS) + DAY_SECONDS) % DAY_SECONDS;
      if (end < start ? s >= start || s < end : s >= start && s < end) return p;
    } else return p;
  }
  return periods[0];
}

/** A rate at a prompt of `input` tokens: the last tier whose start the input exceeds, else the base. */
export function rateAt(r: Rate, input: number): number {
  if (typeof r === 'number') return r;
  let v = r.base;
  for (const [start, price] of r.tiers) if (input > start) v = price;
  return v;
}

/** The cost of one record at one period's rates (see {@link costOf}); null as well when it overflows. */
function costAtRates(c: CostCounts, r: Rates, reasoningApart: boolean): number | null {
  const dollars = rawCostAtRates(c, r, reasoningApart);
  return dollars === null || Number.isFinite(dollars) ? dollars : null;
}

/** {@link costAtRates} before the overflow guard: Infinity (or NaN) when a price is too large for a number. */
function rawCostAtRates(c: CostCounts, r: Rates, reasoningApart: boolean): number | null {
  const input = c.input!;
  const output = c.output!;
  const read = c.cacheRead ?? 0;
  const write = c.cacheWrite ?? 0;
  // 1-hour cache writes (a part of the writes) have their own rate; the rest are 5-minute writes.
  const write1h = Math.min(write, c.cacheWrite1h ?? 0);
  const write5m = write - write1h;
  // A cache rate that is not known is never guessed: the record stays unpriced.
  if ((read > 0 && r.cacheRead === null) || (write5m > 0 && r.cacheWrite === null)) return null;
  if (write1h > 0 && (r.cacheWrite1h === null || r.cacheWrite1h === undefined)) return null;
  const plain = Math.max(0, input - read - write);
  const inputRate = rateAt(r.input, input);
  const outputRate = rateAt(r.output, input);
  // Reasoning counted apart from output (Gemini's thoughts) is billed on top; reasoning inside output is billed at
  // its own rate where the price has one, else as output.
  const reasoning = c.reasoning ?? 0;
  const ownReasoning = r.reasoning !== undefined;
  const out = reasoningApart ? output + (ownReasoning ? 0 : reasoning) : output - (ownReasoning ? Math.min(output, reasoning) : 0);
  let dollars = plain * inputRate
    + read * (r.cacheRead != null ? rateAt(r.cacheRead, input) : inputRate)
    + write5m * (r.cacheWrite != null ? rateAt(r.cacheWrite, input) : inputRate)
    + write1h * (r.cacheWrite1h != null ? rateAt(r.cacheWrite1h, input) : 0)
    + out * outputRate;
  if (ownReasoning) dollars += (reasoningApart ? reasoning : Math.min(output, reasoning)) * rateAt(r.reasoning!, input);
  return dollars / 1e6;
}

/**
 * The cost of one record's tokens at `price`, in US dollars, or null when input or output is unknown (a part would be
 * missing, so the record stays unpriced rather than under-priced). Input includes cached and cache-writing input,
 * billed at their own rates where the price has them (1-hour cache writes at the 1-hour rate); null as well when the
 * record used the cache and the rate for it is not known. A tiered rate is taken at the record's input tokens (the
 * whole request at the tier its prompt reaches, as the providers bill long prompts). A price with periods is taken
 * at `timeMs`, the record's time; a record without a time is priced only when every period gives the same cost.
 */
export function costOf(c: CostCounts, price: Price, reasoningApart: boolean, timeMs: number | null = null): number | null {
  if (c.input === null || c.input === undefined || c.output === null || c.output === undefined) return null;
  const periods = price.periods;
  if (periods.length === 1) return costAtRates(c, periods[0].rates, reasoningApart);
  if (timeMs !== null) return costAtRates(c, periodAt(periods, timeMs).rates, reasoningApart);
  let cost: number | null = null;
  for (let k = 0; k < periods.length; k++) {
    const v = costAtRates(c, periods[k].rates, reasoningApart);
    if (v === null || (k > 0 && v !== cost)) return null;
    cost = v;
  }
  return cost;
}

/**
 * Why {@link costOf} leaves a record unpriced at `price` (null when it does not): what the unpriced hint says.
 */
export function unpricedReason(c: CostCounts, price: Price, reasoningApart: boolean, timeMs: number | null = null): string | null {
  if (c.input === null || c.input === undefined || c.output === null || c.output === undefined) return `a call's ${c.input == null ? 'input' : 'output'} tokens are not recorded`;
  if (costOf(c, price, reasoningApart, timeMs) !== null) return null;
  const periods = timeMs === null ? price.periods : [periodAt(price.periods, timeMs)];
  for (const { rates: r } of periods) {
    const raw = rawCostAtRates(c, r, reasoningApart);
    if (raw !== null && !Number.isFinite(raw)) return OVERFLOW_REASON;
    const write = c.cacheWrite ?? 0;
    const write1h = Math.min(write, c.cacheWrite1h ?? 0);
    if (write1h > 0 && r.cacheWrite1h == null) return 'its price has no 1-hour cache write rate';
    if ((c.cacheRead ?? 0) > 0 && r.cacheRead === null) return 'its price has no cache read rate';
    if (write - write1h > 0 && r.cacheWrite === null) return 'its price has no cache write rate';
  }
  return 'its price depends on when the call was made, and the trace does not say';
}
