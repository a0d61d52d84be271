/**
 * The shapes of the run statistics (issue 16 item 4), in a leaf file that imports nothing: the webview's
 * messages name them (`src/protocol/timeline.ts`), and the webview's build cannot type-check
 * the node-only files `runStatistics.ts` imports.
 */

/** One event a statistics row jumps to. */
export interface StatEvent {
  index: number;
  line: number;
  name: string;
  durationMs: number | null;
  tokens: number | null;
  costUsd: number | null;
}

/** Latency of one tool or model, from the events that have a duration. */
export interface LatencyRow {
  name: string;
  count: number;
  p50Ms: number | null;
  p95Ms: number | null;
  maxMs: number | null;
}

/** One bar of the duration histogram: events whose duration is in [fromMs, toMs). */
export interface HistogramBin {
  fromMs: number;
  toMs: number;
  count: number;
}

/** The facts of the run statistics panel, pure and vscode-free. */
export interface RunStatistics {
  slowestToolCalls: StatEvent[];
  /** Counted model calls by cost, or by tokens where unpriced (cost null). */
  mostExpensiveCalls: StatEvent[];
  latencyByTool: LatencyRow[];
  latencyByModel: LatencyRow[];
  errors: number;
  warnings: number;
  /** Durations of tool calls and model calls, in power-of-two millisecond bins (1, 2, 4 … ms). */
  histogram: HistogramBin[];
}
