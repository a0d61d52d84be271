import type { TokenCounts } from '../usageTypes';
import { ModelPrice } from './prices';

/**
 * The cost of one record's tokens at `price`, in US dollars, or null when input or output is unknown (a part
 * would be missing, so the record stays unpriced rather than under-priced). Input includes cached and
 * cache-writing input, which are billed at their own rates where the model has them; null as well when the
 * record used the cache and the model's cache rate is not known.
 */
export function costOf(c: TokenCounts, price: ModelPrice, reasoningApart: boolean): number | null {
  if (c.input === null || c.input === undefined || c.output === null || c.output === undefined) return null;
  const read = c.cacheRead ?? 0;
  const write = c.cacheWrite ?? 0;
  // A cache rate the table does not know is never guessed: the record stays unpriced.
  if ((read > 0 && price.cacheRead === null) || (write > 0 && price.cacheWrite === null)) return null;
  const plain = Math.max(0, c.input - read - write);
  const out = c.output + (reasoningApart ? c.reasoning ?? 0 : 0);
  const dollars = plain * price.input + read * (price.cacheRead ?? price.input) + write * (price.cacheWrite ?? price.input) + out * price.output;
  return dollars / 1e6;
}
