import type { TraceModel } from '../traceModel';
import type { EventDigests } from './eventContent';
import { comparableLabel } from './neutralFields';

/** One trace as the diff sees it: the model and its events' digests. */
export interface DiffSide {
  model: TraceModel;
  digests: EventDigests;
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
  return a.format === b.format && a.document === b.document && a.detection.reason === b.detection.reason
    && (a.detection.dialect ?? '') === (b.detection.dialect ?? '');
}

/** Tool of a tool event, else model: what tells two events of one kind apart. */
function subject(m: TraceModel, i: number): string {
  const e = m.events.get(i);
  return e.tool ?? e.model ?? '';
}

/**
 * The alignment signature of every event of both sides, interned to small integers so the diff compares numbers:
 * kind, tool or model, the arguments' digest and depth; never ids or times, so two runs of one task match.
 */
export function signatures(ctx: DiffContext): { a: Int32Array; b: Int32Array } {
  const ids = new Map<string, number>();
  const one = (side: DiffSide): Int32Array => {
    const { model, digests } = side;
    const out = new Int32Array(model.events.size);
    for (let i = 0; i < out.length; i++) {
      const key = ctx.sameShape
        ? `${model.events.kindOf(i)}\u0000${subject(model, i)}\u0000${digests.args[i]}\u0000${model.tree.depth(i)}`
        : `${model.events.kindOf(i)}\u0000${model.tree.depth(i)}`;
      let id = ids.get(key);
      if (id === undefined) ids.set(key, (id = ids.size));
      out[i] = id;
    }
    return out;
  };
  return { a: one(ctx.a), b: one(ctx.b) };
}

/** What a deleted and an inserted event must share to be shown as one changed event (same kind and tool). */
export function pairKey(ctx: DiffContext, side: DiffSide, i: number): string {
  return ctx.sameShape ? `${side.model.events.kindOf(i)}\u0000${subject(side.model, i)}` : side.model.events.kindOf(i);
}

function sameWhereBothKnown(x: string | number | null, y: string | number | null): boolean {
  return x === null || y === null || x === y;
}

/** Whether two aligned events have the same content (normalized JSON, or neutral facts across shapes). */
export function contentEqual(ctx: DiffContext, ai: number, bi: number): boolean {
  const ca = ctx.a.digests.content[ai];
  const cb = ctx.b.digests.content[bi];
  if (ctx.sameShape && ca !== '' && cb !== '') return ca === cb;
  const ea = ctx.a.model.events.get(ai);
  const eb = ctx.b.model.events.get(bi);
  return ea.kind === eb.kind && ea.status === eb.status && ea.category === eb.category
    && sameWhereBothKnown(ea.tokensIn, eb.tokensIn) && sameWhereBothKnown(ea.tokensOut, eb.tokensOut)
    && sameWhereBothKnown(ea.tool, eb.tool) && sameWhereBothKnown(ea.model, eb.model)
    && (!ctx.sameShape || comparableLabel(ea.label) === comparableLabel(eb.label));
}
