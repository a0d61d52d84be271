import type { EventSink } from '../jsonlReading';
import type { CheckEvents } from '../checks/types';
import type { EventDraft, EventPlace, HashRef } from '../model';

/** A typed array that doubles when full. */
class Growing<T extends Float64Array | Int32Array> {
  constructor(private data: T, private readonly make: (n: number) => T) {}
  push(i: number, v: number): void {
    if (i >= this.data.length) {
      const next = this.make(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[i] = v;
  }
  at(i: number): number {
    return this.data[i];
  }
}

/** Why a streamed run must hand the file to the model-based checks instead. */
export type NeedsModel = 'ids' | 'usage';

/**
 * The per-event facts the checks read, and nothing else: line, seq, time, group and the rare hash references,
 * 20 bytes an event plus the hash references, where the viewer's table keeps labels, ids, kinds and
 * mentions. It records when an event carries what only the model can check (ids and parent ids, for the tree's
 * rules; usage, for the totals rule), so the runner can fall back.
 */
export class CheckFacts implements EventSink, CheckEvents {
  private n = 0;
  private readonly lines = new Growing(new Int32Array(1024), (k) => new Int32Array(k));
  private readonly seqs = new Growing(new Float64Array(1024), (k) => new Float64Array(k));
  private readonly times = new Growing(new Float64Array(1024), (k) => new Float64Array(k));
  private readonly groups = new Growing(new Int32Array(1024), (k) => new Int32Array(k));
  private readonly groupNames: string[] = [];
  private readonly groupIds = new Map<string, number>();
  private readonly refs = new Map<number, HashRef[]>();
  /** Set once an event carries a fact only the model checks; null while none has. */
  needsModel: NeedsModel | null = null;

  get size(): number {
    return this.n;
  }

  add(draft: EventDraft, place: EventPlace): number {
    const i = this.n++;
    this.lines.push(i, place.line);
    this.seqs.push(i, finite(draft.seq));
    this.times.push(i, finite(draft.time));
    this.groups.push(i, this.groupId(draft.group));
    if (draft.hashRefs && draft.hashRefs.length > 0) this.refs.set(i, draft.hashRefs);
    // Parents named by id, or by the index of a later event, are the tree builder's to resolve (and report);
    // an earlier index cannot form a cycle, so it needs no check.
    if (draft.id != null || draft.parentId != null || (draft.parentIndex ?? -1) > i) this.needsModel ??= 'ids';
    if (draft.usage !== undefined || draft.tokensIn != null || draft.tokensOut != null) this.needsModel ??= 'usage';
    return i;
  }

  // Durations and statuses are the views' facts; no check reads them.
  setDuration(): void {}
  setStatus(): void {}

  lineOf(i: number): number {
    return this.lines.at(i);
  }
  seqOf(i: number): number | null {
    return orNull(this.seqs.at(i));
  }
  timeOf(i: number): number | null {
    return orNull(this.times.at(i));
  }
  groupOf(i: number): string | null {
    const g = this.groups.at(i);
    return g < 0 ? null : this.groupNames[g];
  }
  /** Always null: a file whose events have ids is checked over the model ({@link needsModel}). */
  id(): string | null {
    return null;
  }
  hashRefsOf(i: number): HashRef[] {
    return this.refs.get(i) ?? [];
  }
  eventsWithHashRefs(): number[] {
    return [...this.refs.keys()];
  }

  private groupId(group: string | null | undefined): number {
    if (group === null || group === undefined) return -1;
    let g = this.groupIds.get(group);
    if (g === undefined) {
      g = this.groupNames.length;
      this.groupNames.push(group);
      this.groupIds.set(group, g);
    }
    return g;
  }
}

/** As the event table stores numbers: only finite ones, NaN for the rest. */
function finite(v: number | null | undefined): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : NaN;
}

function orNull(v: number): number | null {
  return Number.isNaN(v) ? null : v;
}
