import type { TraceModel } from '../traceModel';

/**
 * The one place the diff asks what an event or a run cost. Prices belong to the usage model (issue 16); until
 * it is part of the core, cost is unknown: null, never a guessed number.
 */
export function eventCostUsd(_model: TraceModel, _i: number): number | null {
  return null;
}

/** The whole run's cost in USD, or null when unknown (see {@link eventCostUsd}). */
export function traceCostUsd(_model: TraceModel): number | null {
  return null;
}
