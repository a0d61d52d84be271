import { EVENT_CATEGORIES, EVENT_STATUSES, EventCategory, EventStatus, HashRef } from './model';
import type { UsageDraft } from './usageTypes';
import { Column, Interner, SharedValues } from './tableColumns';
import { NumberColumn } from './numberColumn';
import { CounterColumn } from './counterColumn';
import { MentionColumns } from './mentionColumns';
import { StringColumn } from './stringColumn';
import { IdHashIndex } from './idHashIndex';
import { LabelColumns } from './labelColumns';

/** Each status's and category's index in EVENT_STATUSES and EVENT_CATEGORIES (a lookup instead of a search per event). */
export const STATUS_INDEX = Object.fromEntries(EVENT_STATUSES.map((s, k) => [s, k])) as Record<EventStatus, number>;
export const CATEGORY_INDEX = Object.fromEntries(EVENT_CATEGORIES.map((c, k) => [c, k])) as Record<EventCategory, number>;

/**
 * The storage of the event table: one column per fact (numbers in typed arrays, repeated strings interned, rare
 * fields in sparse maps), the id index, and how that storage grows, shrinks and is measured. What is written
 * into it is eventTableWriter.ts's job, what is read from it eventTable.ts's. A million events cost a fraction of
 * the file's size.
 */
export abstract class EventColumns {
  protected n = 0;
  /** Line numbers as the difference from the event's index: the same for every event of a plain JSONL file. */
  protected readonly lineDelta = new NumberColumn(true);
  protected readonly offset = new NumberColumn();
  protected readonly length = new NumberColumn();
  protected readonly parentCol = new Column(new Int32Array(1024), (n) => new Int32Array(n));
  /** Sequence numbers as the difference from the event's index: nothing stored while they count with the events. */
  protected readonly seq = new CounterColumn();
  protected readonly time = new NumberColumn(true);
  protected readonly duration = new NumberColumn();
  protected readonly tokensIn = new NumberColumn();
  protected readonly tokensOut = new NumberColumn();
  protected readonly status = new NumberColumn();
  protected readonly category = new NumberColumn();
  protected readonly kind = new NumberColumn();
  protected readonly modelCol = new NumberColumn();
  protected readonly toolCol = new NumberColumn();
  protected readonly groupCol = new NumberColumn();
  /** Own ids as UTF-8 bytes, and the index from id to the first event that has it. */
  protected readonly ids = new StringColumn();
  protected readonly idIndex = new IdHashIndex((e, id) => this.ids.equals(e, id), (e) => this.ids.get(e)!);
  /**
   * Parent ids not resolved yet (named before their event was seen, or missing). A parent id that names an
   * earlier event is resolved when its event is added, and only the link is kept (`parentFromId`).
   */
  protected readonly pendingParentIds = new Map<number, string>();
  protected readonly labels = new LabelColumns();
  protected readonly hashRefs = new Map<number, HashRef[]>();
  /** Cache, reasoning and source facts of the events that have them (core/usage reads them), shared by shape. */
  protected readonly usageFacts = new SharedValues<UsageDraft>();
  protected readonly strings = new Interner();
  /** The ids each event mentions besides its own and its parent's. */
  readonly mentions = new MentionColumns(this.strings);
  /** 1 when the parent link came from the parent id (which `id(parent)` then gives back). */
  protected readonly parentFromId = new NumberColumn();
  /**
   * 1 when an adapter gave the parent as an index (a structural parent): it is kept in the parent column, and
   * here only when the tree changed that link (a cycle cut, a view that ends before the parent).
   */
  protected readonly structural = new NumberColumn();
  protected readonly structuralMoved = new Map<number, number>();
  /**
   * Display parents (`EventDraft.displayParent`) as the distance back from the event, 0 for a root (a byte an event
   * while parents are near); null where the adapter gave none. The parent column keeps the recorded link either way.
   */
  protected readonly displayBack = new NumberColumn();
  protected displays = 0;
  /**
   * The file each event was read from, as its part number in `TraceModel.parts` (0: the main file; a session's
   * other files follow, see core/sessionParts.ts): one value for the whole table of a single file.
   */
  protected readonly partCol = new NumberColumn();

  get size(): number {
    return this.n;
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
    return [this.lineDelta, this.offset, this.length, this.seq, this.time, this.duration, this.tokensIn, this.tokensOut, this.status, this.category, this.kind, this.modelCol, this.toolCol, this.groupCol, this.parentFromId, this.structural, this.displayBack, this.partCol];
  }

  /** Bytes held by each column and index, for the memory breakdown of `npm run bench`. */
  footprint(): Record<string, number> {
    const cols = { line: this.lineDelta, offset: this.offset, length: this.length, seq: this.seq, time: this.time, duration: this.duration, tokensIn: this.tokensIn, tokensOut: this.tokensOut, status: this.status, category: this.category, kind: this.kind, model: this.modelCol, tool: this.toolCol, group: this.groupCol, parentFromId: this.parentFromId, structural: this.structural, displayBack: this.displayBack, part: this.partCol };
    const out: Record<string, number> = { parent: this.parentCol.data.byteLength };
    for (const [name, c] of Object.entries(cols)) out[name] = c.byteSize;
    return { ...out, ids: this.ids.byteSize, idIndex: this.idIndex.byteSize, ...this.labels.footprint(), ...this.mentions.footprint(), usageRefs: this.usageFacts.byteSize };
  }
}
