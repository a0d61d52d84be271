import type { TraceModel } from '../traceModel';
import { costOf } from '../usage/cost';
import { ModelPrice, priceOf } from '../usage/prices';
import { UsageRollup, usageRollupOf } from '../usage/rollup';

/**
 * The one place the diff asks what an event or a run cost, answered by the usage model (core/usage): what the
 * trace records, else the user's prices (`--pricing`, `agentTrace.pricing`), else the bundled table; null when
 * unpriced, never a guessed number. The run's total is the summary's usage report over the same rollup.
 */
/** The model's usage rollup, made once per model and shared with the summary, header and statistics. */
export function rollupOf(model: TraceModel): UsageRollup {
  return usageRollupOf(model);
}

/** Cost in USD of event `i`'s own counted usage (an aggregate whose children count has none), or null. */
export function eventCostUsd(model: TraceModel, i: number, prices: Readonly<Record<string, ModelPrice>> = {}): number | null {
  const row = rollupOf(model).rowOf(i);
  if (!row || !row.counted || !row.usage) return null;
  if (row.usage.costUsd !== null) return row.usage.costUsd;
  const price = row.model !== null ? priceOf(row.model, prices) : undefined;
  return price ? costOf(row.usage.counts, price, row.usage.reasoningApart) : null;
}
