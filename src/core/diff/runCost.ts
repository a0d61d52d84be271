import type { TraceModel } from '../traceModel';
import { ModelPrice, priceOf } from '../usage/prices';
import type { Price } from '../usage/priceTypes';
import { UsageRollup, usageRollupOf } from '../usage/rollup';
import { usageCostUsd } from '../usage/usageReport';
import { timeRange, tokenTotals } from '../summary';

/**
 * The one place the diff asks what an event or a run cost, answered by the usage model (core/usage): what the
 * trace records, else the user's prices (`--pricing`, `agentTrace.pricing`), else the bundled table; null when
 * unpriced, never a guessed number. The run's total is the summary's usage report over the same rollup.
 */
/** The model's usage rollup, made once per model and shared with the summary, header and statistics. */
export function rollupOf(model: TraceModel): UsageRollup {
  return usageRollupOf(model);
}

const NO_PRICES: Readonly<Record<string, ModelPrice>> = {};
const priceMemo = new WeakMap<object, Map<string, Price | undefined>>();

/** `priceOf` once per model name and price list (it matches patterns; the diff asks for every event of both runs). */
function priceFor(name: string, prices: Readonly<Record<string, ModelPrice>>): Price | undefined {
  let memo = priceMemo.get(prices);
  if (!memo) priceMemo.set(prices, (memo = new Map()));
  if (!memo.has(name)) memo.set(name, priceOf(name, prices));
  return memo.get(name);
}

/** Cost in USD of event `i`'s own counted usage (an aggregate whose children count has none), or null. */
export function eventCostUsd(model: TraceModel, i: number, prices: Readonly<Record<string, ModelPrice>> = NO_PRICES): number | null {
  // The rollup's columns, not rowOf(i): a row object per event of both runs was a tenth of the diff's time.
  const r = rollupOf(model);
  if (r.isCounted[i] !== 1 || !r.usage.has(i)) return null;
  const name = r.modelOf(i);
  return r.usage.costAt(i, name !== null ? priceFor(name, prices) : undefined);
}

/** What the diff's summary compares of a whole run; each as `agent-trace summary` reports it (null: unknown). */
export interface RunTotals {
  durationMs: number | null;
  /** Input plus output tokens. */
  tokens: number | null;
  costUsd: number | null;
}

/**
 * The run's duration, tokens and cost, read as the summary reads them (its `durationMs`, `totals` and
 * `usage.total.costUsd`) but without the rest of the summary: tool calls and retries cost a pass of their own.
 */
export function runTotals(model: TraceModel, prices: Readonly<Record<string, ModelPrice>> = NO_PRICES): RunTotals {
  const rollup = rollupOf(model);
  const span = timeRange(model);
  const t = tokenTotals(model, rollup);
  return {
    durationMs: span ? span.max - span.min : null,
    tokens: t.inputTokens === null && t.outputTokens === null ? null : (t.inputTokens ?? 0) + (t.outputTokens ?? 0),
    costUsd: usageCostUsd(model, prices, rollup),
  };
}
