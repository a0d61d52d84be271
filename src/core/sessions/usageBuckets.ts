/**
 * The shapes of `agent-trace usage --json` (core/sessions/usageOverTime.ts computes them), apart so that the usage
 * view's webview can name them without the catalog's imports. Imports nothing.
 */

/** The buckets of `agent-trace usage --by`. */
export const USAGE_BUCKETS = ['day', 'week', 'month', 'model', 'project', 'agent'] as const;
export type UsageBucketKind = (typeof USAGE_BUCKETS)[number];
/** What each bucket can be broken down by (`--split`, the chart's series). */
export const USAGE_SPLITS = ['model', 'project', 'agent'] as const;
export type UsageSplitKind = (typeof USAGE_SPLITS)[number];

/** Tokens and cost of the sessions in one bucket. */
export interface UsageBucket {
  /** `2026-12-01` (day, UTC), `2026-W49` (ISO week), `2026-12` (month), a model, project or agent name. */
  key: string;
  /** Sessions with usage (or, for a session with none, its start) in the bucket: one over midnight counts on both days. */
  sessions: number;
  inputTokens: number | null;
  outputTokens: number | null;
  /** The sum of the costs known; null when no session of the bucket has one. Never a missing cost counted as 0. */
  costUsd: number | null;
  /** Files of the sessions with tokens and no cost at all (unpriced models), so the cost is known to be short. */
  sessionsWithoutCost: string[];
  /** Files of the sessions only part of whose tokens are priced. */
  sessionsPartlyPriced: string[];
  /** Cache reads and writes (part of the input where the agent records them), null when no session records them. */
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
  /** With a split: the bucket broken down by model, project or agent (same fields), adding up to the bucket. */
  parts?: UsageBucket[];
}

/** `agent-trace usage --json`. */
export interface UsageOverTime {
  by: UsageBucketKind;
  /**
   * How a session is placed in time: `events`: each model call's usage in the day, week or month of its own time
   * (UTC), so a session that ran over midnight counts on both days; a session with no usage at all in the bucket of
   * its start. (It was `start` before: the whole session in its start's bucket.)
   */
  placedBy: 'events';
  /** What each bucket's `parts` break it down by, when asked (`--split`). */
  split?: UsageSplitKind;
  buckets: UsageBucket[];
  total: Omit<UsageBucket, 'key' | 'parts'>;
}

