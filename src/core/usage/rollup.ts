import type { TraceModel } from '../traceModel';
import type { EventCategory, EventStatus } from '../model';
import { EventUsage, usageElsewhere } from './eventUsage';
import { UsageColumns, UsageKind } from './usageColumns';
import { settleUsage } from './rollupPass';
import { Tally } from './tally';
import { keepShape } from '../keepShape';
import { EventTable } from '../eventTable';

/** The facts of one event the rollups read (made on request from the rollup's columns). */
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

/**
 * What a pass over the model finds: every event's usage and which records count. The per-event facts are
 * columns (one array per fact, indexed by event); the row objects below are made only when asked for, since
 * one object per event cost more than the rest of the pass (issue 16: rollups under 10% of the load).
 */
export interface UsageRollup {
  /** Each event's usage record, as numbers (`usageOf(i)` for the object). */
  readonly usage: UsageColumns;
  /**
   * Each event's model, inherited from its group as in {@link UsageRow.model}. (Its tool and duration are the
   * table's `toolOf` and `durationOf`: copies of them were 15 MB at a million events, kept with the model.)
   */
  modelOf(i: number): string | null;
  /** Events whose usage counts, in file order (see {@link counted}). */
  readonly countedIndex: Int32Array;
  /** Events that record a retry (an adapter's `usage.retry`), in file order. */
  readonly retryIndex: Int32Array;
  /** 1 where the event's usage counts. */
  readonly isCounted: Uint8Array;
  /** Aggregates that did not count because their children did, with their children's sum (for the check; made on first use). */
  readonly shadowed: readonly { row: UsageRow; children: Tally }[];
  /** How many aggregates {@link shadowed} holds (without making their rows). */
  readonly shadowedCount: number;
  /** Model calls (inference events) that report no usage and are not covered by a counted aggregate. */
  readonly unreported: number;
  /** Event i's row. */
  rowOf(i: number): UsageRow;
  /** Every event's row, in file order (made on first use). */
  readonly rows: readonly UsageRow[];
  /**
   * Rows whose usage counts, in file order. An event's own usage always counts; an aggregate counts only when
   * nothing in the subtree it sums counted (so it never adds to its children's numbers); totals lines never
   * count (they check the sum).
   */
  readonly counted: readonly UsageRow[];
  /** Totals lines and running totals, in file order. */
  readonly totalsLines: readonly UsageRow[];
  /** The events of {@link totalsLines}. */
  readonly totalsIndex: Int32Array;
  /**
   * The inclusive tally of event i's subtree (the counted records in it; a closing aggregate such as murmur
   * `task_end` counts for its parent's subtree), or null when nothing in it counted. Exclusive: `usage[i]`.
   */
  inclusiveOf(i: number): Tally | null;
}

const rollups = new WeakMap<TraceModel, { size: number; rollup: UsageRollup }>();

/**
 * The model's rollup, computed on first request and shared by everyone who asks (the summary, the header, the
 * statistics tab and the totals check each used to run their own). A model whose table grew since is rolled
 * up again.
 */
export function usageRollupOf(model: TraceModel): UsageRollup {
  const hit = rollups.get(model);
  if (hit && hit.size === model.events.size) return hit.rollup;
  const rollup = rollUp(model);
  rollups.set(model, { size: model.events.size, rollup });
  return rollup;
}

/** Reads every event's usage and decides, bottom-up over the tree, which records count. Linear, no recursion. */
export function rollUp(model: TraceModel): UsageRollup {
  const t = model.events;
  const n = t.size;
  const models = inheritedModels(model);
  const usage = new UsageColumns(t, models);
  const isCounted = new Uint8Array(n);
  const shadowedAt: { index: number; children: Tally }[] = [];
  settleUsage(model.tree, usage, isCounted, shadowedAt);
  // A session read with its parts (TraceModel.parts): the main file's own usage; each part's is its own model's,
  // added once by core/sessionUsage.ts as for a session read without them.
  const own = model.parts ? (i: number) => t.partOf(i) === 0 : null;
  if (own) for (let i = 0; i < n; i++) if (!own(i)) isCounted[i] = 0;
  let counted = 0;
  for (let i = 0; i < n; i++) counted += isCounted[i];
  const countedIndex = new Int32Array(counted);
  for (let i = 0, k = 0; i < n; i++) if (isCounted[i]) countedIndex[k++] = i;
  const covered = coveredEvents(model, usage, countedIndex);
  let unreported = 0;
  for (let i = 0; i < n; i++) {
    if (!usage.has(i) && covered[i] === 0 && t.categoryOf(i) === 'inference' && !usageElsewhere(t, i) && (!own || own(i))) unreported++;
  }
  return new Rollup(model, usage, models, isCounted, countedIndex, shadowedAt, unreported);
}

/**
 * Each event's model as a number into a list of the trace's model names: a byte an event while the trace names at
 * most 255 models (two, then four, past that), and nothing while no event has one (a lumen run).
 */
export class ModelColumn {
  private readonly names: (string | null)[] = [null];
  private readonly refs = new Map<string, number>();
  private ids: Uint8Array | Uint16Array | Int32Array | null = null;

  constructor(private readonly n: number) {}

  set(i: number, name: string | null): void {
    if (name === null) return;
    let ref = this.refs.get(name);
    if (ref === undefined) this.refs.set(name, (ref = this.names.push(name) - 1));
    if (this.ids === null) this.ids = new Uint8Array(this.n);
    if (ref > 0xff && this.ids instanceof Uint8Array) this.ids = Uint16Array.from(this.ids);
    if (ref > 0xffff && this.ids instanceof Uint16Array) this.ids = Int32Array.from(this.ids);
    this.ids[i] = ref;
  }

