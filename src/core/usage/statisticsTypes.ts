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

/**
 * The rates a model's cost used, in US dollars per million tokens (issue 37 item 2). Null: the price does not know
 * the rate, and records that need it stay unpriced.
 */
export interface RatesUsed {
  input: number;
  cacheRead: number | null;
  /** 5-minute cache writes. */
  cacheWrite: number | null;
  cacheWrite1h: number | null;
  output: number;
  reasoning: number;
  /** Some rate depends on the prompt's size: shown at the model's last call. */
  tiered: boolean;
  /** Periods of the price (more than one: the rate changed over time; shown at the model's last call). */
  periods: number;
}

/** What the Statistics tab shows beside a model's usage totals. */
export interface ModelRates {
  /** The part of the cache writes written to the 1-hour cache, when the trace records it (null: it does not). */
  cacheWrite1hTokens: number | null;
  /** The price the cost used: the user's setting or the bundled table, the entry that matched, its rates; null: none. */
  price: { from: 'user' | 'bundled'; entry: string; rates: RatesUsed } | null;
  /** Share of the model's tokens (input + output) whose cost is unknown, 0..1; null when it reports none. */
  unpricedShare: number | null;
}
