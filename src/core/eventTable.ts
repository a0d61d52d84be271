import { EVENT_CATEGORIES, EVENT_STATUSES, EventCategory, EventDraft, EventPlace, HashRef, IdMention, TraceEvent } from './model';
import type { UsageDraft } from './usage/usageTypes';

/** Grows a typed array by doubling. */
class Column<T extends Float64Array | Int32Array | Uint8Array | Uint16Array | Uint32Array> {
  constructor(public data: T, private readonly make: (n: number) => T) {}
  set(i: number, v: number): void {
    if (i >= this.data.length) {
      const next = this.make(Math.max(1024, this.data.length * 2));
      next.set(this.data);
      this.data = next;
    }
    this.data[i] = v;
  }
}

/** Interns repeated strings (kinds, models, tools, groups) as small integers. */
class Interner {
  readonly values: string[] = [''];
  private readonly ids = new Map<string, number>([['', 0]]);
  id(value: string | null | undefined): number {
    if (value === null || value === undefined) return 0;
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.ids.set(value, id);
    }
    return id;
  }
  value(id: number): string | null {
    return id === 0 ? null : this.values[id];
  }
}

const f64 = (n: number) => new Float64Array(n);
const i32 = (n: number) => new Int32Array(n);
const u8 = (n: number) => new Uint8Array(n);
const u32 = (n: number) => new Uint32Array(n);

/**
 * Compact, column-wise store of a trace's events: numbers in typed arrays, repeated strings interned,
 * rare fields in sparse maps. A million events cost a fraction of the file's size.
 */
export class EventTable {
  private n = 0;
  private readonly line = new Column(i32(1024), i32);
  private readonly offset = new Column(f64(1024), f64);
  private readonly length = new Column(u32(1024), u32);
  private readonly parentCol = new Column(i32(1024), i32);
  private readonly seq = new Column(f64(1024), f64);
  private readonly time = new Column(f64(1024), f64);
  private readonly duration = new Column(f64(1024), f64);
  private readonly tokensIn = new Column(f64(1024), f64);
  private readonly tokensOut = new Column(f64(1024), f64);
  private readonly status = new Column(u8(1024), u8);
  private readonly category = new Column(u8(1024), u8);
  private readonly kind = new Column(u32(1024), u32);
  private readonly modelCol = new Column(u32(1024), u32);
  private readonly toolCol = new Column(u32(1024), u32);
  private readonly groupCol = new Column(u32(1024), u32);
  private readonly ids: (string | undefined)[] = [];
  private readonly parentIds: (string | undefined)[] = [];
  private readonly labels: string[] = [];
  private readonly hashRefs = new Map<number, HashRef[]>();
  /** Cache, reasoning and source facts of the few events that have them (core/usage reads them). */
  private readonly usageFacts = new Map<number, UsageDraft>();
  // Mentions live in flat columns: event i owns entries [mentionStart[i], mentionStart[i] + mentionCount[i]).
  private readonly mentionStart = new Column(u32(1024), u32);
  private readonly mentionCount = new Column(u8(1024), u8);
  private readonly mentionField = new Column(u32(1024), u32);
  private readonly mentionIds: string[] = [];
  /** Parent ids that resolved to an event are dropped (the parent's own id says the same), saving memory. */
  private readonly parentFromId = new Column(u8(1024), u8);
  private readonly strings = new Interner();
  /** Structural parents given by adapters (index) before the tree is built; -2 = none given. */
  readonly explicitParentIndex: number[] = [];

  get size(): number {
    return this.n;
  }

  /**
   * A view of the first `n` events that shares this table's columns: `size` stays `n` while the table grows
   * (an early partial model is shown while the read goes on). Writes through the view reach this table.
   */
  prefix(n: number): EventTable {
    return Object.create(this, { size: { value: Math.min(n, this.n) } }) as EventTable;
  }

