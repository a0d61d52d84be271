import { EVENT_CATEGORIES, EVENT_STATUSES, EventCategory, EventStatus, EventDraft, EventPlace, HashRef, IdMention, TraceEvent } from './model';
import type { UsageDraft } from './usageTypes';
import { Column, Interner, SharedValues } from './tableColumns';
import { NumberColumn } from './numberColumn';
import { CounterColumn } from './counterColumn';
import { MentionColumns } from './mentionColumns';
import { StringColumn } from './stringColumn';
import { IdHashIndex } from './idHashIndex';
import type { LabelDeriver, LabelFacts, LineBytes } from './derivedLabels';
import { LabelColumns } from './labelColumns';

/** Each status's and category's index in EVENT_STATUSES and EVENT_CATEGORIES (a lookup instead of a search per event). */
const STATUS_INDEX = Object.fromEntries(EVENT_STATUSES.map((s, k) => [s, k])) as Record<EventStatus, number>;
const CATEGORY_INDEX = Object.fromEntries(EVENT_CATEGORIES.map((c, k) => [c, k])) as Record<EventCategory, number>;

/**
 * Compact, column-wise store of a trace's events: numbers in typed arrays, repeated strings interned,
 * rare fields in sparse maps. A million events cost a fraction of the file's size.
 */
