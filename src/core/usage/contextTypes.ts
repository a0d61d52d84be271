/**
 * The shapes of the context split (`contextSplit.ts`), in a leaf file that imports nothing: the detail message
 * names them (`src/protocol/types.ts`), and the webview's build cannot type-check the files the split imports.
 */

/** A compaction point (an event whose usage facts record `compaction`). */
export interface CompactionPoint {
  index: number;
  line: number;
  thread: string | null;
  /** The tool call whose subagent thread it is in, -1 for the main thread. */
  via: number;
  /** The context's size before the compaction, when the writer records it. */
  preTokens: number | null;
  trigger: string | null;
}

/** One model call's context. */
export interface ContextCall {
  /** The event whose usage is the call's (Claude Code: the response's first line; Codex: its `token_count`). */
  index: number;
  line: number;
  /** The run or session group of the call. */
  thread: string | null;
  /**
   * The tool call whose subagent made the call (its nearest tool-call ancestor: Claude Code nests a subagent's
   * steps under its Agent call), -1 for the main thread. A thread is a group and this call.
   */
  via: number;
  /** Input tokens the model read: the whole context of the call. */
  total: number;
  /** Read from the prompt cache. */
  cacheRead: number;
  /** Written to the prompt cache by this call (both lifetimes). */
  cacheWrite: number;
  /** The part of `cacheWrite` written to the 1-hour cache, when the trace says (null: not recorded). */
  cacheWrite1h: number | null;
  /** Neither read from nor written to the cache: `total - cacheRead - cacheWrite`. */
  uncached: number;
  /** The cache fields are recorded for this call (false: only the total is known, the split is not). */
  split: boolean;
  /** `total` minus the previous call's of the same thread; null for a thread's first call. */
  delta: number | null;
  /** 1-based position among its thread's calls. */
  ordinal: number;
  /** Calls in its thread. */
  ofThread: number;
  /** Compactions of its thread between the previous call and this one (in file order). */
  compactedBefore: CompactionPoint[];
}

/** One thread's context over its calls, for a sparkline (the Statistics tab). */
export interface ContextSeries {
  /** The run or session group, and the tool call whose subagent it is (-1: the main thread). */
  thread: string | null;
  via: number;
  calls: number;
  /** The context of each call; past the point limit, each point is the largest of the calls it stands for. */
  points: number[];
  /** Points before which a compaction happened. */
  compactions: number[];
  /** The first call's context and the last's. */
  first: number;
  last: number;
  /** The largest context, and the event and line of its call. */
  peak: { total: number; index: number; line: number };
}
