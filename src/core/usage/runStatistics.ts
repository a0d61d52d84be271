import type { TraceModel } from '../traceModel';
import { costOf } from './cost';
import { ModelPrice, priceOf } from './prices';
import { rollUp, UsageRollup, UsageRow } from './rollup';
import { percentile } from './toolStats';

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

/** The facts of the run statistics panel (issue 16 item 4), pure and vscode-free. */
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

function latency(groups: Map<string, number[]>): LatencyRow[] {
  return [...groups].map(([name, d]) => {
    d.sort((a, b) => a - b);
    return { name, count: d.length, p50Ms: percentile(d, 50), p95Ms: percentile(d, 95), maxMs: d.length ? d[d.length - 1] : null };
  }).sort((a, b) => (b.p95Ms ?? 0) - (a.p95Ms ?? 0) || a.name.localeCompare(b.name));
}

function push(map: Map<string, number[]>, key: string, v: number): void {
  const a = map.get(key);
  if (a) a.push(v);
  else map.set(key, [v]);
}

/** Power-of-two bins from the shortest to the longest duration; a zero duration falls in [0, 1). */
export function durationHistogram(durations: readonly number[]): HistogramBin[] {
  if (durations.length === 0) return [];
  const bin = (d: number): number => (d < 1 ? 0 : Math.floor(Math.log2(d)) + 1);
  const counts = new Map<number, number>();
  for (const d of durations) counts.set(bin(d), (counts.get(bin(d)) ?? 0) + 1);
  const top = Math.max(...counts.keys());
  const out: HistogramBin[] = [];
  for (let b = Math.min(...counts.keys()); b <= top; b++) out.push({ fromMs: b === 0 ? 0 : 2 ** (b - 1), toMs: 2 ** b, count: counts.get(b) ?? 0 });
  return out;
}

function callCost(r: UsageRow, prices: Readonly<Record<string, ModelPrice>>): number | null {
  const u = r.usage!;
  if (u.costUsd !== null) return u.costUsd;
  const price = r.model !== null ? priceOf(r.model, prices) : undefined;
  return price ? costOf(u.counts, price, u.reasoningApart) : null;
}

/**
 * The run statistics: the `top` slowest tool calls and most expensive model calls, latency percentiles per tool
 * and per model, error and warning counts and a duration histogram. Tool calls are counted as in the usage
 * report (a tool event under one of the same tool is part of it).
 */
export function runStatistics(model: TraceModel, prices: Readonly<Record<string, ModelPrice>> = {}, top = 10, rollup: UsageRollup = rollUp(model)): RunStatistics {
  const rows = rollup.rows;
  const byTool = new Map<string, number[]>();
  const byModel = new Map<string, number[]>();
  const durations: number[] = [];
  const toolCalls: StatEvent[] = [];
  let errors = 0;
  let warnings = 0;
  for (const r of rows) {
    if (r.status === 'error') errors++;
    else if (r.status === 'warning') warnings++;
    const isCall = r.category === 'tool' && r.tool !== null && !(r.parent >= 0 && rows[r.parent].category === 'tool' && rows[r.parent].tool === r.tool);
    if (isCall && r.durationMs !== null) {
      push(byTool, r.tool!, r.durationMs);
      durations.push(r.durationMs);
      toolCalls.push({ index: r.index, line: r.line, name: r.tool!, durationMs: r.durationMs, tokens: null, costUsd: null });
    }
  }
  const modelCalls: StatEvent[] = [];
  for (const r of rollup.counted) {
    const tokens = (r.usage!.counts.input ?? 0) + (r.usage!.counts.output ?? 0);
    modelCalls.push({ index: r.index, line: r.line, name: r.model ?? '(unknown model)', durationMs: r.durationMs, tokens, costUsd: callCost(r, prices) });
    if (r.durationMs !== null) push(byModel, r.model ?? '(unknown model)', r.durationMs), durations.push(r.durationMs);
  }
  toolCalls.sort((a, b) => b.durationMs! - a.durationMs! || a.index - b.index);
  modelCalls.sort((a, b) => (b.costUsd ?? -1) - (a.costUsd ?? -1) || (b.tokens ?? 0) - (a.tokens ?? 0) || a.index - b.index);
  return {
    slowestToolCalls: toolCalls.slice(0, top), mostExpensiveCalls: modelCalls.slice(0, top),
    latencyByTool: latency(byTool), latencyByModel: latency(byModel), errors, warnings, histogram: durationHistogram(durations),
  };
}
