/**
 * The bundled price table, in US dollars per million tokens, standard (non-batch) tier, shortest context tier.
 * Each provider's block says where its numbers were checked and when; a model no source confirmed is left out
 * (unpriced), and a cache rate no source confirmed is `null` (a record that used the cache is then unpriced,
 * never priced at a guessed rate). Prices change: users add or override models with the `agentTrace.pricing`
 * setting, and a cost the trace records itself wins over this table.
 */
export const PRICE_TABLE_DATE = '2026-12-01';

/** A model's price, US dollars per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  /** Cached input read; absent: billed as input; null: not known (a record with cache reads is unpriced). */
  cacheRead?: number | null;
  /** Input written to the 5-minute cache; absent: billed as input; null: not known (a record with cache writes is unpriced). */
  cacheWrite?: number | null;
  /**
   * Input written to the 1-hour cache (Anthropic's `ephemeral_1h_input_tokens`); absent or null: not known (a
   * record with 1-hour cache writes is unpriced, never priced at the 5-minute rate).
   */
  cacheWrite1h?: number | null;
}

const P = (input: number, output: number, cacheRead?: number | null, cacheWrite?: number | null, cacheWrite1h?: number | null): ModelPrice => ({ input, output, cacheRead, cacheWrite, cacheWrite1h });
/** Anthropic: cache hits a tenth of input, 5-minute writes 1.25 times input, 1-hour writes twice input. */
const A = (input: number, output: number, cacheRead: number, cacheWrite: number): ModelPrice => P(input, output, cacheRead, cacheWrite, input * 2);

/** Model ids as the APIs name them (date suffixes are stripped before lookup, see `normalizeModel`). */
export const BUNDLED_PRICES: Readonly<Record<string, ModelPrice>> = {
  // Anthropic, checked 2026-12-01 against Anthropic's own pricing page (platform.claude.com/docs/en/docs/
  // about-claude/pricing, "Model pricing"): base input, output, cache hits, 5-minute cache writes; 1-hour cache
  // writes are twice the base input on that page (the "1h Cache Writes" column) for every model, made by A().
  'claude-opus-4-6': A(5, 25, 0.5, 6.25),
  'claude-opus-4-5': A(5, 25, 0.5, 6.25),
  'claude-opus-4-1': A(15, 75, 1.5, 18.75),
  'claude-opus-4': A(15, 75, 1.5, 18.75),
  'claude-sonnet-4-6': A(3, 15, 0.3, 3.75),
  'claude-sonnet-4-5': A(3, 15, 0.3, 3.75),
  'claude-sonnet-4': A(3, 15, 0.3, 3.75),
  'claude-3-7-sonnet': A(3, 15, 0.3, 3.75),
  'claude-3-5-sonnet': A(3, 15, 0.3, 3.75),
  'claude-haiku-4-5': A(1, 5, 0.1, 1.25),
  'claude-3-5-haiku': A(0.8, 4, 0.08, 1),
  'claude-3-haiku': A(0.25, 1.25, 0.03, 0.3),
  'claude-3-opus': A(15, 75, 1.5, 18.75),
  // OpenAI, checked 2026-12-01: OpenAI's page (developers.openai.com/api/docs/pricing) was not reachable from
  // here, so each row below is one that independent transcriptions of that page agree on (cached input: a
  // tenth of input for GPT-5, a quarter for GPT-4.1, half for GPT-4o and o1). o3-mini (transcriptions
  // disagree: $1.10/$4.40 or $0.50/$2) is left out; o3's cache rate disagrees ($0.50 or $1), so it is null.
  // OpenAI bills no cache writes and its traces report none.
  'gpt-5': P(1.25, 10, 0.125),
  'gpt-5-mini': P(0.25, 2, 0.025),
  'gpt-5-nano': P(0.05, 0.4, 0.005),
  'gpt-5-codex': P(1.25, 10, 0.125),
  'gpt-4.1': P(2, 8, 0.5),
  'gpt-4.1-mini': P(0.4, 1.6, 0.1),
  'gpt-4.1-nano': P(0.1, 0.4, 0.025),
  'gpt-4o': P(2.5, 10, 1.25),
  'gpt-4o-mini': P(0.15, 0.6, 0.075),
  'o3': P(2, 8, null),
  'o4-mini': P(1.1, 4.4, 0.275),
  'o1': P(15, 60, 7.5),
  // Google, checked 2026-12-01: input and output from transcriptions of Google's page
  // (ai.google.dev/gemini-api/docs/pricing, read 2026-09-20 and 2026-10-07; prompts up to 200k tokens).
  // Context-caching rates are not confirmed by any source found (null); Gemini 2.0 rows were not found
  // (left out).
  'gemini-2.5-pro': P(1.25, 10, null),
  'gemini-2.5-flash': P(0.3, 2.5, null),
  'gemini-2.5-flash-lite': P(0.1, 0.4, null),
};

/**
 * The table's key for a model id as traces write it: lower case, without a provider prefix (`anthropic/`,
 * `models/`) or a release date suffix (`-20250929`, `-2025-08-07`), Claude's dotted versions dashed. Nothing
 * else is stripped: a model that differs in any other way is unpriced rather than guessed.
 */
export function normalizeModel(model: string): string {
  let m = model.trim().toLowerCase();
  m = m.replace(/^(models|anthropic|openai|google|gemini|vertex_ai|bedrock)\//, '');
  m = m.replace(/-(\d{8}|\d{4}-\d{2}-\d{2})$/, '');
  if (m.startsWith('claude-')) m = m.replace(/(\d)\.(\d)/g, '$1-$2');
  return m;
}

/**
 * The price of `model`: the user's table first (`agentTrace.pricing`, keys matched exactly and normalized),
 * then the bundled one. Undefined means unpriced.
 */
export function priceOf(model: string, overrides: Readonly<Record<string, ModelPrice>> = {}): ModelPrice | undefined {
  if (overrides[model]) return overrides[model];
  const key = normalizeModel(model);
  for (const [k, v] of Object.entries(overrides)) if (normalizeModel(k) === key) return v;
  return BUNDLED_PRICES[key];
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
  const prices: Record<string, ModelPrice> = {};
  const problems: string[] = [];
  if (value === undefined || value === null) return { prices, problems };
  if (typeof value !== 'object' || Array.isArray(value)) return { prices, problems: ['agentTrace.pricing must be an object of model → price'] };
  for (const [model, v] of Object.entries(value as Record<string, unknown>)) {
    const problem = pricingEntryProblem(v);
    if (problem) problems.push(`agentTrace.pricing["${model}"]: ${problem}`);
    else {
      const p = v as ModelPrice;
      prices[model] = { input: p.input, output: p.output, cacheRead: p.cacheRead, cacheWrite: p.cacheWrite, cacheWrite1h: p.cacheWrite1h };
    }
  }
  return { prices, problems };
}
