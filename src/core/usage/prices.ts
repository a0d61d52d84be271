import { BUNDLED_PROVIDERS, PRICE_SOURCE, PROVIDER_NAMES } from './bundledPrices';
import type { BundledProvider, MatchLogic, Price, PriceSource, Rates } from './priceTypes';

/**
 * Prices, in US dollars per million tokens: the user's first (`agentTrace.pricing`, `--pricing FILE`), then the table
 * bundled at build time from @pydantic/genai-prices (`bundledPrices.ts`, written by scripts/prices.mjs; nothing is
 * read or fetched at run time). A model the source does not know is unpriced, never guessed; a cost the trace records
 * itself wins over both (see `UsageColumns.costAt` and the usage report). docs/pricing.md has the details.
 */
export { PRICE_SOURCE };
export type { Price, PriceSource };

/** The day of the bundled prices (`usage.priceTableDate` in `summary --json`): the source version's publication. */
export const PRICE_TABLE_DATE = PRICE_SOURCE.date;

/** A model's price as the user writes it in `agentTrace.pricing` (one flat price per model). */
export interface ModelPrice {
  input: number;
  output: number;
  /** Cached input read; absent: billed as input. */
  cacheRead?: number | null;
  /** Input written to the 5-minute cache; absent: billed as input. */
  cacheWrite?: number | null;
  /** Input written to the 1-hour cache; absent: not known (a record with 1-hour cache writes is unpriced). */
  cacheWrite1h?: number | null;
}

/**
 * The key a user's price matches a model id by: lower case, without a provider prefix (`anthropic/`, `models/`) or a
 * release date suffix (`-20250929`, `-2025-08-07`), Claude's dotted versions dashed. The bundled table matches by the
 * source's own rules instead (see {@link bundledPriceOf}).
 */
