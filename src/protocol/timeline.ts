/**
 * Messages of the Timeline and Statistics tabs (issue 16 items 1 and 4), in a file of their own so index.ts only
 * gains the union members.
 */
import type { ModelRates, RunStatistics } from '../core/usage/statisticsTypes';
import type { PriceSource } from '../core/usage/priceTypes';
import type { ContextSeries } from '../core/usage/contextTypes';

/** A slice of bars as sent to the webview: plain arrays (JSON-safe), labels only for the slice. */
export interface TimelineSlice {
  total: number;
  /** Epoch ms of the run's earliest start; the other times are ms after it. */
  t0: number;
  span: number;
  start: number;
  nodes: number[];
  starts: number[];
  /** -1 for an instant event. */
  durations: number[];
  depths: number[];
  /** 0 ok, 1 warning, 2 error. */
  status: number[];
  critical: number[];
  labels: string[];
  /** 1: a call whose result is not in the trace (its bar runs to the run's end). */
  open: number[];
  /** 0 other, 1 model call, 2 tool call. */
  kinds: number[];
  /** The session part (0: the main file, k: a subagent's file): the bar's lane. */
  lanes: number[];
  /** Bars under each one (its subtree): what collapsing it hides; 0: nothing to collapse. */
  sizes: number[];
  /** 1: collapsed (its subtree is not in the rows). */
  collapsed: number[];
  /** Model, tokens, cost and duration, as far as the bar has them ("claude-opus 5.0k→68 tokens · $0.03 · 1.2 s"). */
  facts: string[];
  /** Bars the viewer's filter hides. */
  hidden: number;
  /** Bookkeeping lines not drawn as rows, by kind (Claude Code's progress, attachments…). */
  bookkeeping: { kind: string; count: number }[];
  /** Result lines drawn as part of their call's bar. */
  folded: number;
  /** Whether the run has a critical path worth marking (two branches ran at once somewhere). */
  anyCritical: boolean;
}

/** The run statistics as sent: core/usage's RunStatistics plus the usage report's totals per model and tool. */
export interface StatisticsData extends RunStatistics {
  /** Totals per model and per tool from the usage report; `first` is the event a row jumps to (-1: none). */
  byModel: ({
    model: string; calls: number; inputTokens: number | null; outputTokens: number | null; costUsd: number | null; retries: number; first: number;
    /** Input read from and written to the prompt cache (parts of `inputTokens`), and reasoning (a part of output, or apart: Gemini). */
    cacheReadTokens: number | null; cacheWriteTokens: number | null; reasoningTokens: number | null;
    /** Where the cost came from: recorded by the trace, computed from a price (`table`), both, or null: unpriced. */
    costSource: 'trace' | 'table' | 'mixed' | null;
    /** Why some of the model's tokens are unpriced (the usage report's `unpriced`), null when all are priced. */
    unpricedReason: string | null;
  } & ModelRates)[];
  /** Share of the counted tokens whose cost is known, 0..1 (the usage report's `priced`); null: no tokens. */
  priced: number | null;
  /** Where the bundled prices come from and their date. */
  priceSource: PriceSource;
  /** The setting users add prices in (its id in package.json). */
  pricingSetting: string;
  /** Each thread's context over its model calls (core/usage/contextSplit.ts), for the context sparklines. */
  context: ContextSeries[];
  byTool: { tool: string; calls: number; errors: number; retries: number; durationMs: number | null; first: number }[];
  /** Retries in the run: recorded by the trace, or inferred where it records none (core/usage/retries.ts). */
  retries: { total: number; source: 'recorded' | 'inferred' };
  /**
   * The session's files when it has more than this one (Claude Code subagents): the models and tools above are then
   * the session's, each response once; each file's share here, with where the cost comes from. Absent: one file.
   */
  session?: { files: { name: string; role: 'session' | 'subagent' | 'compaction'; title: string | null; records: number; inputTokens: number | null; outputTokens: number | null; costUsd: number | null; costCoversSession: boolean; error: string | null }[]; cost: string; notes: string[] };
}

/** Webview → host: bars [start, start+count); with `node`, the page holding that event's bar instead. */
export interface RequestTimelineMessage {
  type: 'requestTimeline';
  requestId: number;
  start: number;
  count: number;
  node?: number | null;
  /** Also send the minimap density in this many buckets. */
  density?: number;
  /** Events whose bars are collapsed (their subtrees are not rows). */
  collapsed?: number[];
}

/** Host → webview: a slice of the timeline's bars. `focus` is the bar of the requested node, if it has one. */
export interface TimelineMessage {
  type: 'timeline';
  requestId: number;
  modelVersion: number;
  slice: TimelineSlice;
  focus: number | null;
  density: number[] | null;
}

/** Host → webview: the timeline's rows changed (the filter): the cached slices are stale. */
export interface TimelineResetMessage {
  type: 'timelineReset';
  modelVersion: number;
}

/** Webview → host: the run statistics, please. */
export interface RequestStatisticsMessage {
  type: 'requestStatistics';
}

/** Host → webview: the run statistics of the current model. */
export interface StatisticsMessage {
  type: 'statistics';
  modelVersion: number;
  stats: StatisticsData;
}
