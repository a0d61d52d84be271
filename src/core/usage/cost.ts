import type { TokenCounts } from '../usageTypes';
import { ModelPrice } from './prices';

/**
 * The cost of one record's tokens at `price`, in US dollars, or null when input or output is unknown (a part
 * would be missing, so the record stays unpriced rather than under-priced). Input includes cached and
 * cache-writing input, which are billed at their own rates where the model has them (1-hour cache writes at the
 * 1-hour rate); null as well when the record used the cache and the model's rate for it is not known.
 */
export function costOf(c: TokenCounts & { cacheWrite1h?: number | null }, price: ModelPrice, reasoningApart: boolean): number | null {
  if (c.input === null || c.input === undefined || c.output === null || c.output === undefined) return null;
  const read = c.cacheRead ?? 0;
  const write = c.cacheWrite ?? 0;
  // 1-hour cache writes (a part of the writes) have their own rate; the rest are 5-minute writes.
  const write1h = Math.min(write, c.cacheWrite1h ?? 0);
  const write5m = write - write1h;
  // A cache rate the table does not know is never guessed: the record stays unpriced.
  if ((read > 0 && price.cacheRead === null) || (write5m > 0 && price.cacheWrite === null)) return null;
  if (write1h > 0 && (price.cacheWrite1h === null || price.cacheWrite1h === undefined)) return null;
  const plain = Math.max(0, c.input - read - write);
  const out = c.output + (reasoningApart ? c.reasoning ?? 0 : 0);
  const dollars = plain * price.input + read * (price.cacheRead ?? price.input) + write5m * (price.cacheWrite ?? price.input) + write1h * (price.cacheWrite1h ?? 0) + out * price.output;
  return dollars / 1e6;
}
