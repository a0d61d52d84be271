import { EventTable } from '../eventTable';
import { EventUsage, eventUsage } from './eventUsage';
import { costOf, unpricedReason } from './cost';
import type { Price } from './priceTypes';
import type { Tally } from './tally';
import type { TokenCounts, TokenField, UsageDraft } from '../usageTypes';
import { keepShape } from '../keepShape';

/** What an event's usage record is, as {@link UsageColumns.kindOf} gives it. */
export const enum UsageKind {
  None = 0,
  /** `source: 'event'`: its own work. */
  Event = 1,
  /** An aggregate of its own subtree (`covers: 'self'`). */
  AggregateSelf = 2,
  /** A closing aggregate of its parent's subtree (`covers: 'parent'`). */
  AggregateParent = 3,
  /** A totals line of the file. */
  Totals = 4,
}

/** Slots of a record's numbers: the token fields, the recorded total, the recorded cost. NaN: not reported. */
const INPUT = 0, OUTPUT = 1, CACHE_READ = 2, CACHE_WRITE = 3, REASONING = 4, TOTAL = 5, COST = 6, CACHE_WRITE_1H = 7;
const STRIDE = 8;
const FIELD_SLOT: Record<TokenField, number> = { input: INPUT, output: OUTPUT, cacheRead: CACHE_READ, cacheWrite: CACHE_WRITE, reasoning: REASONING };

/** An adapter's facts as the columns need them, worked out once per distinct facts object (they are shared by shape). */
interface Template {
  elsewhere: boolean;
  kind: UsageKind;
  input: number | null | undefined;
  output: number | null | undefined;
  /** Cache read, cache write, reasoning, total, cost, 1-hour cache write (the slots from CACHE_READ on). */
  rest: [number, number, number, number, number, number];
  /** The facts report something besides input and output (or are an aggregate, which counts even empty). */
  reportsRest: boolean;
  apart: boolean;
  running: boolean;
  retry: boolean;
}

/** The counts `costAt` hands to `costOf`, filled again for every record. */
const scratch: TokenCounts & { total?: number | null; cacheWrite1h?: number | null } = {};

const nan = (v: number | null | undefined): number => (v === null || v === undefined ? NaN : v);
/** NaN (not reported) as null. */
export const orNull = (x: number): number | null => (x === x ? x : null);

function templateOf(f: UsageDraft): Template {
  const rest: Template['rest'] = [nan(f.cacheRead), nan(f.cacheWrite), nan(f.reasoning), nan(f.total), nan(f.costUsd), nan(f.cacheWrite1h)];
  const source = f.source ?? 'event';
  return {
    elsewhere: f.elsewhere === true,
    kind: source === 'event' ? UsageKind.Event : source === 'totals' ? UsageKind.Totals : f.covers === 'parent' ? UsageKind.AggregateParent : UsageKind.AggregateSelf,
    input: f.input, output: f.output, rest,
    reportsRest: rest.some((v) => v === v) || f.runningTotals !== undefined || (f.byModel !== undefined) || source === 'aggregate',
    apart: f.reasoningApart === true,
    running: f.runningTotals !== undefined,
    retry: Boolean(f.retry),
  };
}

/**
 * Every event's usage record as numbers: a slot per event that reports usage, its kind, token fields, cost and
 * flags in typed arrays, so the rollups are passes over numbers (an {@link EventUsage} object per event cost more
 * than the rest of the rollups together). {@link usageOf} makes the object for the few callers that want one;
 * it is `eventUsage` of the same facts, so both readings agree by construction.
 */
export class UsageColumns {
  /**
   * Per event: its slot, -1 when it reports no usage. Made with the first record: a trace without usage (a lumen
   * run) keeps no array of an entry per event.
   */
  private slotOf: Int32Array | null = null;
  private readonly n: number;
  private kinds = new Uint8Array(1024);
  private values = new Float64Array(1024 * STRIDE);
  /** Bit 1: reasoning priced apart from output; bit 2: the record carries running totals. */
  private flags = new Uint8Array(1024);
  private slots = 0;
  private readonly perKind = [0, 0, 0, 0, 0];
  /** Events whose facts record a retry (`retry`), in index order. */
  readonly retries: number[] = [];

