import type { EventTable } from '../eventTable';
import { ModelUsageDraft, TokenCounts, UsageDraft, UsageSource } from '../usageTypes';

/** One event's usage as the rollups see it. */
export interface EventUsage {
  source: UsageSource;
  covers: 'self' | 'parent';
  /** Input includes cached and cache-writing input; output includes reasoning unless `reasoningApart`. */
  counts: TokenCounts & { total?: number | null };
  costUsd: number | null;
  model: string | null;
  reasoningApart: boolean;
  runningTotals: TokenCounts | null;
  byModel: Record<string, ModelUsageDraft> | null;
}

/**
 * The usage an event reports: its tokensIn/tokensOut columns plus `f`, the adapter's side facts (cache,
 * reasoning, cost, source). Null for an event that reports nothing; `elsewhere` events (a split response's later lines)
 * report nothing too, but are not gaps: see {@link usageElsewhere}.
 */
export function eventUsage(f: UsageDraft | undefined, tokensIn: number | null, tokensOut: number | null): EventUsage | null {
  if (!f) return tokensIn === null && tokensOut === null ? null : ownUsage(tokensIn, tokensOut);
  if (f.elsewhere) return null;
  const counts = {
    input: f.input !== undefined ? f.input : tokensIn,
    output: f.output !== undefined ? f.output : tokensOut,
    cacheRead: f.cacheRead ?? null,
    cacheWrite: f.cacheWrite ?? null,
    reasoning: f.reasoning ?? null,
    total: f.total ?? null,
  };
  const reports = counts.input !== null || counts.output !== null || counts.cacheRead !== null || counts.cacheWrite !== null || counts.reasoning !== null
    || counts.total !== null || (f.costUsd ?? null) !== null || f.runningTotals || f.byModel;
  if (!reports && f.source !== 'aggregate') return null;
  return {
    source: f.source ?? 'event',
    covers: f.covers ?? 'self',
    counts,
    costUsd: f.costUsd ?? null,
    model: null,
    reasoningApart: f.reasoningApart === true,
    runningTotals: f.runningTotals ?? null,
    byModel: f.byModel && Object.keys(f.byModel).length > 0 ? f.byModel : null,
  };
}

/** The usage of an event that records only its tokensIn/tokensOut columns (most model calls). */
function ownUsage(input: number | null, output: number | null): EventUsage {
  return {
    source: 'event', covers: 'self', counts: { input, output, cacheRead: null, cacheWrite: null, reasoning: null, total: null },
    costUsd: null, model: null, reasoningApart: false, runningTotals: null, byModel: null,
  };
}

/** True for an event whose call's usage is on another line (not a gap in completeness). */
export function usageElsewhere(t: EventTable, i: number): boolean {
  return t.usageFactsOf(i)?.elsewhere === true;
}