  get(i: number): string | null {
    return this.ids === null ? null : this.names[this.ids[i]];
  }
}

function inheritedModels(model: TraceModel): ModelColumn {
  const t = model.events;
  const out = new ModelColumn(t.size);
  const lastModel = new Map<string | null, string>();
  // Events come in runs of one group: remember the last group's model instead of asking the map each time.
  let group: string | null | undefined;
  let groupModel: string | null = null;
  for (let i = 0, end = t.size; i < end; i++) {
    // Column reads, not t.get(i): materializing every event (labels, mentions) cost more than the load's parse.
    const g = t.groupOf(i);
    const own = t.modelOf(i);
    if (g !== group) (group = g), (groupModel = lastModel.get(g) ?? null);
    if (own !== null && own !== groupModel) lastModel.set(g, own), (groupModel = own);
    out.set(i, own ?? groupModel);
  }
  return out;
}

/** Events below a counted aggregate: their model calls are counted there. */
function coveredEvents(model: TraceModel, usage: UsageColumns, countedIndex: Int32Array): Uint8Array {
  const covered = new Uint8Array(model.events.size);
  for (const r of countedIndex) {
    const kind = usage.kindOf(r);
    if (kind !== UsageKind.AggregateSelf && kind !== UsageKind.AggregateParent) continue;
    const top = kind === UsageKind.AggregateParent ? model.events.parent(r) : r;
    if (top < 0) continue;
    const stack = [top];
    while (stack.length > 0) {
      const i = stack.pop()!;
      covered[i] = 1;
      for (const k of model.tree.children(i)) stack.push(k);
    }
  }
  return covered;
}

class Rollup implements UsageRollup {
  private rowCache: UsageRow[] | null = null;
  private shadowedCache: { row: UsageRow; children: Tally }[] | null = null;
  private totalsIndexCache: Int32Array | null = null;
  private countedCache: UsageRow[] | null = null;
  private totalsCache: UsageRow[] | null = null;

  readonly retryIndex: Int32Array;

  constructor(
    private readonly m: TraceModel,
    readonly usage: UsageColumns,
    private readonly models: ModelColumn,
    readonly isCounted: Uint8Array,
    readonly countedIndex: Int32Array,
    private readonly shadowedAt: { index: number; children: Tally }[],
    readonly unreported: number,
  ) {
    this.retryIndex = Int32Array.from(usage.retries);
  }

  get shadowed(): readonly { row: UsageRow; children: Tally }[] {
    // Only the totals check reads them: the report does not pay for a row per shadowed aggregate (murmur's
    // task_end, OTLP's agent spans: thousands of rows, and compiling the row code, for nothing).
    return (this.shadowedCache ??= this.shadowedAt.map((s) => ({ row: this.rowOf(s.index), children: s.children })));
  }

  get shadowedCount(): number {
    return this.shadowedAt.length;
  }

  modelOf(i: number): string | null {
    return this.models.get(i);
  }

  rowOf(i: number): UsageRow {
    if (this.rowCache) return this.rowCache[i];
    const t = this.m.events;
    const d = t.durationOf(i);
    return {
      index: i, line: t.lineOf(i), parent: t.parent(i), category: t.categoryOf(i), status: t.statusOf(i), group: t.groupOf(i), tool: t.toolOf(i),
      durationMs: d === d ? d : null, model: this.models.get(i), usage: this.usage.usageOf(i), counted: this.isCounted[i] === 1,
    };
  }

  get rows(): readonly UsageRow[] {
    if (!this.rowCache) {
      const rows: UsageRow[] = new Array(this.m.events.size);
      for (let i = 0; i < rows.length; i++) rows[i] = this.rowOf(i);
      this.rowCache = rows;
    }
    return this.rowCache;
  }

  get counted(): readonly UsageRow[] {
    return (this.countedCache ??= Array.from(this.countedIndex, (i) => this.rowOf(i)));
  }

  get totalsIndex(): Int32Array {
    if (!this.totalsIndexCache) {
      const out: number[] = [];
      for (let i = 0, end = this.m.events.size; i < end; i++) if (this.usage.isTotalsOf(i)) out.push(i);
      this.totalsIndexCache = Int32Array.from(out);
    }
    return this.totalsIndexCache;
  }

  get totalsLines(): readonly UsageRow[] {
    return (this.totalsCache ??= Array.from(this.totalsIndex, (i) => this.rowOf(i)));
  }

  inclusiveOf(i: number): Tally | null {
    const sum = new Tally();
    const stack = [i];
    while (stack.length > 0) {
      const j = stack.pop()!;
      // A closing aggregate sums its parent's subtree: it belongs to its parent's tally, not its own.
      if (this.isCounted[j] && !(j === i && this.usage.kindOf(j) === UsageKind.AggregateParent)) this.usage.addTo(sum, j);
      for (const k of this.m.tree.children(j)) stack.push(k);
    }
    return sum.any() ? sum : null;
  }
}

// Made for every rollup: their maps are kept (see keepShape).
keepShape(new ModelColumn(0));
keepShape(new Rollup(null as never, new UsageColumns(new EventTable(), new ModelColumn(0)), new ModelColumn(0), new Uint8Array(0), new Int32Array(0), [], 0));
