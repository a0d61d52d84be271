import type { EventSink } from '../jsonlReading';
import type { CheckEvents } from '../rules/types';
import type { EventDraft, EventPlace, HashRef } from '../model';
import { NumberColumn } from '../numberColumn';
import { TreeLinks } from './treeLinks';
import { Interner } from '../tableColumns';

/**
 * The per-event facts the checks read, and nothing else: line, seq, time, group, the rare hash references and
 * the tree's links ({@link TreeLinks}: ids as numbers of one byte store), where the viewer's table keeps labels,
 * kinds, mentions and a map of every id. Each is a {@link NumberColumn}, so a column that holds one value (a
 * run's group, a format without ids, lines one event each) costs nothing and the others take the narrowest width:
 * a lumen run keeps under 12 bytes an event (was 36 in plain Int32 and Float64 arrays). A streamed verification
 * reads into it; conformance (whose usage totals rule needs the tree) reads through the model instead.
 */
export class CheckFacts implements EventSink, CheckEvents {
  private n = 0;
  /** Line minus event index: one value while each event is one line. */
  private readonly lines = new NumberColumn();
  private readonly seqs = new NumberColumn(true);
  private readonly times = new NumberColumn(true);
  private readonly groups = new NumberColumn();
  /** Group names interned: 0 stands for no group. */
  private readonly groupNames = new Interner();
  private readonly refs = new Map<number, HashRef[]>();
  readonly links = new TreeLinks((i) => this.lineOf(i));

  get size(): number {
    return this.n;
  }

  add(draft: EventDraft, place: EventPlace): number {
    const i = this.n++;
    this.lines.set(i, place.line - i);
    this.seqs.set(i, draft.seq);
    this.times.set(i, draft.time);
    this.groups.set(i, this.groupNames.id(draft.group));
    if (draft.hashRefs && draft.hashRefs.length > 0) this.refs.set(i, draft.hashRefs);
    this.links.add(i, draft.id, draft.parentId, draft.parentIndex);
    return i;
  }

  /** Room for about `n` events in every column at once (sized by eventSizer as the file is read). */
  reserve(n: number): void {
    for (const c of [this.lines, this.seqs, this.times, this.groups]) c.reserve(n);
    this.links.reserve(n, this.n);
  }

  /** A check's facts keep no labels: a builder's label left to its line is never made. */
  labelsOnDemand(): boolean {
    return true;
  }

  // Durations and statuses are the views' facts; no check reads them.
  setDuration(): void {}
  setStatus(): void {}
  // Usage is the model's fact: conformance, whose usage totals rule reads it, checks over the model.
  setUsage(): void {}

  lineOf(i: number): number {
    return i + this.lines.raw(i);
  }
  seqOf(i: number): number | null {
    return this.seqs.get(i);
  }
  timeOf(i: number): number | null {
    return this.times.get(i);
  }
  groupOf(i: number): string | null {
    return this.groupNames.value(this.groups.raw(i));
  }
  id(i: number): string | null {
    return this.links.id(i);
  }
  parentId(i: number): string | null {
    return this.links.parentId(i);
  }
  parent(i: number): number {
    return this.links.parent(i);
  }
  hashRefsOf(i: number): HashRef[] {
    return this.refs.get(i) ?? [];
  }
  /** Bytes of the per-event columns (not the ids' own bytes or the rare hash references). */
  get byteSize(): number {
    return this.lines.byteSize + this.seqs.byteSize + this.times.byteSize + this.groups.byteSize + this.links.byteSize;
  }
  eventsWithHashRefs(): number[] {
    return [...this.refs.keys()];
  }
}
