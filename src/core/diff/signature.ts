import type { TraceModel } from '../traceModel';
import type { EventDigests } from './eventContent';
import { comparableLabel } from './neutralFields';
import { TextHash } from './textHash';
import type { EventFacts } from './eventFacts';

/** One trace as the diff sees it: the model and its events' digests. */
export interface DiffSide {
  model: TraceModel;
  digests: EventDigests;
  facts: EventFacts;
}

/** The two sides and how they are compared. */
export interface DiffContext {
  a: DiffSide;
  b: DiffSide;
  /**
   * Both files are written the same way (same format and the same kind of file). When not (agentledger's
   * `events.jsonl` against its span file `trace.jsonl`), their JSON has different fields, so events are matched
   * and compared by the facts the adapters read from both: kind, depth, status, tokens.
   */
  sameShape: boolean;
}

/** Whether two traces are written the same way, so their events' JSON can be compared field by field. */
export function sameShape(a: TraceModel, b: TraceModel): boolean {
  // The detector's reason names the kind of file (`span lines (trace.jsonl)`); its counts (`7/7 records`) do not.
  const kindOfFile = (m: TraceModel): string => m.detection.reason.replace(/\d+/g, '#');
  return a.format === b.format && a.document === b.document && kindOfFile(a) === kindOfFile(b)
    && (a.detection.dialect ?? '') === (b.detection.dialect ?? '');
}

/**
 * Interns digests (whole numbers below 2^53) to small integers in order of first sight, so the diff compares
 * dense numbers. An open-addressing table over typed arrays: a Map keyed by numbers this large boxes each key.
 */
export class KeyIds {
  private keys = new Float64Array(1 << 12);
  private ids = new Int32Array(1 << 12).fill(-1);
  private count = 0;

  of(key: number): number {
    const mask = this.ids.length - 1;
    for (let slot = slotOf(key, mask); ; slot = (slot + 1) & mask) {
      const id = this.ids[slot];
      if (id < 0) return this.insert(slot, key);
      if (this.keys[slot] === key) return id;
    }
  }

  private insert(slot: number, key: number): number {
    const id = this.count++;
    this.keys[slot] = key;
    this.ids[slot] = id;
    if (2 * this.count > this.ids.length) this.grow();
    return id;
  }

  /** Doubles the table, placing every key again. */
  private grow(): void {
    const { keys, ids } = this;
    this.keys = new Float64Array(2 * keys.length);
    this.ids = new Int32Array(2 * ids.length).fill(-1);
    const mask = this.ids.length - 1;
    for (let k = 0; k < ids.length; k++) {
      if (ids[k] < 0) continue;
      let slot = slotOf(keys[k], mask);
      while (this.ids[slot] >= 0) slot = (slot + 1) & mask;
      this.keys[slot] = keys[k];
      this.ids[slot] = ids[k];
    }
  }
}

/** A table slot for a digest: its low and high 32 bits mixed (they are hash bits already, but not evenly spread). */
function slotOf(key: number, mask: number): number {
  const h = Math.imul((key >>> 0) ^ Math.imul((key / 0x100000000) | 0, 0x9e3779b1), 0x85ebca6b);
  return (h ^ (h >>> 15)) & mask;
}

/** Signatures of both sides at two levels, as small integers: `exact` refines `coarse` with the content. */
export interface Signatures {
  /** kind, tool or model, the arguments' digest, depth: never ids or times, so two runs of one task match. */
  coarse: { a: Int32Array; b: Int32Array };
  /** The coarse signature plus the content digest: aligning on it first keeps an unchanged event with its twin. */
  exact: { a: Int32Array; b: Int32Array };
}

// Digests rather than joined strings as keys: interning 200k long strings cost more than the rest of the alignment.
function coarseKey(ctx: DiffContext, side: DiffSide, i: number, h: TextHash): number {
  const { model, digests } = side;
  h.reset().update(model.events.kindOf(i)).mix(model.tree.depth(i));
  return ctx.sameShape ? h.update('\u0000').update(side.facts.subject[i]).mix(digests.args[i]).value() : h.value();
}

function exactKey(ctx: DiffContext, side: DiffSide, i: number, coarse: number, h: TextHash): number {
  if (!ctx.sameShape) return coarse;
  const c = side.digests.content[i];
  const e = side.model.events;
  h.reset().mix(coarse);
  return !Number.isNaN(c) ? h.mix(c).value() : h.update(e.statusOf(i)).update('\u0000').update(comparableLabel(e.labelOf(i))).value();
}

/** The alignment signatures of every event of both sides. */
export function signatures(ctx: DiffContext): Signatures {
  const coarseIds = new KeyIds();
  const exactIds = new KeyIds();
  const h = new TextHash();
  const one = (side: DiffSide): { coarse: Int32Array; exact: Int32Array } => {
    const n = side.model.events.size;
    const coarse = new Int32Array(n);
    const exact = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const key = coarseKey(ctx, side, i, h);
      coarse[i] = coarseIds.of(key);
      exact[i] = exactIds.of(exactKey(ctx, side, i, key, h));
    }
    return { coarse, exact };
  };
  const a = one(ctx.a);
  const b = one(ctx.b);
  return { coarse: { a: a.coarse, b: b.coarse }, exact: { a: a.exact, b: b.exact } };
}

/** What a deleted and an inserted event must share to be shown as one changed event (same kind and tool). */
export function pairKey(ctx: DiffContext, side: DiffSide, i: number): string {
  // Tool of a tool event, else model: what tells two events of one kind apart.
  return ctx.sameShape ? `${side.model.events.kindOf(i)}\u0000${side.facts.subject[i]}` : side.model.events.kindOf(i);
}

function sameWhereBothKnown(x: string | number | null, y: string | number | null): boolean {
  return x === null || y === null || x === y;
}

/** Whether two aligned events have the same content (normalized JSON, or neutral facts across shapes). */
export function contentEqual(ctx: DiffContext, ai: number, bi: number): boolean {
  const ca = ctx.a.digests.content[ai];
  const cb = ctx.b.digests.content[bi];
  if (ctx.sameShape && !Number.isNaN(ca) && !Number.isNaN(cb)) return ca === cb;
  const ea = ctx.a.model.events.get(ai);
  const eb = ctx.b.model.events.get(bi);
  return ea.kind === eb.kind && ea.status === eb.status && ea.category === eb.category
    && sameWhereBothKnown(ea.tokensIn, eb.tokensIn) && sameWhereBothKnown(ea.tokensOut, eb.tokensOut)
    && sameWhereBothKnown(ea.tool, eb.tool) && sameWhereBothKnown(ea.model, eb.model)
    && (!ctx.sameShape || comparableLabel(ea.label) === comparableLabel(eb.label));
}
