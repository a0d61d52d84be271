import type { EventTable } from '../eventTable';
import type { UsageRollup } from './rollup';

/** One tool's calls, as `summary --json` reports them. */
export interface ToolUsage {
  tool: string;
  calls: number;
  errors: number;
  /** Sum of the calls' durations that are known; null when none is. */
  durationMs: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  /** Retries of this tool (see `retryCounts`: recorded by the trace, or inferred where it records none). */
  retries: number;
}

/** The nearest-rank percentile `p` (0..100) of sorted numbers, null for none. */
export function percentile(sorted: ArrayLike<number>, p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/**
 * Tool calls grouped by tool, most called first. A call is a tool-category event with a tool name; a tool event
 * under an event of the same tool (its result, its progress) is part of that call, and its error is the call's.
 */
export function toolUsage(t: EventTable, rollup: UsageRollup, retries: ReadonlyMap<string, number> = new Map()): ToolUsage[] {
  const by = new Map<string, { calls: number; errors: Set<number>; durations: number[] }>();
  const timed = new Set<number>();
  for (let i = 0; i < t.size; i++) {
    const tool = rollup.tool[i];
    if (tool === null || t.categoryOf(i) !== 'tool') continue;
    const call = toolCallOf(t, rollup, i);
    let s = by.get(tool);
    if (!s) by.set(tool, (s = { calls: 0, errors: new Set(), durations: [] }));
    if (call === i) s.calls++;
    // The call's duration, else the first of its parts that has one (a result line that measured it).
    const d = rollup.durationMs[i];
    if (d === d && !timed.has(call)) timed.add(call), s.durations.push(d);
    if (t.statusOf(i) === 'error') s.errors.add(call);
  }
  return [...by].map(([tool, s]) => {
    // A typed array sorts numbers natively, several times faster than a comparator over a plain array.
    const d = Float64Array.from(s.durations).sort();
    return { tool, calls: s.calls, errors: s.errors.size, durationMs: d.length > 0 ? d.reduce((a, b) => a + b, 0) : null, p50Ms: percentile(d, 50), p95Ms: percentile(d, 95), retries: retries.get(tool) ?? 0 };
  }).sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool));
}

/** The call tool event i belongs to: the topmost chain of tool ancestors with the same tool. */
export function toolCallOf(t: EventTable, rollup: UsageRollup, i: number): number {
  const tool = rollup.tool[i];
  let c = i;
  for (let p = t.parent(c); p >= 0 && t.categoryOf(p) === 'tool' && rollup.tool[p] === tool; p = t.parent(c)) c = p;
  return c;
}
