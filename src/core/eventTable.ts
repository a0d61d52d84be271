import { EVENT_CATEGORIES, EVENT_STATUSES, EventCategory, HashRef, IdMention, TraceEvent } from './model';
import type { UsageDraft } from './usageTypes';
import type { LabelFacts } from './derivedLabels';
import { EventTableWriter } from './eventTableWriter';

/**
 * Compact, column-wise store of a trace's events (its columns: eventColumns.ts; appending and the setters after:
 * eventTableWriter.ts), and everything read from it: one fact of one event, one fact of every event as an array
 * (for passes over the whole table), the distinct values of a column, and a whole event as a plain object.
 */
export class EventTable extends EventTableWriter {
  /**
   * A view of the first `n` events that shares this table's columns: `size` stays `n` while the table grows
   * (an early partial model is shown while the read goes on). Writes through the view reach this table.
   */
  prefix(n: number): EventTable {
    return Object.create(this, { size: { value: Math.min(n, this.n) } }) as EventTable;
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
  /** The part (file) event i was read from: 0 for the main file, k for `TraceModel.parts[k]` (its line, offset and length are in that file). */
  partOf(i: number): number {
    return this.partCol.raw(i);
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