  /** Appends an event and returns its index. */
  add(draft: EventDraft, place: EventPlace): number {
    const i = this.n++;
    this.line.set(i, place.line);
    this.offset.set(i, place.offset);
    this.length.set(i, place.length);
    this.parentCol.set(i, -1);
    this.seq.set(i, num(draft.seq));
    this.time.set(i, num(draft.time));
    this.duration.set(i, num(draft.durationMs));
    this.tokensIn.set(i, num(draft.tokensIn));
    this.tokensOut.set(i, num(draft.tokensOut));
    this.status.set(i, EVENT_STATUSES.indexOf(draft.status ?? 'ok'));
    this.category.set(i, Math.max(0, EVENT_CATEGORIES.indexOf(draft.category ?? 'other')));
    this.kind.set(i, this.strings.id(draft.kind));
    this.modelCol.set(i, this.strings.id(draft.model));
    this.toolCol.set(i, this.strings.id(draft.tool));
    this.groupCol.set(i, this.strings.id(draft.group));
    this.ids.push(draft.id ?? undefined);
    this.parentIds.push(draft.parentId ?? undefined);
    this.labels.push(packLabel(draft.label));
    this.explicitParentIndex.push(draft.parentIndex ?? -2);
    if (draft.hashRefs && draft.hashRefs.length > 0) this.hashRefs.set(i, draft.hashRefs);
    if (draft.usage) this.usageFacts.set(i, draft.usage);
    this.mentionStart.set(i, this.mentionIds.length);
    const mentions = draft.mentions;
    const count = mentions ? Math.min(255, mentions.length) : 0;
    this.mentionCount.set(i, count);
    for (let k = 0; k < count; k++) {
      this.mentionField.set(this.mentionIds.length, this.strings.id(mentions![k].field));
      this.mentionIds.push(mentions![k].id);
    }
    this.parentFromId.set(i, 0);
    return i;
  }

  /**
   * Records that event i's parent is the event its parent id names; the stored parent id string is
   * dropped since `id(parent)` gives it back.
   */
  setParentById(i: number, parent: number): void {
    this.parentCol.data[i] = parent;
    if (this.ids[parent] === this.parentIds[i]) {
      this.parentFromId.data[i] = 1;
      this.parentIds[i] = undefined;
    }
  }

  /** Sets the tree parent (-1 for a root). */
  setParent(i: number, parent: number): void {
    if (this.parentFromId.data[i] === 1) {
      // The parent link is being cut (a cycle): keep the id the file named.
      this.parentIds[i] = this.ids[this.parentCol.data[i]];
      this.parentFromId.data[i] = 0;
    }
    this.parentCol.data[i] = parent;
  }
  parent(i: number): number {
    return this.parentCol.data[i];
  }
  id(i: number): string | null {
    return this.ids[i] ?? null;
  }
  parentId(i: number): string | null {
    if (this.parentFromId.data[i] === 1) return this.ids[this.parentCol.data[i]] ?? null;
    return this.parentIds[i] ?? null;
  }
  lineOf(i: number): number {
    return this.line.data[i];
  }
  /** Byte length of the event's line. */
  lengthOf(i: number): number {
    return this.length.data[i];
  }
  kindOf(i: number): string {
    return this.strings.value(this.kind.data[i]) ?? '';
  }
  labelOf(i: number): string {
    return unpackLabel(this.labels[i]);
  }
  statusOf(i: number): TraceEvent['status'] {
    return EVENT_STATUSES[this.status.data[i]];
  }
  categoryOf(i: number): EventCategory {
    return EVENT_CATEGORIES[this.category.data[i]];
  }
  timeOf(i: number): number | null {
    return orNull(this.time.data[i]);
  }
  seqOf(i: number): number | null {
    return orNull(this.seq.data[i]);
  }
  groupOf(i: number): string | null {
    return this.strings.value(this.groupCol.data[i]);
  }
  /** The columns the usage rollups read, without materializing the event. */
  usageColumnsOf(i: number): { tokensIn: number | null; tokensOut: number | null; model: string | null; tool: string | null; durationMs: number | null } {
    return { tokensIn: orNull(this.tokensIn.data[i]), tokensOut: orNull(this.tokensOut.data[i]), model: this.strings.value(this.modelCol.data[i]), tool: this.strings.value(this.toolCol.data[i]), durationMs: orNull(this.duration.data[i]) };
  }
  /** The usage facts the adapter recorded beyond tokensIn/tokensOut, if any. */
  usageFactsOf(i: number): UsageDraft | undefined {
    return this.usageFacts.get(i);
  }
  /** Every event's usage facts in index order (may run past a prefix view's size): one pass, not a lookup per event. */
  usageFactEntries(): IterableIterator<[number, UsageDraft]> {
    return this.usageFacts.entries();
  }
  hashRefsOf(i: number): HashRef[] {
    return this.hashRefs.get(i) ?? [];
  }
  /** Ids this event mentions besides its own and its parent's. */
  mentionsOf(i: number): IdMention[] {
    const start = this.mentionStart.data[i];
    const out: IdMention[] = [];
    for (let k = 0; k < this.mentionCount.data[i]; k++) {
      out.push({ field: this.strings.value(this.mentionField.data[start + k]) ?? '', id: this.mentionIds[start + k] });
    }
    return out;
  }
  /** Indices of events that hold at least one hash reference. */
  eventsWithHashRefs(): number[] {
    return [...this.hashRefs.keys()];
  }
  /** Overrides the status of an event (checks may raise it). */
  setStatus(i: number, status: TraceEvent['status']): void {
    this.status.data[i] = EVENT_STATUSES.indexOf(status);
  }
  /** Sets a duration derived after the fact (e.g. from a matching end event). */
  setDuration(i: number, ms: number): void {
    this.duration.data[i] = ms;
  }
  /** Every distinct kind in the table. */
  kinds(): string[] {
    const seen = new Set<number>();
    for (let i = 0; i < this.n; i++) seen.add(this.kind.data[i]);
    return [...seen].map((k) => this.strings.value(k) ?? '').sort();
  }