export function normalizeModel(model: string): string {
  let m = model.trim().toLowerCase();
  m = m.replace(/^(models|anthropic|openai|google|gemini|vertex_ai|bedrock)\//, '');
  m = m.replace(/-(\d{8}|\d{4}-\d{2}-\d{2})$/, '');
  if (m.startsWith('claude-')) m = m.replace(/(\d)\.(\d)/g, '$1-$2');
  return m;
}

const regexes = new Map<string, RegExp>();

/** The source's match rules (`equals`, `starts_with`, `ends_with`, `contains` ignore case; `regex` as written). */
export function matches(m: MatchLogic, id: string): boolean {
  if ('or' in m) return m.or.some((x) => matches(x, id));
  if ('and' in m) return m.and.every((x) => matches(x, id));
  const lower = id.toLowerCase();
  if ('equals' in m) return lower === m.equals.toLowerCase();
  if ('starts_with' in m) return lower.startsWith(m.starts_with.toLowerCase());
  if ('ends_with' in m) return lower.endsWith(m.ends_with.toLowerCase());
  if ('contains' in m) return lower.includes(m.contains.toLowerCase());
  let re = regexes.get(m.regex);
  if (!re) regexes.set(m.regex, (re = new RegExp(m.regex)));
  return re.test(id);
}

const byId = new Map(BUNDLED_PROVIDERS.map((p) => [p.id, p]));

/** A model of `provider` (or of the providers it falls back to) that matches `id`. */
function modelIn(provider: BundledProvider, id: string, fallbacks = true): Price | undefined {
  for (const [model, match, periods] of provider.models) if (matches(match, id)) return { from: 'bundled', entry: `${provider.id}/${model}`, periods };
  if (fallbacks) {
    for (const f of provider.fallbacks) {
      const p = byId.get(f);
      const hit = p && modelIn(p, id, false);
      if (hit) return hit;
    }
  }
  return undefined;
}

/** A date suffix written `-YYYYMMDD` (a real day) rewritten `-YYYY-MM-DD`, as the source retries a model id. */
function dashedDate(id: string): string {
  return id.replace(/(-)(20\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?=-|:|$)/g, (all, dash: string, y: string, mo: string, d: string) => {
    const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
    return day.getUTCFullYear() !== Number(y) || day.getUTCMonth() !== Number(mo) - 1 || day.getUTCDate() !== Number(d) ? all : `${dash}${y}-${mo}-${d}`;
  });
}

/** A model of `provider`, tried as written, then with its date suffix dashed. */
function modelOf(provider: BundledProvider, id: string): Price | undefined {
  const hit = modelIn(provider, id);
  if (hit) return hit;
  const dashed = dashedDate(id);
  return dashed !== id ? modelIn(provider, dashed) : undefined;
}

/**
 * The bundled price of a model id, found as the source's `calcPrice` finds it: lower case, the first provider whose
 * `model_match` the id matches, then the first of its models (or its fallback providers' models) whose match does,
 * then again with a `-YYYYMMDD` date dashed. An id written `provider/model` (`openai/gpt-4o`, `vertex_ai/claude-…`)
 * is looked up as `model` in the provider the prefix names, as `calcPrice` does for LiteLLM's ids; a Gemini API
 * resource name (`models/gemini-2.5-pro`) as the model it names. Nothing else is tried: undefined means unpriced.
 */
export function bundledPriceOf(model: string): Price | undefined {
  const id = model.toLowerCase().trim();
  const provider = BUNDLED_PROVIDERS.find((p) => p.match !== null && matches(p.match, id));
  const hit = provider && modelOf(provider, id);
  if (hit) return hit;
  const slash = id.indexOf('/');
  if (slash <= 0 || slash === id.length - 1) return undefined;
  const prefix = id.slice(0, slash);
  const rest = id.slice(slash + 1);
  if (prefix === 'models') return bundledPriceOf(rest);
  const named = PROVIDER_NAMES.find(([pid]) => pid === prefix) ?? PROVIDER_NAMES.find(([, match]) => match !== null && matches(match, prefix));
  const p = named && named[2] ? byId.get(named[0]) : undefined;
  return p && modelOf(p, rest);
}

/** The user's price as the cost reads prices. */
function userPrice(key: string, p: ModelPrice): Price {
  const rates: Rates = { input: p.input, output: p.output };
  if (p.cacheRead !== undefined) rates.cacheRead = p.cacheRead;
  if (p.cacheWrite !== undefined) rates.cacheWrite = p.cacheWrite;
  if (p.cacheWrite1h !== undefined) rates.cacheWrite1h = p.cacheWrite1h;
  return { from: 'user', entry: key, periods: [{ rates }] };
}

/**
 * The price of `model`: the user's table first (`agentTrace.pricing`, keys matched exactly, then by
 * {@link normalizeModel}), then the bundled one. Undefined means unpriced.
 */
export function priceOf(model: string, overrides: Readonly<Record<string, ModelPrice>> = {}): Price | undefined {
  // Own keys only: a model named `constructor`, `toString` or `__proto__` is not a member of Object.prototype.
  if (Object.hasOwn(overrides, model)) return userPrice(model, overrides[model]);
  const key = normalizeModel(model);
  for (const [k, v] of Object.entries(overrides)) if (normalizeModel(k) === key) return userPrice(k, v);
  return bundledPriceOf(model);
}

/** Checks one entry of the pricing setting; returns a message for a bad entry, null for a good one. */
export function pricingEntryProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object {input, output, cacheRead?, cacheWrite?, cacheWrite1h?}';
  const v = value as Record<string, unknown>;
  for (const k of ['input', 'output']) if (typeof v[k] !== 'number' || !Number.isFinite(v[k]) || (v[k] as number) < 0) return `"${k}" must be a non-negative number (US dollars per million tokens)`;
  for (const k of ['cacheRead', 'cacheWrite', 'cacheWrite1h']) if (v[k] !== undefined && (typeof v[k] !== 'number' || !Number.isFinite(v[k]) || (v[k] as number) < 0)) return `"${k}" must be a non-negative number when given`;
  return null;
}

/** The valid entries of a pricing setting value, with a message for each one left out. */
export function readPricing(value: unknown): { prices: Record<string, ModelPrice>; problems: string[] } {
  const entries: [string, ModelPrice][] = [];
  const problems: string[] = [];
  if (value === undefined || value === null) return { prices: {}, problems };
  if (typeof value !== 'object' || Array.isArray(value)) return { prices: {}, problems: ['agentTrace.pricing must be an object of model → price'] };
  for (const [model, v] of Object.entries(value as Record<string, unknown>)) {
    const problem = pricingEntryProblem(v);
    if (problem) problems.push(`agentTrace.pricing[${JSON.stringify(model)}]: ${problem}`);
    else {
      const p = v as ModelPrice;
      entries.push([model, { input: p.input, output: p.output, cacheRead: p.cacheRead, cacheWrite: p.cacheWrite, cacheWrite1h: p.cacheWrite1h }]);
    }
  }
  // Own data properties (Object.fromEntries defines them): a model named `__proto__` stays a key, not a prototype.
  return { prices: Object.fromEntries(entries), problems };
}
