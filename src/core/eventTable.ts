import { EVENT_CATEGORIES, EVENT_STATUSES, EventCategory, EventDraft, EventPlace, HashRef, IdMention, TraceEvent } from './model';
import type { UsageDraft } from './usage/usageTypes';
import { Column, IntColumn, Interner, SharedValues } from './tableColumns';
import { StringColumn } from './stringColumn';
import { IdHashIndex } from './idHashIndex';
import { MentionColumns } from './mentionColumns';
import { LabelCache, LabelDeriver, LabelFacts, LineBytes } from './derivedLabels';

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
  private readonly seq = new IntColumn();
  private readonly time = new Column(f64(1024), f64);
  private readonly duration = new Column(f64(1024), f64);
  private readonly tokensIn = new IntColumn();
  private readonly tokensOut = new IntColumn();
  private readonly status = new Column(u8(1024), u8);
  private readonly category = new Column(u8(1024), u8);
  private readonly kind = new Column(u32(1024), u32);
  private readonly modelCol = new Column(u32(1024), u32);
  private readonly toolCol = new Column(u32(1024), u32);
  private readonly groupCol = new Column(u32(1024), u32);
  /** Own ids as UTF-8 bytes, and the index from id to the first event that has it. */
  private readonly ids = new StringColumn();
  private readonly idIndex = new IdHashIndex((e, id) => this.ids.equals(e, id));
  /**
   * Parent ids not resolved yet (named before their event was seen, or missing). A parent id that names an
   * earlier event is resolved when its event is added, and only the link is kept (`parentFromId`).
   */
  private readonly pendingParentIds = new Map<number, string>();
  /** Stored labels; null where the label is made again from the line when asked (`labelDerived`). */
  private readonly labels = new StringColumn();
  private readonly labelDerived = new Column(u8(1024), u8);
  private deriver: { derive: LabelDeriver; lineBytes: LineBytes; parse: (bytes: Buffer) => unknown; cache: LabelCache } | null = null;
  private readonly hashRefs = new Map<number, HashRef[]>();
  /** Cache, reasoning and source facts of the events that have them (core/usage reads them), shared by shape. */
  private readonly usageFacts = new SharedValues<UsageDraft>();
  /** 1 when the parent link came from the parent id (which `id(parent)` then gives back). */
  private readonly parentFromId = new Column(u8(1024), u8);
  private readonly strings = new Interner();
  /** The ids each event mentions besides its own and its parent's. */
  readonly mentions = new MentionColumns(this.strings);
  /**
   * 1 when an adapter gave the parent as an index (a structural parent): it is kept in the parent column, and
   * here only when the tree changed that link (a cycle cut, a view that ends before the parent).
   */
  private readonly structural = new Column(u8(1024), u8);
  private readonly structuralMoved = new Map<number, number>();

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

  /**
   * Labels that `derive` gives back unchanged from a line's value are not stored from now on: they are made
   * again from the line's bytes (`lineBytes`, parsed by `parse`) when asked, through a bounded cache.
   */
  deriveLabelsFrom(derive: LabelDeriver, lineBytes: LineBytes, parse: (bytes: Buffer) => unknown): void {
    this.deriver = { derive, lineBytes, parse, cache: new LabelCache() };
  }

  /** Appends an event and returns its index; `value` is the parsed line it came from, when labels may be derived. */
  add(draft: EventDraft, place: EventPlace, value?: unknown): number {
    const i = this.n++;
    this.line.set(i, place.line);
    this.offset.set(i, place.offset);
    this.length.set(i, place.length);
    this.seq.set(i, draft.seq);
    this.time.set(i, num(draft.time));
    this.duration.set(i, num(draft.durationMs));
    this.tokensIn.set(i, draft.tokensIn);
    this.tokensOut.set(i, draft.tokensOut);
    this.status.set(i, EVENT_STATUSES.indexOf(draft.status ?? 'ok'));
    this.category.set(i, Math.max(0, EVENT_CATEGORIES.indexOf(draft.category ?? 'other')));
    this.kind.set(i, this.strings.id(draft.kind));
    this.modelCol.set(i, this.strings.id(draft.model));
    this.toolCol.set(i, this.strings.id(draft.tool));
    this.groupCol.set(i, this.strings.id(draft.group));
    this.addLinks(i, draft);
    const derived = value !== undefined && this.deriver !== null && deriveSafely(this.deriver.derive, value, draft) === draft.label;
    this.labelDerived.set(i, derived ? 1 : 0);
    this.labels.push(derived ? null : draft.label);
    if (draft.hashRefs && draft.hashRefs.length > 0) this.hashRefs.set(i, draft.hashRefs);
    if (draft.usage) this.usageFacts.set(i, draft.usage);
    this.mentions.set(i, draft.mentions);
    return i;
  }

  /** The event's own id, and its parent id: resolved at once when an earlier event has it. */
  private addLinks(i: number, draft: EventDraft): void {
    const pid = draft.parentId ?? null;
    const structural = typeof draft.parentIndex === 'number';
    this.structural.set(i, structural ? 1 : 0);
    // A structural parent wins over the parent id, which then stays as the file wrote it.
    const p = pid === null || structural ? undefined : this.idIndex.get(pid);
    this.parentCol.set(i, structural ? draft.parentIndex! : p ?? -1);
    this.parentFromId.set(i, p === undefined ? 0 : 1);
    if (pid !== null && p === undefined) this.pendingParentIds.set(i, pid);
    const id = draft.id ?? null;
    this.ids.push(id);
    if (id !== null) this.idIndex.insert(i, id);
  }

  /** Index of the first event (of this table or view) with this id. */
  indexOfId(id: string): number | undefined {
    const f = this.idIndex.get(id);
    return f !== undefined && f < this.size ? f : undefined;
  }
  /** Events whose id an earlier event already has, in file order. */
  duplicateIdEvents(): number[] {
    return this.idIndex.duplicates.filter((d) => d < this.size);
  }
  /** The structural parent an adapter gave (an index), or -2. */
  explicitParentOf(i: number): number {
    if (this.structural.data[i] === 0) return -2;
    return this.structuralMoved.get(i) ?? this.parentCol.data[i];
  }
  /** Whether the parent link is the one the parent id names (resolved when the event was added, or by the tree). */
  parentFromIdOf(i: number): boolean {
    return this.parentFromId.data[i] === 1;
  }

  /**
   * Records that event i's parent is the event its parent id names; the stored parent id string is
   * dropped since `id(parent)` gives it back.
   */
  setParentById(i: number, parent: number): void {
    this.parentCol.data[i] = parent;
    const pid = this.pendingParentIds.get(i);
    if (pid !== undefined && this.ids.equals(parent, pid)) {
      this.parentFromId.data[i] = 1;
      this.pendingParentIds.delete(i);
    }
  }

  /** Sets the tree parent (-1 for a root). */
  setParent(i: number, parent: number): void {
    if (this.structural.data[i] === 1 && this.parentCol.data[i] !== parent && !this.structuralMoved.has(i)) this.structuralMoved.set(i, this.parentCol.data[i]);
    if (this.parentFromId.data[i] === 1) {
      // The parent link is being cut (a cycle): keep the id the file named.
      this.pendingParentIds.set(i, this.ids.get(this.parentCol.data[i])!);
      this.parentFromId.data[i] = 0;
    }
    this.parentCol.data[i] = parent;
  }
  parent(i: number): number {
    return this.parentCol.data[i];
  }
  id(i: number): string | null {
    return this.ids.get(i);
  }
  parentId(i: number): string | null {
    if (this.parentFromId.data[i] === 1) return this.ids.get(this.parentCol.data[i]);
    return this.pendingParentIds.get(i) ?? null;
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
    if (this.labelDerived.data[i] === 0 || this.deriver === null) return this.labels.get(i) ?? '';
    const d = this.deriver;
    const hit = d.cache.get(i);
    if (hit !== undefined) return hit;
    const bytes = d.lineBytes(this.offset.data[i], this.length.data[i]);
    const facts = { kind: this.kindOf(i), model: this.strings.value(this.modelCol.data[i]), tool: this.strings.value(this.toolCol.data[i]), group: this.groupOf(i) };
    // The file changed under the model (a rewrite not yet read again): the kind is better than a wrong label.
    const label = (bytes && deriveSafely(d.derive, parseSafely(d.parse, bytes), facts)) ?? facts.kind;
    d.cache.set(i, label);
    return label;
  }
  /** Whether event i's label is made again from its line rather than stored. */
  labelIsDerived(i: number): boolean {
    return this.labelDerived.data[i] === 1 && this.deriver !== null;
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
    return this.seq.get(i);
  }
  groupOf(i: number): string | null {
    return this.strings.value(this.groupCol.data[i]);
  }
  modelOf(i: number): string | null {
    return this.strings.value(this.modelCol.data[i]);
  }
  toolOf(i: number): string | null {
    return this.strings.value(this.toolCol.data[i]);
  }
  /** The columns the usage rollups read, without materializing the event. */
  usageColumnsOf(i: number): { tokensIn: number | null; tokensOut: number | null; model: string | null; tool: string | null; durationMs: number | null } {
    return { tokensIn: this.tokensIn.get(i), tokensOut: this.tokensOut.get(i), model: this.strings.value(this.modelCol.data[i]), tool: this.strings.value(this.toolCol.data[i]), durationMs: orNull(this.duration.data[i]) };
  }
  /** The event's duration in ms, NaN when it has none (for passes over numbers). */
  durationOf(i: number): number {
    return this.duration.data[i];
  }
  tokensInOf(i: number): number | null {
    return this.tokensIn.get(i);
  }
  tokensOutOf(i: number): number | null {
    return this.tokensOut.get(i);
  }
  /** The usage facts the adapter recorded beyond tokensIn/tokensOut, if any. */
  usageFactsOf(i: number): UsageDraft | undefined {
    return this.usageFacts.get(i);
  }
  /** The shape of event i's usage facts (see `SharedValues.shapeOf`): 0 none, -1 its own (`usageFactsOf`). */
  usageFactShapeOf(i: number): number {
    return this.usageFacts.shapeOf(i);
  }
  /** The usage facts of a shape number from `usageFactShapeOf`. */
  usageFactShape(ref: number): UsageDraft {
    return this.usageFacts.shape(ref);
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
    return this.mentions.of(i);
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
    const table = this;
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
      seq: this.seq.get(i),
      time: orNull(this.time.data[i]),
      durationMs: orNull(this.duration.data[i]),
      status: this.statusOf(i),
      // Made from the line's bytes when derived: only a caller that reads it pays.
      get label() {
        return table.labelOf(i);
      },
      tokensIn: this.tokensIn.get(i),
      tokensOut: this.tokensOut.get(i),
      model: this.strings.value(this.modelCol.data[i]),
      tool: this.strings.value(this.toolCol.data[i]),
      group: this.groupOf(i),
      hashRefs: this.hashRefsOf(i),
      mentions: this.mentionsOf(i),
    };
  }
}

function deriveSafely(derive: LabelDeriver, value: unknown, facts: LabelFacts): string | null {
  try {
    return derive(value, facts);
  } catch {
    return null;
  }
}
function parseSafely(parse: (bytes: Buffer) => unknown, bytes: Buffer): unknown {
  try {
    return parse(bytes);
  } catch {
    return undefined;
  }
}

function num(v: number | null | undefined): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : NaN;
}
function orNull(v: number): number | null {
  return Number.isNaN(v) ? null : v;
}
