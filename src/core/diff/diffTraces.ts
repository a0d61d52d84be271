import type { TraceModel } from '../traceModel';
import { summarize } from '../summary';
import { alignTrees, AlignedOp, DiffOpKind } from './alignTrees';
import { digestEvents, eventFields } from './eventContent';
import { diffFields, FieldChange } from './fieldDiff';
import { DiffContext, sameShape } from './signature';
import { eventCostUsd, traceCostUsd } from './runCost';
import { neutralFieldChanges } from './neutralFields';

export type { DiffOpKind, AlignedOp, FieldChange };

/** Options of {@link diffTraces}. */
export interface DiffOptions {
  /** Compare ids, times and hashes too (left out by default: they differ between any two runs). */
  includeVolatile?: boolean;
}

/** One row of the diff with what changed and what it cost. Deltas are B − A; null when unknown. */
export interface DiffOp extends AlignedOp {
  /** For `change`: the fields that differ. */
  fields?: FieldChange[];
  /** Field changes beyond those listed. */
  fieldsOmitted?: number;
  durationDeltaMs: number | null;
  tokensDelta: number | null;
  costDeltaUsd: number | null;
}

/** Counts and B − A totals of a diff (durations from each run's time span, tokens from its totals). */
export interface DiffSummary {
  equal: number;
  inserted: number;
  deleted: number;
  changed: number;
  durationDeltaMs: number | null;
  tokensDelta: number | null;
  costDeltaUsd: number | null;
}

/** The diff of two traces: the merged tree in preorder and where the runs first part. */
export interface TraceDiff {
  a: TraceModel;
  b: TraceModel;
  sameShape: boolean;
  ops: DiffOp[];
  /** Index into `ops` of the first op that is not `equal`, or -1 when the runs are equivalent. */
  firstDivergence: number;
  summary: DiffSummary;
}

function minus(b: number | null, a: number | null): number | null {
  return a === null || b === null ? null : b - a;
}

function tokensOf(m: TraceModel, i: number): number | null {
  const e = m.events.get(i);
  return e.tokensIn === null && e.tokensOut === null ? null : (e.tokensIn ?? 0) + (e.tokensOut ?? 0);
}

/** A value of side X for an op: the event's, 0 when the event is absent on that side (inserted or deleted). */
function sideValue(m: TraceModel, i: number, f: (m: TraceModel, i: number) => number | null): number | null {
  return i < 0 ? 0 : f(m, i);
}

function deltas(a: TraceModel, b: TraceModel, op: AlignedOp): Pick<DiffOp, 'durationDeltaMs' | 'tokensDelta' | 'costDeltaUsd'> {
  const dur = (m: TraceModel, i: number) => m.events.get(i).durationMs;
  const d = (f: (m: TraceModel, i: number) => number | null): number | null => {
    const x = sideValue(a, op.a, f);
    const y = sideValue(b, op.b, f);
    // An insert of an event with no duration has no duration delta, not a delta of 0.
    if ((op.a < 0 && y === null) || (op.b < 0 && x === null)) return null;
    return minus(y, x);
  };
  return { durationDeltaMs: d(dur), tokensDelta: d(tokensOf), costDeltaUsd: d(eventCostUsd) };
}

async function changedFields(ctx: DiffContext, op: AlignedOp, includeVolatile: boolean): Promise<Pick<DiffOp, 'fields' | 'fieldsOmitted'>> {
  if (ctx.sameShape) {
    const fa = await eventFields(ctx.a.model, op.a, { includeVolatile });
    const fb = await eventFields(ctx.b.model, op.b, { includeVolatile });
    if (fa !== null && fb !== null) {
      const { fields, omitted } = diffFields(fa, fb);
      if (fields.length === 0) return { fields: neutralFieldChanges(ctx.a.model, op.a, ctx.b.model, op.b) };
      return omitted > 0 ? { fields, fieldsOmitted: omitted } : { fields };
    }
  }
  return { fields: neutralFieldChanges(ctx.a.model, op.a, ctx.b.model, op.b) };
}

function totalTokens(m: TraceModel): number | null {
  const t = summarize(m).totals;
  return t.inputTokens === null && t.outputTokens === null ? null : (t.inputTokens ?? 0) + (t.outputTokens ?? 0);
}

/**
 * Compares two loaded traces: aligns their trees parent by parent on signatures that ignore ids and times,
 * lists the fields that differ for each changed event (re-read from the files) and the B − A deltas.
 */
export async function diffTraces(a: TraceModel, b: TraceModel, options: DiffOptions = {}): Promise<TraceDiff> {
  const includeVolatile = options.includeVolatile ?? false;
  const ctx: DiffContext = {
    a: { model: a, digests: await digestEvents(a, { includeVolatile }) },
    b: { model: b, digests: await digestEvents(b, { includeVolatile }) },
    sameShape: sameShape(a, b),
  };
  const aligned = alignTrees(ctx);
  const ops: DiffOp[] = [];
  const counts: Record<DiffOpKind, number> = { equal: 0, insert: 0, delete: 0, change: 0 };
  let firstDivergence = -1;
  for (const op of aligned) {
    counts[op.op]++;
    if (firstDivergence < 0 && op.op !== 'equal') firstDivergence = ops.length;
    const full: DiffOp = { ...op, ...deltas(a, b, op) };
    if (op.op === 'change') Object.assign(full, await changedFields(ctx, op, includeVolatile));
    ops.push(full);
  }
  const sa = summarize(a);
  const sb = summarize(b);
  return {
    a, b, sameShape: ctx.sameShape, ops, firstDivergence,
    summary: {
      equal: counts.equal, inserted: counts.insert, deleted: counts.delete, changed: counts.change,
      durationDeltaMs: minus(sb.durationMs, sa.durationMs),
      tokensDelta: minus(totalTokens(b), totalTokens(a)),
      costDeltaUsd: minus(traceCostUsd(b), traceCostUsd(a)),
    },
  };
}
