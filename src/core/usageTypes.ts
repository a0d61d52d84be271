/**
 * The token facts an adapter records beyond `tokensIn`/`tokensOut`, kept in a sparse side table of the event
 * table (most events report no usage), so the compact columns stay as they are.
 */

/**
 * Where an event's numbers come from:
 * - `event`: the event reports its own work (one model call);
 * - `aggregate`: the event sums its descendants' work (an agent-run span, a turn that carries its calls'
 *   totals); it never adds to numbers its children report, and counts only where no child reports any;
 * - `totals`: the file's own totals line for its run or session (murmur `session_end`, lumen `run_end`,
 *   Claude Code `result`, Codex `token_count`): used to check the sum, and as the total when no event reports.
 */
export type UsageSource = 'event' | 'aggregate' | 'totals';

/** Token fields of a usage record, in the order tables show them. */
export const TOKEN_FIELDS = ['input', 'output', 'cacheRead', 'cacheWrite', 'reasoning'] as const;
export type TokenField = (typeof TOKEN_FIELDS)[number];

/** What an adapter records for an event with usage. `input`/`output` default to the draft's tokensIn/tokensOut. */
export interface UsageDraft {
  source?: UsageSource;
  /**
   * For an aggregate: the subtree it sums. `self` (default): its own descendants (a parent span); `parent`: its
   * parent's subtree (a closing record such as murmur `task_end`, a sibling of the turns it sums).
   */
  covers?: 'self' | 'parent';
  /** Input tokens, cached and cache-writing input included (what the model read). */
  input?: number | null;
  output?: number | null;
  /** Input tokens served from the provider's prompt cache (a part of `input`). */
  cacheRead?: number | null;
  /** Input tokens written to the prompt cache (a part of `input`). */
  cacheWrite?: number | null;
  /** Reasoning (thinking) tokens (a part of `output`). */
  reasoning?: number | null;
  /**
   * The part of `cacheWrite` written to the 1-hour cache (Anthropic's `cache_creation.ephemeral_1h_input_tokens`);
   * the rest of `cacheWrite` is 5-minute writes. Priced at the model's 1-hour write rate.
   */
  cacheWrite1h?: number | null;
  /** The response's usage is recorded on another line (a response split over lines repeats it): not a gap. */
  elsewhere?: boolean;
  /**
   * Why this line's usage is another line's, for the usage explanation: `snapshot`, a later usage snapshot of a
   * response written over several lines (its latest snapshot is counted once, on the response's first line);
   * `duplicate`, a line the writer repeated (Codex 0.60's second `token_count`), dropped; `inherited`, a copy of a
   * response of the session this one was forked from (Claude Code `--fork-session`), the origin's usage, not counted.
   */
  repeat?: 'snapshot' | 'duplicate' | 'inherited';
  /** Reasoning tokens are counted apart from `output` (Gemini's thoughts), so cost prices them on top. */
  reasoningApart?: boolean;
  /** A total the writer records without a split into input and output (deepstrike `run_terminal.total_tokens`). */
  total?: number | null;
  /** Cost in US dollars the trace itself records for this event's scope. */
  costUsd?: number | null;
  /**
   * Why the model stopped answering, as the writer records it (Claude Code `stop_reason`, OpenAI `finish_reason`,
   * Gemini `finishReason`, OTLP `gen_ai.response.finish_reasons`): one per choice, in the writer's words. Not
   * counted by any rollup; the OTLP export writes it as `gen_ai.response.finish_reasons`.
   */
  finishReasons?: readonly string[];
  /**
   * The run's or session's totals so far that this line also records (Codex `total_token_usage`): the last
   * one of a group is checked against the rollup, like a totals line.
   */
  runningTotals?: TokenCounts;
  /** The model, for a totals line that records usage per model (Claude Code `modelUsage`). */
  byModel?: Record<string, ModelUsageDraft>;
  /**
   * The event records a retry: another attempt of work that failed (agentledger `step_retry_scheduled`,
   * murmur `harness_retry`). Kept in this sparse side table with the call facts the statistics read. The
   * retry counts for the event's tool or model when it names one.
   */
  retry?: RetryDraft;
  /**
   * The event is a compaction point: the conversation before it was replaced by a summary (Claude Code
   * `system`/`compact_boundary`, Codex `compacted`). The context split of the model calls (`usage/contextSplit.ts`)
   * marks it between the calls around it.
   */
  compaction?: CompactionDraft;
}

/** A compaction point an event records. */
export interface CompactionDraft {
  /** The context's size in tokens before the compaction, when the writer records it (Claude Code `compactMetadata.preTokens`). */
  preTokens: number | null;
  /** What started it, when recorded (`auto`, `manual`). */
  trigger: string | null;
}

/** A retry an event records. */
export interface RetryDraft {
  /** The attempt it starts or schedules, when the record says (1-based as the writer counts). */
  attempt: number | null;
}

/** A totals line's usage of one model. */
export interface ModelUsageDraft {
  input?: number | null;
  output?: number | null;
  cacheRead?: number | null;
  cacheWrite?: number | null;
  costUsd?: number | null;
}

/** Token counts by field; null or absent: not reported. */
export type TokenCounts = { [F in TokenField]?: number | null };
