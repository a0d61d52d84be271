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

/** Counts and B − A totals of a diff (durations from each run's time span, tokens from its totals). */
export interface DiffSummary {
  equal: number;
  inserted: number;
  deleted: number;
  changed: number;
  durationDeltaMs: number | null;
  tokensDelta: number | null;
  costDeltaUsd: number | null;
}