export class EventTable {
  private n = 0;
  /** Line numbers as the difference from the event's index: the same for every event of a plain JSONL file. */
  private readonly lineDelta = new NumberColumn(true);
  private readonly offset = new NumberColumn();
  private readonly length = new NumberColumn();
  private readonly parentCol = new Column(new Int32Array(1024), (n) => new Int32Array(n));
  /** Sequence numbers as the difference from the event's index: nothing stored while they count with the events. */
  private readonly seq = new CounterColumn();
  private readonly time = new NumberColumn(true);
  private readonly duration = new NumberColumn();
  private readonly tokensIn = new NumberColumn();
  private readonly tokensOut = new NumberColumn();
  private readonly status = new NumberColumn();
  private readonly category = new NumberColumn();
  private readonly kind = new NumberColumn();
  private readonly modelCol = new NumberColumn();
  private readonly toolCol = new NumberColumn();
  private readonly groupCol = new NumberColumn();
  /** Own ids as UTF-8 bytes, and the index from id to the first event that has it. */
  private readonly ids = new StringColumn();
  private readonly idIndex = new IdHashIndex((e, id) => this.ids.equals(e, id), (e) => this.ids.get(e)!);
  /**
   * Parent ids not resolved yet (named before their event was seen, or missing). A parent id that names an
   * earlier event is resolved when its event is added, and only the link is kept (`parentFromId`).
   */
  private readonly pendingParentIds = new Map<number, string>();
  private readonly labels = new LabelColumns();
  private readonly hashRefs = new Map<number, HashRef[]>();
  /** Cache, reasoning and source facts of the events that have them (core/usage reads them), shared by shape. */
  private readonly usageFacts = new SharedValues<UsageDraft>();
  private readonly strings = new Interner();
  /** The ids each event mentions besides its own and its parent's. */
  readonly mentions = new MentionColumns(this.strings);
  /** 1 when the parent link came from the parent id (which `id(parent)` then gives back). */
  private readonly parentFromId = new NumberColumn();
  /**
   * 1 when an adapter gave the parent as an index (a structural parent): it is kept in the parent column, and
   * here only when the tree changed that link (a cycle cut, a view that ends before the parent).
   */
  private readonly structural = new NumberColumn();
  private readonly structuralMoved = new Map<number, number>();
  /**
   * Display parents (`EventDraft.displayParent`) as the distance back from the event, 0 for a root (a byte an event
   * while parents are near); null where the adapter gave none. The parent column keeps the recorded link either way.
   */
  private readonly displayBack = new NumberColumn();
  private displays = 0;

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
    this.labels.deriveFrom(derive, lineBytes, parse);
  }

  /** Whether labels `derive` makes from a line are made again from the line when asked (see EventDraft.lineLabel). */
  labelsOnDemand(derive: LabelDeriver): boolean {
    return this.labels.derives(derive);
  }

  /** Appends an event and returns its index; `value` is the parsed line it came from, when labels may be derived. */
  add(draft: EventDraft, place: EventPlace, value?: unknown): number {
    const i = this.n++;
    this.lineDelta.set(i, place.line - i);
    this.offset.set(i, place.offset);
    this.length.set(i, place.length);
    this.seq.set(i, draft.seq);
    this.time.set(i, draft.time);
    this.duration.set(i, draft.durationMs);
    this.tokensIn.set(i, draft.tokensIn);
    this.tokensOut.set(i, draft.tokensOut);
    this.status.set(i, STATUS_INDEX[draft.status ?? 'ok']);
    this.category.set(i, CATEGORY_INDEX[draft.category ?? 'other'] ?? 0);
    this.kind.set(i, this.strings.id(draft.kind));
    this.modelCol.set(i, this.strings.id(draft.model));
    this.toolCol.set(i, this.strings.id(draft.tool));
    this.groupCol.set(i, this.strings.id(draft.group));
    this.addLinks(i, draft);
    this.addDisplayParent(i, draft.displayParent);
    this.labels.add(i, draft.label, value, draft, draft.lineLabel !== undefined);
    if (draft.hashRefs && draft.hashRefs.length > 0) this.hashRefs.set(i, draft.hashRefs);
    if (draft.usage) this.usageFacts.set(i, draft.usage);
    this.mentions.add(i, draft.mentions);
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

  /** Where the event is shown (see EventDraft.displayParent): an earlier event, or a root. */
  private addDisplayParent(i: number, display: number | undefined): void {
    if (display === undefined) return this.displayBack.set(i, null);
    this.displays++;
    this.displayBack.set(i, display >= 0 && display < i ? i - display : 0);
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
    if (this.structural.raw(i) === 0) return -2;
    return this.structuralMoved.get(i) ?? this.parentCol.data[i];
  }
  /** Whether the parent link is the one the parent id names (resolved when the event was added, or by the tree). */
  parentFromIdOf(i: number): boolean {
    return this.parentFromId.raw(i) === 1;
  }

  /**
   * Records that event i's parent is the event its parent id names; the stored parent id string is
   * dropped since `id(parent)` gives it back.
   */
  setParentById(i: number, parent: number): void {
    this.parentCol.data[i] = parent;
    const pid = this.pendingParentIds.get(i);
    if (pid !== undefined && this.ids.equals(parent, pid)) {
      this.parentFromId.set(i, 1);
      this.pendingParentIds.delete(i);
    }
  }

  /** Sets the tree parent (-1 for a root). */
  setParent(i: number, parent: number): void {
    if (this.structural.raw(i) === 1 && this.parentCol.data[i] !== parent && !this.structuralMoved.has(i)) this.structuralMoved.set(i, this.parentCol.data[i]);
    if (this.parentFromId.raw(i) === 1) {
      // The parent link is being cut (a cycle): keep the id the file named.
      this.pendingParentIds.set(i, this.ids.get(this.parentCol.data[i])!);
      this.parentFromId.set(i, 0);
    }
    this.parentCol.data[i] = parent;
  }
  /** The event's parent in the tree: its display parent when the adapter gave one, else {@link linkOf}; -1 for a root. */
  parent(i: number): number {
    if (this.displays === 0) return this.parentCol.data[i];
    const back = this.displayBack.get(i);
    return back === null ? this.parentCol.data[i] : back === 0 ? -1 : i - back;
  }
  /**
   * The event its recorded link resolves to (its parent id, or its structural parent), -1 when it names none, the
   * parent is missing or the link was cut: the same as {@link parent} unless the event has a display parent.
   */
  linkOf(i: number): number {
    return this.parentCol.data[i];
  }
  /** Whether some event was given a display parent (then {@link parent} and {@link linkOf} may differ). */
  hasDisplayParents(): boolean {
    return this.displays > 0;
  }
  /** Whether the adapter gave event i a display parent. */
  hasDisplayParent(i: number): boolean {
    return this.displays > 0 && this.displayBack.get(i) !== null;
  }
  /** Makes event i a root of the display (a cycle through display parents and forward links is cut there). */
  cutDisplayParent(i: number): void {
    this.displayBack.set(i, 0);
  }
  id(i: number): string | null {
    return this.ids.get(i);
  }
  parentId(i: number): string | null {
    if (this.parentFromId.raw(i) === 1) return this.ids.get(this.parentCol.data[i]);
    return this.pendingParentIds.get(i) ?? null;
  }
  /** The parent ids of events before `end` that name no event before them (missing, forward, or a cut cycle). */
  unresolvedParentIds(end: number): Set<string> {
    const out = new Set<string>();
    for (const [i, pid] of this.pendingParentIds) if (i < end) out.add(pid);
    return out;
  }
  lineOf(i: number): number {
    return this.lineDelta.raw(i) + i;
  }
  /** Byte length of the event's line. */
  lengthOf(i: number): number {
    return this.length.raw(i);
  }
  kindOf(i: number): string {
    return this.strings.value(this.kind.raw(i)) ?? '';
  }
  labelOf(i: number): string {
    return this.labels.get(i, this);
  }
  /** Byte offset of the event's line (where its label is made again from). */
  offsetOf(i: number): number {
    return this.offset.raw(i);
  }
  /** The facts a label made again may use besides the line. */
  labelFactsOf(i: number): LabelFacts {
    return { kind: this.kindOf(i), model: this.modelOf(i), tool: this.toolOf(i), group: this.groupOf(i), durationMs: this.duration.get(i), tokensIn: this.tokensIn.get(i), tokensOut: this.tokensOut.get(i), status: this.statusOf(i) };
  }
  /** Whether event i's label is made again from its line rather than stored. */
  labelIsDerived(i: number): boolean {
    return this.labels.isDerived(i);
  }
  statusOf(i: number): TraceEvent['status'] {
    return EVENT_STATUSES[this.status.raw(i)];
  }
  categoryOf(i: number): EventCategory {
    return EVENT_CATEGORIES[this.category.raw(i)];
  }
  timeOf(i: number): number | null {
    return this.time.get(i);
  }
  seqOf(i: number): number | null {
    return this.seq.get(i);
  }
  groupOf(i: number): string | null {
    return this.strings.value(this.groupCol.raw(i));
  }
  modelOf(i: number): string | null {
    return this.strings.value(this.modelCol.raw(i));
  }
  toolOf(i: number): string | null {
    return this.strings.value(this.toolCol.raw(i));
  }
  /** Event i's tool as a number (0: none; equal numbers, equal names), for passes that compare tools; `stringOf` names it. */
  toolRefOf(i: number): number {
    return this.toolCol.raw(i);
  }
  /** The string of a number from `toolRefOf`. */
  stringOf(ref: number): string | null {
    return this.strings.value(ref);
  }
  /** The columns the usage rollups read, without materializing the event. */
  usageColumnsOf(i: number): { tokensIn: number | null; tokensOut: number | null; model: string | null; tool: string | null; durationMs: number | null } {
    return { tokensIn: this.tokensIn.get(i), tokensOut: this.tokensOut.get(i), model: this.strings.value(this.modelCol.raw(i)), tool: this.strings.value(this.toolCol.raw(i)), durationMs: this.duration.get(i) };
  }
  /** The event's duration in ms, NaN when it has none (for passes over numbers). */
  durationOf(i: number): number {
    return this.duration.get(i) ?? NaN;
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
    this.status.set(i, EVENT_STATUSES.indexOf(status));
  }
  /** Replaces an event's usage (a later line carried the final count of what it reported). */
  setUsage(i: number, tokensIn: number | null, tokensOut: number | null, usage: UsageDraft | undefined): void {
    this.tokensIn.set(i, tokensIn);
    this.tokensOut.set(i, tokensOut);
    this.usageFacts.replace(i, usage);
  }
  /** Sets a duration derived after the fact (e.g. from a matching end event). */
  setDuration(i: number, ms: number): void {
    this.duration.set(i, ms);
  }
  /** Every distinct kind in the table. */
  kinds(): string[] {
    return this.kind.distinct(this.size, Infinity).map((k) => this.strings.value(k) ?? '').sort();
  }

  /** The different tools, models or groups of the events (no null), in the order they first appear, at most `max`. */
  distinctNames(column: 'tool' | 'model' | 'group', max: number): string[] {
    const col = column === 'tool' ? this.toolCol : column === 'model' ? this.modelCol : this.groupCol;
    return col.distinct(this.size, max, 0).map((id) => this.strings.value(id)!);
  }

  /**
   * Per event, in one array (for passes over every event, which would otherwise decode each one on its own):
   * its tool, kind or group as the number `toolRefOf` gives (0: none; `stringOf` names it). `from`, `n`, `out`:
   * events `[from, from + n)` only, into `out` (a block a long pass reuses).
   */
  refsOf(column: 'tool' | 'kind' | 'group', from = 0, n = this.size - from, out?: Int32Array): Int32Array {
    const col = column === 'tool' ? this.toolCol : column === 'kind' ? this.kind : this.groupCol;
    const m = Math.max(0, Math.min(n, this.size - from));
    return col.codes(m, 0, out ?? new Int32Array(m), from);
  }
  /** Per event, its category or status as an index into EVENT_CATEGORIES or EVENT_STATUSES (as {@link refsOf}; a byte each). */
  codesOf(column: 'category' | 'status', from = 0, n = this.size - from, out?: Uint8Array): Uint8Array {
    const m = Math.max(0, Math.min(n, this.size - from));
    return (column === 'category' ? this.category : this.status).codes(m, 0, out ?? new Uint8Array(m), from);
  }
  /**
   * Per event, its parent's index or -1 (`parent(i)` of each), as one array: a view of the table's own column,
   * for reading only (no copy of four bytes an event; a copy when some event has a display parent); a later
   * append may give the table a new column.
   */
  parents(): Int32Array {
    if (this.displays === 0) return this.parentCol.data.subarray(0, this.size);
    const out = new Int32Array(this.size);
    for (let i = 0; i < out.length; i++) out[i] = this.parent(i);
    return out;
  }

  /** The different categories of the events, in the order they first appear, at most `max`. */
  distinctCategories(max: number): EventCategory[] {
    return this.category.distinct(this.size, max).map((c) => EVENT_CATEGORIES[c]);
  }

  /**
   * Drops the spare capacity of every column once a read is finished (a doubling buffer is up to half empty),
   * except a spare of at most a sixteenth (left by {@link reserve}), which costs less than the moment of twice
   * the memory a copy takes; a read that goes on (a tail) grows them again.
   */
  trim(): void {
    const slack = this.n >> 4;
    for (const c of this.numberColumns()) c.trim(this.n, slack);
    this.parentCol.trim(this.n, slack);
    this.ids.trim(slack);
    this.labels.trim(this.n, slack);
    this.mentions.trim(this.n, slack);
    this.usageFacts.trim();
  }

  /**
   * Room for about `n` events in every per-event column: a read that can tell how many events the file holds
   * (from its size and the events of the bytes read so far) sizes its columns once instead of doubling them.
   */
  reserve(n: number): void {
    for (const c of this.numberColumns()) c.reserve(n);
    this.parentCol.reserve(n);
    this.ids.reserve(n);
    // Ids in the same share of the events as so far: a format whose events have none keeps no index for them.
    if (this.n > 0) this.idIndex.reserve(Math.ceil((n * this.idIndex.size) / this.n));
    this.labels.reserve(n);
    this.mentions.reserve(n);
  }

  private numberColumns(): (NumberColumn | CounterColumn)[] {
    return [this.lineDelta, this.offset, this.length, this.seq, this.time, this.duration, this.tokensIn, this.tokensOut, this.status, this.category, this.kind, this.modelCol, this.toolCol, this.groupCol, this.parentFromId, this.structural, this.displayBack];
  }

  /** Bytes held by each column and index, for the memory breakdown of `npm run bench`. */
  footprint(): Record<string, number> {
    const cols = { line: this.lineDelta, offset: this.offset, length: this.length, seq: this.seq, time: this.time, duration: this.duration, tokensIn: this.tokensIn, tokensOut: this.tokensOut, status: this.status, category: this.category, kind: this.kind, model: this.modelCol, tool: this.toolCol, group: this.groupCol, parentFromId: this.parentFromId, structural: this.structural, displayBack: this.displayBack };
    const out: Record<string, number> = { parent: this.parentCol.data.byteLength };
    for (const [name, c] of Object.entries(cols)) out[name] = c.byteSize;
    return { ...out, ids: this.ids.byteSize, idIndex: this.idIndex.byteSize, ...this.labels.footprint(), ...this.mentions.footprint(), usageRefs: this.usageFacts.byteSize };
  }

  /** Materializes event `i` as a plain object. */
  get(i: number): TraceEvent {
    const table = this;
    return {
      index: i,
      line: this.lineOf(i),
      offset: this.offset.raw(i),
      length: this.length.raw(i),
      kind: this.kindOf(i),
      category: this.categoryOf(i),
      id: this.id(i),
      parentId: this.parentId(i),
      parent: this.parent(i),
      seq: this.seq.get(i),
      time: this.time.get(i),
      durationMs: this.duration.get(i),
      status: this.statusOf(i),
      // Made from the line's bytes when derived: only a caller that reads it pays.
      get label() {
        return table.labelOf(i);
      },
      tokensIn: this.tokensIn.get(i),
      tokensOut: this.tokensOut.get(i),
      model: this.strings.value(this.modelCol.raw(i)),
      tool: this.strings.value(this.toolCol.raw(i)),
      group: this.groupOf(i),
      hashRefs: this.hashRefsOf(i),
      mentions: this.mentionsOf(i),
    };
  }
}
