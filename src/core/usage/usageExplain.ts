/**
 * `usage.explain` of `summary --json`: what a file's usage totals sum, what was folded or dropped, what is unpriced,
 * and where the cost comes from, so every figure can be checked by hand. Made by core/usage/usageReport.ts for one
 * file; a session's other files are added by core/usage/sessionSums.ts.
 */
import type { TraceModel } from '../traceModel';
import { PRICE_SOURCE } from './prices';
import type { PriceSource } from './priceTypes';
import type { UsageRollup } from './rollup';

/** Token and cost totals of one scope (the run, a model, a group). Null: nothing in the scope reported it. */
export interface UsageTotalsJson {
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
  reasoningTokens: number | null;
  /** Input + output, or a total the file records without the split. */
  totalTokens: number | null;
  /** Null when nothing in the scope is priced. */
  costUsd: number | null;
}

/** One model's usage. */
export interface ModelUsageJson extends UsageTotalsJson {
  model: string;
  /** Records (model calls, or aggregates standing for them) that counted. */
  calls: number;
  /** Where the cost came from: `trace` (recorded in the file), `table` (the price table or the setting), null: unpriced. */
  costSource: 'trace' | 'table' | 'mixed' | null;
  /** Retries of this model's calls (see {@link UsageReport.retries}). */
  retries: number;
}

/** One file a session's usage sums (the file itself, then its subagents': core/sessionUsage.ts). */
export interface UsageFileJson extends UsageTotalsJson {
  file: string;
  /** `session`: the file asked about; `subagent`, `compaction`: a file of its session (FormatModule.sessionFiles). */
  role: 'session' | 'subagent' | 'compaction';
  /** The tool call of the session file that started it (subagents), when recorded. */
  toolUseId?: string | null;
  /** What the subagent was asked to do, as recorded. */
  title?: string | null;
  events: number;
  /** Usage records counted: model responses, each once at its last snapshot (or aggregates standing for them). */
  records: number;
  /** Where this file's cost comes from (see {@link ModelUsageJson.costSource}). */
  costSource: 'trace' | 'table' | 'mixed' | null;
  /** The file was read whole and every model call in it reported its usage. */
  complete: boolean;
  /** Its `costUsd` is the session's recorded cost, its other files' included (they are not added to it again). */
  costCoversSession?: boolean;
  /** Why the file could not be counted (unreadable, vanished); its figures are then null. */
  error?: string;
}

/** `usage.explain` of `summary --json`: what was summed, what was folded or dropped, what is unpriced, and why. */
export interface UsageExplain {
  /** The files summed, the asked-about file first. */
  files: UsageFileJson[];
  /** Usage records counted in all files (model responses, each once). */
  records: number;
  /** Lines whose usage snapshot was replaced by a later one of the same response (Claude Code writes one per content block): not added. */
  snapshotsReplaced: number;
  /** Lines the writer repeated (Codex 0.60's second `token_count`): dropped. */
  duplicatesDropped: number;
  /** Aggregates (a parent span's or task's sum) not added because their children were counted. */
  aggregatesNotAdded: number;
  /** Share of input + output tokens left unpriced, 0..1 (null: no tokens). */
  unpricedShare: number | null;
  /** Tokens (input + output) of each unpriced model, with its share of all counted tokens. */
  unpricedTokens: { model: string; tokens: number; share: number }[];
  /** Where the cost comes from, in words (recorded by the trace, priced from the table, or both). */
  cost: string;
  /** The price source and the day of its version. */
  priceSource: PriceSource;
  /** Anything else a reader of the figures should know (recorded totals that cover more or less than the files). */
  notes: string[];
}

/** A model some of whose tokens are unpriced, and why. */
export interface UnpricedModel {
  model: string;
  reason: string;
}

/** What the usage report counted, as {@link explainOf} needs it. */
export interface CountedFigures {
  byModel: readonly ModelUsageJson[];
  /** The file's own row of `files`; its `costSource` is filled here. */
  file: UsageFileJson;
  cost: number | null;
  /** Input + output tokens counted, and those of them priced. */
  allTokens: number;
  pricedTokens: number;
  /** Per model of `byModel` (in its order), its tokens left unpriced. */
  unpricedTokens: readonly { model: string; tokens: number }[];
}

/** The explanation of one file's usage (see {@link UsageExplain}); a session's other files are added by core/sessionUsage.ts. */
export function explainOf(model: TraceModel, rollup: UsageRollup, counted: CountedFigures): UsageExplain {
  const { byModel, cost, allTokens, pricedTokens } = counted;
  let snapshots = 0;
  let duplicates = 0;
  for (const [i, facts] of model.events.usageFactEntries()) {
    if (i >= model.events.size) break;
    if (facts.repeat === 'snapshot') snapshots++;
    else if (facts.repeat === 'duplicate') duplicates++;
  }
  const costSource = costSourceOf(new Set(byModel.flatMap((m) => (m.costSource === null ? [] : m.costSource === 'mixed' ? ['trace', 'table'] as const : [m.costSource]))));
  const recordedRun = typeof model.formatTotals.costUsd === 'number' && Number.isFinite(model.formatTotals.costUsd);
  const unpricedTokens = counted.unpricedTokens.flatMap((u) => (u.tokens > 0 ? [{ model: u.model, tokens: u.tokens, share: allTokens > 0 ? u.tokens / allTokens : 0 }] : []));
  return {
    files: [{ ...counted.file, costSource: recordedRun ? 'trace' : costSource }],
    records: rollup.countedIndex.length,
    snapshotsReplaced: snapshots,
    duplicatesDropped: duplicates,
    aggregatesNotAdded: rollup.shadowedCount,
    unpricedShare: allTokens > 0 ? 1 - pricedTokens / allTokens : null,
    unpricedTokens,
    cost: costSentence(recordedRun, costSource, cost),
    priceSource: { ...PRICE_SOURCE },
    // A fork's copies of its origin's responses and the origin's share of its running totals are not its usage.
    // What the file's usage records count that its events do not show (its builder says).
    notes: [...(model.origin?.excluded ?? []), ...(model.usageNotes ?? [])],
  };
}

function costSentence(recordedRun: boolean, source: ModelUsageJson['costSource'], cost: number | null): string {
  if (cost === null) return 'unknown: no counted tokens are priced';
  if (recordedRun) return 'recorded by the trace for the whole run (its totals line), not computed';
  if (source === 'trace') return 'recorded by the trace for each call or model';
  if (source === 'table') return `computed from the counted tokens at ${PRICE_SOURCE.name} ${PRICE_SOURCE.version} prices (${PRICE_SOURCE.date}), or the user's`;
  return 'recorded by the trace where it records one, computed from the price table for the rest';
}

/** The cost source of a scope whose records' costs came from `sources`. */
export function costSourceOf(sources: ReadonlySet<'trace' | 'table'>): ModelUsageJson['costSource'] {
  if (sources.size === 0) return null;
  return sources.size > 1 ? 'mixed' : [...sources][0];
}
