import type { TraceModel } from '../traceModel';
import { UsageRollup, usageRollupOf, UsageRow } from './rollup';
import { Tally } from './tally';
import { TOKEN_FIELDS, TokenCounts, TokenField } from '../usageTypes';

/** A place where the file's own totals disagree with what its events add up to. */
export interface UsageMismatch {
  /** 1-based line of the totals line or aggregate. */
  line: number;
  index: number;
  message: string;
}

const NAMES: Record<TokenField, string> = { input: 'input', output: 'output', cacheRead: 'cache-read', cacheWrite: 'cache-write', reasoning: 'reasoning' };

/** Field-by-field differences between what the events sum to and what a line records, where both report the field. */
function differences(sum: Tally, recorded: TokenCounts): string[] {
  const out: string[] = [];
  for (const f of TOKEN_FIELDS) {
    const r = recorded[f];
    const s = sum[f];
    if (r !== null && r !== undefined && s !== null && s !== r) out.push(`${s.toLocaleString('en-US')} ${NAMES[f]} tokens (it records ${r.toLocaleString('en-US')})`);
  }
  // A total without the input/output split (deepstrike's total_tokens) is not compared: writers count it
  // differently (context sizes, budgets), so it is shown, never checked.
  return out;
}

/**
 * Compares the rollup with the file's own totals: each group's totals lines (summed) and its last running total
 * against the sum of the group's counted records, and each aggregate that did not count against its children.
 * Only fields both sides report are compared; a difference is a fact to look at (a lost line, a writer that
 * counts differently), never an error.
 */
export function usageMismatches(model: TraceModel, rollup: UsageRollup = usageRollupOf(model)): UsageMismatch[] {
  const out: UsageMismatch[] = [];
  const sums = new Map<string | null, Tally>();
  for (const i of rollup.countedIndex) {
    const group = model.events.groupOf(i);
    let t = sums.get(group);
    if (!t) sums.set(group, (t = new Tally()));
    rollup.usage.addTo(t, i);
  }
  const byGroup = new Map<string | null, { lines: UsageRow[]; running: UsageRow | null }>();
  for (const r of rollup.totalsLines) {
    let g = byGroup.get(r.group);
    if (!g) byGroup.set(r.group, (g = { lines: [], running: null }));
    if (r.usage!.source === 'totals') g.lines.push(r);
    if (r.usage!.runningTotals) g.running = r;
  }
  for (const [group, g] of byGroup) {
    const sum = sums.get(group);
    if (!sum) continue;
    const where = group ? ` of ${group}` : '';
    if (g.lines.length > 0) {
      const recorded = new Tally();
      for (const l of g.lines) recorded.add(l.usage!.counts);
      const diff = differences(sum, recorded);
      const last = g.lines[g.lines.length - 1];
      if (diff.length > 0) out.push({ line: last.line, index: last.index, message: `The events${where} add up to ${diff.join(', ')} on ${g.lines.length === 1 ? 'this totals line' : `its ${g.lines.length} totals lines`}.` });
    }
    if (g.running) {
      const diff = differences(sum, g.running.usage!.runningTotals!);
      if (diff.length > 0) out.push({ line: g.running.line, index: g.running.index, message: `The events${where} add up to ${diff.join(', ')} in this line's running totals.` });
    }
  }
  for (const s of rollup.shadowed) {
    const diff = differences(s.children, s.row.usage!.counts);
    if (diff.length > 0) out.push({ line: s.row.line, index: s.row.index, message: `The events this aggregate sums add up to ${diff.join(', ')}; the rollups count the events, not the aggregate.` });
  }
  return out.sort((a, b) => a.line - b.line);
}
