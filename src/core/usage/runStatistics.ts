import type { TraceModel } from '../traceModel';
import type { ModelPrice } from './prices';
import { UsageRollup, usageRollupOf } from './rollup';
import { percentile, toolCallsOf } from './toolStats';
import { priceLookup } from './usageReport';
import type { HistogramBin, LatencyRow, RunStatistics, StatEvent } from './statisticsTypes';

export type { HistogramBin, LatencyRow, RunStatistics, StatEvent } from './statisticsTypes';

/** Latency rows; `counts` gives a name's calls where some have no duration (tools: every call is counted). */
function latency(groups: Map<string, number[]>, counts?: ReadonlyMap<string, number>): LatencyRow[] {
  const names = new Set([...(counts?.keys() ?? []), ...groups.keys()]);
  return [...names].map((name) => {
    const d = Float64Array.from(groups.get(name) ?? []).sort();
    return { name, count: counts?.get(name) ?? d.length, p50Ms: percentile(d, 50), p95Ms: percentile(d, 95), maxMs: d.length ? d[d.length - 1] : null };
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

/**
 * The `k` best of a stream by `before` (true: a goes first), ties kept in arrival order: a run's 100k model
 * calls need 10 rows, not a sort of all of them.
 */
class Top<T> {
  readonly items: T[] = [];
  constructor(private readonly k: number, private readonly before: (a: T, b: T) => boolean) {}

  /** Offers a candidate; `make` builds it only when it enters the list. */
  offer(probe: T, make: () => T = () => probe): void {
    const items = this.items;
    if (this.k <= 0) return;
    if (items.length === this.k && !this.before(probe, items[items.length - 1])) return;
    let at = items.length;
    while (at > 0 && this.before(probe, items[at - 1])) at--;
    items.splice(at, 0, make());
    if (items.length > this.k) items.pop();
  }
}

/**
 * The run statistics: the `top` slowest tool calls and most expensive model calls, latency percentiles per tool
 * and per model, error and warning counts and a duration histogram. Tool calls are those of `toolCallsOf`, as in
 * the usage report; a tool's latency row counts all its calls, its percentiles those with a duration.
 */
export function runStatistics(model: TraceModel, prices: Readonly<Record<string, ModelPrice>> = {}, top = 10, rollup: UsageRollup = usageRollupOf(model)): RunStatistics {
  const t = model.events;
  const byTool = new Map<string, number[]>();
  const byModel = new Map<string, number[]>();
  const durations: number[] = [];
  const toolCalls = new Top<StatEvent>(top, (a, b) => a.durationMs! > b.durationMs!);
  let errors = 0;
  let warnings = 0;
  for (let i = 0, end = t.size; i < end; i++) {
    const status = t.statusOf(i);
    if (status === 'error') errors++;
    else if (status === 'warning') warnings++;
  }
  const toolCounts = new Map<string, number>();
  for (const c of toolCallsOf(t, rollup).calls) {
    const { index, tool, durationMs: d } = c;
    toolCounts.set(tool, (toolCounts.get(tool) ?? 0) + 1);
    if (d !== d) continue;
    push(byTool, tool, d);
    durations.push(d);
    toolCalls.offer({ index, line: 0, name: tool, durationMs: d, tokens: null, costUsd: null }, () => ({ index, line: t.lineOf(index), name: tool, durationMs: d, tokens: null, costUsd: null }));
  }
  const price = priceLookup(prices);
  const modelCalls = new Top<StatEvent>(top, (a, b) => (a.costUsd ?? -1) > (b.costUsd ?? -1) || ((a.costUsd ?? -1) === (b.costUsd ?? -1) && (a.tokens ?? 0) > (b.tokens ?? 0)));
  for (const i of rollup.countedIndex) {
    const u = rollup.usage;
    const own = rollup.modelOf(i);
    const name = own ?? '(unknown model)';
    const d = t.durationOf(i);
    const call: StatEvent = { index: i, line: 0, name, durationMs: d === d ? d : null, tokens: (u.field(i, 'input') ?? 0) + (u.field(i, 'output') ?? 0), costUsd: u.costAt(i, price(own)) };
    modelCalls.offer(call, () => ({ ...call, line: t.lineOf(i) }));
    if (d === d) push(byModel, name, d), durations.push(d);
  }
  return {
    slowestToolCalls: toolCalls.items, mostExpensiveCalls: modelCalls.items,
    latencyByTool: latency(byTool, toolCounts), latencyByModel: latency(byModel), errors, warnings, histogram: durationHistogram(durations),
  };
}
