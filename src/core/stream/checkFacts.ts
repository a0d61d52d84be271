import type { EventSink } from '../jsonlReading';
import type { CheckEvents } from '../checks/types';
import type { EventDraft, EventPlace, HashRef } from '../model';
import { Growing } from './growing';
import { TreeLinks } from './treeLinks';
import { Interner } from '../tableColumns';

/** Why a streamed run must hand the file to the model-based checks instead. */
export type NeedsModel = 'usage';

/**
 * The per-event facts the checks read, and nothing else: line, seq, time, group, the rare hash references and
 * the tree's links ({@link TreeLinks}: ids as numbers of one byte store), about 32 bytes an event plus the ids'
 * own bytes, where the viewer's table keeps labels, kinds, mentions and a map of every id. It records when an
 * event carries usage, which only the model can check (the totals rule needs the tree), so the runner can fall back.
 */
export class CheckFacts implements EventSink, CheckEvents {
  private n = 0;
  private readonly lines = new Growing(new Int32Array(1024), (k) => new Int32Array(k));
  private readonly seqs = new Growing(new Float64Array(1024), (k) => new Float64Array(k));
  private readonly times = new Growing(new Float64Array(1024), (k) => new Float64Array(k));
  private readonly groups = new Growing(new Int32Array(1024), (k) => new Int32Array(k));
  /** Group names interned: 0 stands for no group. */
  private readonly groupNames = new Interner();
  private readonly refs = new Map<number, HashRef[]>();
  readonly links = new TreeLinks((i) => this.lineOf(i));
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
    this.groups.push(i, this.groupNames.id(draft.group));
    if (draft.hashRefs && draft.hashRefs.length > 0) this.refs.set(i, draft.hashRefs);
    this.links.add(i, draft.id, draft.parentId, draft.parentIndex);
    if (draft.usage !== undefined || draft.tokensIn != null || draft.tokensOut != null) this.needsModel ??= 'usage';
    return i;
  }

  /** A check's facts keep no labels: a builder's label left to its line is never made. */
  labelsOnDemand(): boolean {
    return true;
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
    return this.groupNames.value(this.groups.at(i));
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
  eventsWithHashRefs(): number[] {
    return [...this.refs.keys()];
  }
}

/** As the event table stores numbers: only finite ones, NaN for the rest. */
function finite(v: number | null | undefined): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : NaN;
}

function orNull(v: number): number | null {
  return Number.isNaN(v) ? null : v;
}