  constructor(private readonly t: EventTable, private readonly models: { get(i: number): string | null }) {
    this.n = t.size;
    // Facts are shared by shape: each shape is worked out once.
    const templates: (Template | undefined)[] = [];
    for (let i = 0, end = t.size; i < end; i++) {
      const ref = t.usageFactShapeOf(i);
      if (ref === 0) {
        const a = t.tokensInOf(i), b = t.tokensOutOf(i);
        if (a !== null || b !== null) this.add(i, UsageKind.Event, a, b, null, 0);
        continue;
      }
      const tp = ref > 0 ? (templates[ref] ??= templateOf(t.usageFactShape(ref))) : templateOf(t.usageFactsOf(i)!);
      if (tp.retry) this.retries.push(i);
      if (tp.elsewhere) continue;
      const a = tp.input !== undefined ? tp.input : t.tokensInOf(i);
      const b = tp.output !== undefined ? tp.output : t.tokensOutOf(i);
      if (a === null && b === null && !tp.reportsRest) continue;
      this.add(i, tp.kind, a, b, tp.rest, (tp.apart ? 1 : 0) | (tp.running ? 2 : 0));
    }
  }

  private add(i: number, kind: UsageKind, input: number | null, output: number | null, rest: Template['rest'] | null, flags: number): void {
    const s = this.slots++;
    if (s >= this.kinds.length) this.grow();
    (this.slotOf ??= new Int32Array(this.n).fill(-1))[i] = s;
    this.kinds[s] = kind;
    this.perKind[kind]++;
    this.flags[s] = flags;
    const v = this.values;
    const o = s * STRIDE;
    v[o + INPUT] = nan(input);
    v[o + OUTPUT] = nan(output);
    if (rest) for (let k = 0; k < rest.length; k++) v[o + CACHE_READ + k] = rest[k];
    else v.fill(NaN, o + CACHE_READ, o + STRIDE);
  }

  private grow(): void {
    const kinds = new Uint8Array(this.kinds.length * 2);
    kinds.set(this.kinds);
    const flags = new Uint8Array(this.flags.length * 2);
    flags.set(this.flags);
    const values = new Float64Array(this.values.length * 2);
    values.set(this.values);
    (this.kinds = kinds), (this.flags = flags), (this.values = values);
  }

  /** Event i's slot, -1 when it reports no usage. */
  private slotAt(i: number): number {
    const s = this.slotOf;
    return s === null ? -1 : s[i];
  }

  /** How many events have a record of this kind. */
  count(kind: UsageKind): number {
    return this.perKind[kind];
  }
  /** Event i's kind of record. */
  kindOf(i: number): UsageKind {
    const s = this.slotAt(i);
    return s < 0 ? UsageKind.None : this.kinds[s];
  }
  /** Whether event i reports usage. */
  has(i: number): boolean {
    return this.slotAt(i) >= 0;
  }
  /** A token field of event i's record; null: not reported. */
  field(i: number, f: TokenField): number | null {
    const s = this.slotAt(i);
    const v = s < 0 ? NaN : this.values[s * STRIDE + FIELD_SLOT[f]];
    return v === v ? v : null;
  }
  /** Input + output of event i's record, a side it does not report as 0. */
  inputOutputOf(i: number): number {
    const s = this.slotAt(i);
    if (s < 0) return 0;
    const a = this.values[s * STRIDE + INPUT];
    const b = this.values[s * STRIDE + OUTPUT];
    return (a === a ? a : 0) + (b === b ? b : 0);
  }
  /** Whether every event of `events` reports token field f (one pass, the field's slot looked up once). */
  allReport(events: Int32Array, f: TokenField): boolean {
    const slot = FIELD_SLOT[f];
    for (let k = 0; k < events.length; k++) {
      const s = this.slotAt(events[k]);
      if (s < 0) return false;
      const v = this.values[s * STRIDE + slot];
      if (v !== v) return false;
    }
    return true;
  }
  /** The total event i's record states without an input/output split, or null. */
  totalOf(i: number): number | null {
    const s = this.slotAt(i);
    const v = s < 0 ? NaN : this.values[s * STRIDE + TOTAL];
    return v === v ? v : null;
  }
  /** The cost event i's record itself states (the trace's), or null. */
  recordedCostOf(i: number): number | null {
    const s = this.slotAt(i);
    const v = s < 0 ? NaN : this.values[s * STRIDE + COST];
    return v === v ? v : null;
  }
  /** Reasoning tokens of event i are counted apart from its output (priced on top). */
  reasoningApartOf(i: number): boolean {
    const s = this.slotAt(i);
    return s >= 0 && (this.flags[s] & 1) === 1;
  }
  /** Event i is a totals line or records running totals. */
  isTotalsOf(i: number): boolean {
    const s = this.slotAt(i);
    return s >= 0 && (this.kinds[s] === UsageKind.Totals || (this.flags[s] & 2) === 2);
  }

