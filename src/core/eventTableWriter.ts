import { Buffer } from 'buffer';
import { EVENT_STATUSES, EventDraft, EventPlace, TraceEvent } from './model';
import type { UsageDraft } from './usageTypes';
import type { LabelDeriver, LineBytes } from './derivedLabels';
import { CATEGORY_INDEX, EventColumns, STATUS_INDEX } from './eventColumns';

/**
 * Writing the event table: appending the events a format's builder emits, and what is set on an event after it
 * was added: its duration, status and usage by the builder (through `BuilderSource`, once a later line tells), its
 * parent link by the tree builder. Reading is eventTable.ts's job.
 */
export abstract class EventTableWriter extends EventColumns {
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

  /**
   * Appends an event and returns its index; `value` is the parsed line it came from, when labels may be derived;
   * `part`: the file it was read from (TraceModel.parts; 0, the main file, unless a session's parts are added).
   */
  add(draft: EventDraft, place: EventPlace, value?: unknown, part = 0): number {
    const i = this.n++;
    this.partCol.set(i, part);
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
  /** Where the event is shown (see EventDraft.displayParent): an earlier event, or a root. */
  private addDisplayParent(i: number, display: number | undefined): void {
    if (display === undefined) return this.displayBack.set(i, null);
    this.displays++;
    this.displayBack.set(i, display >= 0 && display < i ? i - display : 0);
  }

  /** Makes event i a root of the display (a cycle through display parents and forward links is cut there). */
  cutDisplayParent(i: number): void {
    this.displayBack.set(i, 0);
  }

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

  /** Sets a duration derived after the fact (e.g. from a matching end event). */
  setDuration(i: number, ms: number): void {
    this.duration.set(i, ms);
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
}
