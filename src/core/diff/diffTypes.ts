/**
 * The diff's plain data types, apart from the code: the compare view's protocol and the webview name them, and
 * this file imports nothing, so naming them pulls no Node module into the browser's type check.
 */

/** What happened to one event between the two runs. */
export type DiffOpKind = 'equal' | 'insert' | 'delete' | 'change';

/** A leaf value of an event's JSON. */
export type FlatValue = string | number | boolean | null;

/** One field that differs between two events; `a` or `b` is absent when that event has no such field. */
export interface FieldChange {
  path: string;
  a?: FlatValue;
  b?: FlatValue;
}

/**
 * When a duration or token count that differs between two paired events makes them a change: the difference is
 * at least the absolute amount and at least `ratio` of the larger value (a 2 ms jitter on a 5 ms call is not one,
 * a tool call 125 s slower is).
 */
export interface DiffThresholds {
  /** Least duration difference, in ms, that counts (default 1000). */
  durationMs: number;
  /** Least difference in tokens (input plus output) that counts (default 100). */
  tokens: number;
  /** Least difference as a fraction of the larger of the two values (default 0.1). */
  ratio: number;
}

export const DEFAULT_DIFF_THRESHOLDS: Readonly<DiffThresholds> = { durationMs: 1000, tokens: 100, ratio: 0.1 };

/** The paired events whose duration or tokens moved past the thresholds, and the sum of those moves (B − A). */
export interface ThresholdChanges {
  /** Events flagged for their duration. */
  duration: number;
  /** Sum of the flagged events' duration deltas. */
  durationDeltaMs: number;
  /** Events flagged for their tokens. */
  tokens: number;
  /** Sum of the flagged events' token deltas. */
  tokensDelta: number;
  /** The thresholds that were applied. */
  thresholds: DiffThresholds;
}

/** Counts and B − A totals of a diff (durations from each run's time span, tokens from its totals). */
export interface DiffSummary {
  equal: number;
  inserted: number;
  deleted: number;
  changed: number;
  durationDeltaMs: number | null;
  tokensDelta: number | null;
  costDeltaUsd: number | null;
  /** Added after the first release: the events that differ by their duration or tokens (see {@link DiffThresholds}). */
  thresholdChanges: ThresholdChanges;
}