  /** Adds event i's counts (fields it reports) into `t`, as `Tally.add(usage.counts)` does. */
  addTo(t: Tally, i: number): void {
    const s = this.slotAt(i);
    if (s < 0) return;
    const v = this.values;
    const o = s * STRIDE;
    let x = v[o + INPUT];
    if (x === x) t.input = (t.input ?? 0) + x;
    if ((x = v[o + OUTPUT]) === x) t.output = (t.output ?? 0) + x;
    if ((x = v[o + CACHE_READ]) === x) t.cacheRead = (t.cacheRead ?? 0) + x;
    if ((x = v[o + CACHE_WRITE]) === x) t.cacheWrite = (t.cacheWrite ?? 0) + x;
    if ((x = v[o + REASONING]) === x) t.reasoning = (t.reasoning ?? 0) + x;
    if ((x = v[o + TOTAL]) === x) t.total = (t.total ?? 0) + x;
  }

  /**
   * Adds event i's token fields and recorded total into `into[at]` … `into[at + 5]` (input, output, cache read,
   * cache write, reasoning, total), where NaN stands for not reported yet. True when the record reports any of them.
   */
  sumInto(into: Float64Array, at: number, i: number): boolean {
    const s = this.slotAt(i);
    if (s < 0) return false;
    const v = this.values;
    let any = false;
    for (let f = 0, o = s * STRIDE; f <= TOTAL; f++, o++) {
      const x = v[o];
      if (x === x) (into[at + f] = into[at + f] === into[at + f] ? into[at + f] + x : x), (any = true);
    }
    return any;
  }

  /** Event i's token counts into `out` (a scratch object reused by a loop), null where not reported. */
  countsInto(i: number, out: TokenCounts & { total?: number | null }): TokenCounts & { total?: number | null } {
    // No closure per record: under keepNames (tsx, the tests) each one paid a naming call, 15% of the report.
    const s = this.slotAt(i);
    const v = this.values;
    const o = s * STRIDE;
    out.input = s < 0 ? null : orNull(v[o + INPUT]);
    out.output = s < 0 ? null : orNull(v[o + OUTPUT]);
    out.cacheRead = s < 0 ? null : orNull(v[o + CACHE_READ]);
    out.cacheWrite = s < 0 ? null : orNull(v[o + CACHE_WRITE]);
    out.reasoning = s < 0 ? null : orNull(v[o + REASONING]);
    out.total = s < 0 ? null : orNull(v[o + TOTAL]);
    return out;
  }

  /**
   * The cost of event i's record: what the trace records for it, else its tokens at `price` (at the event's time,
   * for a price that changed over time); null when unpriced (see `costOf`).
   */
  costAt(i: number, price: Price | undefined): number | null {
    const s = this.slotAt(i);
    if (s < 0) return null;
    const recorded = this.values[s * STRIDE + COST];
    if (recorded === recorded) return recorded;
    if (!price) return null;
    this.countsInto(i, scratch);
    scratch.cacheWrite1h = orNull(this.values[s * STRIDE + CACHE_WRITE_1H]);
    return costOf(scratch, price, (this.flags[s] & 1) === 1, price.periods.length > 1 ? this.t.timeOf(i) : null);
  }

  /** Why event i's record is unpriced at `price` (see `unpricedReason`), null when it is priced or reports nothing. */
  unpricedReasonAt(i: number, price: Price): string | null {
    const s = this.slotAt(i);
    if (s < 0 || this.values[s * STRIDE + COST] === this.values[s * STRIDE + COST]) return null;
    this.countsInto(i, scratch);
    scratch.cacheWrite1h = orNull(this.values[s * STRIDE + CACHE_WRITE_1H]);
    return unpricedReason(scratch, price, (this.flags[s] & 1) === 1, price.periods.length > 1 ? this.t.timeOf(i) : null);
  }

  /** Event i's usage as an object (made on request; null: reports none). */
  usageOf(i: number): EventUsage | null {
    if (this.slotAt(i) < 0) return null;
    const u = eventUsage(this.t.usageFactsOf(i), this.t.tokensInOf(i), this.t.tokensOutOf(i));
    if (u) u.model = this.models.get(i);
    return u;
  }
}

// Made for every rollup: its map is kept (see keepShape).
keepShape(new UsageColumns(new EventTable(), { get: () => null }));
