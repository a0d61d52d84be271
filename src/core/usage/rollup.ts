import type { TraceModel } from '../traceModel';
import type { EventCategory, EventStatus } from '../model';
import { EventUsage, eventUsage, usageElsewhere } from './eventUsage';
import { Tally } from './tally';

/** The facts of one event the rollups read, taken from the table once. */
export interface UsageRow {
  index: number;
  line: number;
  parent: number;
  category: EventCategory;
  status: EventStatus;
  group: string | null;
  tool: string | null;
  durationMs: number | null;
  /** The event's model, else the model its group last named above it (a call inherits its run's model). */
  model: string | null;
  usage: EventUsage | null;
  /** The record's tokens count in the rollups (see {@link UsageRollup.counted}). */
  counted: boolean;
}

/** What a pass over the model finds: every event's usage and which records count. */
export interface UsageRollup {
  rows: UsageRow[];
  /**
   * Rows whose usage counts, in file order. An event's own usage always counts; an aggregate counts only when
   * nothing in the subtree it sums counted (so it never adds to its children's numbers); totals lines never
   * count (they check the sum).
   */
  counted: UsageRow[];
  /** Inclusive tallies of events whose subtree counted something (exclusive = the event's own usage). */
  inclusive: Map<number, Tally>;
  /** Aggregates that did not count because their children did, with their children's sum (for the check). */
  shadowed: { row: UsageRow; children: Tally }[];
  /** Totals lines and running totals, by group. */
  totalsLines: UsageRow[];
  /** Model calls (inference events) that report no usage and are not covered by a counted aggregate. */
  unreported: number;
}

/** Reads every event's usage and decides, bottom-up over the tree, which records count. Linear, no recursion. */
export function rollUp(model: TraceModel): UsageRollup {
  const rows = readRows(model);
  const inclusive = new Map<number, Tally>();
  const shadowed: UsageRollup['shadowed'] = [];
  const coveredBy = new Int32Array(rows.length).fill(-1);
  for (const i of postOrder(model)) settle(model, rows, i, inclusive, shadowed);
  const counted = rows.filter((r) => r.counted);
  markCovered(model, rows, coveredBy);
  let unreported = 0;
  for (const r of rows) {
    if (r.category === 'inference' && !r.usage && coveredBy[r.index] < 0 && !usageElsewhere(model.events, r.index)) unreported++;
  }
  return { rows, counted, inclusive, shadowed, totalsLines: rows.filter((r) => r.usage?.source === 'totals' || r.usage?.runningTotals), unreported };
}

function readRows(model: TraceModel): UsageRow[] {
  const t = model.events;
  const lastModel = new Map<string | null, string>();
  const rows: UsageRow[] = new Array(t.size);
  for (let i = 0; i < t.size; i++) {
    // Column reads, not t.get(i): materializing every event (labels, mentions) cost more than the load's parse.
    const c = t.usageColumnsOf(i);
    const group = t.groupOf(i);
    if (c.model !== null) lastModel.set(group, c.model);
    const usage = eventUsage(t, i, c.tokensIn, c.tokensOut);
    rows[i] = {
      index: i, line: t.lineOf(i), parent: t.parent(i), category: t.categoryOf(i), status: t.statusOf(i), group, tool: c.tool, durationMs: c.durationMs,
      model: c.model ?? lastModel.get(group) ?? null, usage, counted: false,
    };
    if (usage) usage.model = rows[i].model;
  }
  return rows;
}

/** Children before parents: the reverse of an iterative pre-order walk. */
function postOrder(model: TraceModel): number[] {
  const pre: number[] = [];
  const stack: number[] = Array.from(model.tree.roots).reverse();
  while (stack.length > 0) {
    const i = stack.pop()!;
    pre.push(i);
    const kids = model.tree.children(i);
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
  }
  return pre.reverse();
}

/** Decides event i's inclusive tally from its own usage and its children's (already settled). */
function settle(model: TraceModel, rows: UsageRow[], i: number, inclusive: Map<number, Tally>, shadowed: UsageRollup['shadowed']): void {
  const kids = model.tree.children(i);
  let sum: Tally | null = null;
  const closing: UsageRow[] = [];
  for (const k of kids) {
    const ku = rows[k].usage;
    if (ku?.source === 'aggregate' && ku.covers === 'parent') closing.push(rows[k]);
    const kt = inclusive.get(k);
    if (kt) (sum ??= new Tally()).add(kt);
  }
  const row = rows[i];
  const u = row.usage;
  let own: Tally | null = sum;
  if (u?.source === 'event') {
    row.counted = true;
    own = (sum ?? new Tally()).add(u.counts);
  } else if (u?.source === 'aggregate' && u.covers === 'self') {
    if (sum?.any()) shadowed.push({ row, children: sum });
    else (row.counted = true), (own = new Tally().add(u.counts));
  }
  for (const c of closing) {
    if (own?.any()) shadowed.push({ row: c, children: own });
    else (c.counted = true), (own = new Tally().add(c.usage!.counts));
  }
  if (own?.any()) inclusive.set(i, own);
}

/** Marks every event below a counted aggregate as covered: its model calls are counted there. */
function markCovered(model: TraceModel, rows: UsageRow[], coveredBy: Int32Array): void {
  for (const r of rows) {
    if (!r.counted || r.usage?.source !== 'aggregate') continue;
    const top = r.usage.covers === 'parent' ? r.parent : r.index;
    if (top < 0) continue;
    const stack = [top];
    while (stack.length > 0) {
      const i = stack.pop()!;
      coveredBy[i] = r.index;
      for (const k of model.tree.children(i)) stack.push(k);
    }
  }
}