  /** Materializes event `i` as a plain object. */
  get(i: number): TraceEvent {
    return {
      index: i,
      line: this.line.data[i],
      offset: this.offset.data[i],
      length: this.length.data[i],
      kind: this.kindOf(i),
      category: this.categoryOf(i),
      id: this.id(i),
      parentId: this.parentId(i),
      parent: this.parentCol.data[i],
      seq: orNull(this.seq.data[i]),
      time: orNull(this.time.data[i]),
      durationMs: orNull(this.duration.data[i]),
      status: this.statusOf(i),
      label: this.labelOf(i),
      tokensIn: orNull(this.tokensIn.data[i]),
      tokensOut: orNull(this.tokensOut.data[i]),
      model: this.strings.value(this.modelCol.data[i]),
      tool: this.strings.value(this.toolCol.data[i]),
      group: this.groupOf(i),
      hashRefs: this.hashRefsOf(i),
      mentions: this.mentionsOf(i),
    };
  }
}

/**
 * Labels use '→' (tokens in→out) and '…' (shortened text), which would make V8 store every such label with
 * two bytes per character. The table keeps them as the C1 controls U+0085 and U+0086 (one byte; `short()`
 * turns C1 controls from trace content into spaces) and gives them back when read.
 */
const WIDE = /[→…]/g;
const PACKED = /[\u0085\u0086]/g;
function packLabel(s: string): string {
  if (!WIDE.test(s)) return s;
  WIDE.lastIndex = 0;
  const packed = s.replace(WIDE, (c) => (c === '→' ? '\u0085' : '\u0086'));
  // A latin1 round trip makes the result a one-byte string (replace() keeps the two-byte representation).
  return /[^\u0000-\u00ff]/.test(packed) ? packed : Buffer.from(packed, 'latin1').toString('latin1');
}
function unpackLabel(s: string): string {
  return /[\u0085\u0086]/.test(s) ? s.replace(PACKED, (c) => (c === '\u0085' ? '→' : '…')) : s;
}

function num(v: number | null | undefined): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : NaN;
}
function orNull(v: number): number | null {
  return Number.isNaN(v) ? null : v;
}
