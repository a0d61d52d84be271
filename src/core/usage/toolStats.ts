import type { UsageRow } from './rollup';

/** One tool's calls, as `summary --json` reports them. */
export interface ToolUsage {
  tool: string;
  calls: number;
  errors: number;
  /** Sum of the calls' durations that are known; null when none is. */
  durationMs: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
}

/** The nearest-rank percentile `p` (0..100) of sorted numbers, null for none. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/**
 * Tool calls grouped by tool, most called first. A call is a tool-category event with a tool name; a tool event
 * under an event of the same tool (its result, its progress) is part of that call, and its error is the call's.
 */
export function toolUsage(rows: readonly UsageRow[]): ToolUsage[] {
  const by = new Map<string, { calls: number; errors: Set<number>; durations: number[] }>();
  const timed = new Set<number>();
  for (const r of rows) {
    if (r.category !== 'tool' || r.tool === null) continue;
    const call = callOf(rows, r);
    let s = by.get(r.tool);
    if (!s) by.set(r.tool, (s = { calls: 0, errors: new Set(), durations: [] }));
    if (call === r) s.calls++;
    // The call's duration, else the first of its parts that has one (a result line that measured it).
    if (r.durationMs !== null && !timed.has(call.index)) timed.add(call.index), s.durations.push(r.durationMs);
    if (r.status === 'error') s.errors.add(call.index);
  }
  return [...by].map(([tool, s]) => {
    const d = s.durations.sort((a, b) => a - b);
    return { tool, calls: s.calls, errors: s.errors.size, durationMs: d.length > 0 ? d.reduce((a, b) => a + b, 0) : null, p50Ms: percentile(d, 50), p95Ms: percentile(d, 95) };
  }).sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool));
}

/** The call a tool event belongs to: the topmost chain of tool ancestors with the same tool. */
function callOf(rows: readonly UsageRow[], r: UsageRow): UsageRow {
  let c = r;
  while (c.parent >= 0 && rows[c.parent].category === 'tool' && rows[c.parent].tool === r.tool) c = rows[c.parent];
  return c;
}
