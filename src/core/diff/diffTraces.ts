import type { TraceModel } from '../traceModel';
import { summarize } from '../summary';
import { alignTrees, AlignedOp, DiffOpKind } from './alignTrees';
import { digestEvents, eventFields } from './eventContent';
import type { LineDigests } from './lineDigests';
import { diffFields, FieldChange } from './fieldDiff';
import { DiffContext, sameShape } from './signature';
import { eventCostUsd, rollupOf } from './runCost';
import { neutralFieldChanges } from './neutralFields';
import type { DiffSummary } from './diffTypes';
import type { ModelPrice } from '../usage/prices';
import { eventFacts, known } from './eventFacts';
import type { TraceSummary } from '../summary';

export type { DiffOpKind, AlignedOp, FieldChange, DiffSummary };

/** Options of {@link diffTraces}. */
export interface DiffOptions {
  /** Compare ids, times and hashes too (left out by default: they differ between any two runs). */
  includeVolatile?: boolean;
  /** The user's prices, looked up before the bundled table (see core/usage/prices). */
  prices?: Readonly<Record<string, ModelPrice>>;
  /**
   * Each run's line digests, taken while it loaded (`loadTrace`'s `onRecord`), so the files are not read again;
   * used when they were taken with the same `includeVolatile`.
   */
  lineDigests?: { a?: LineDigests; b?: LineDigests };
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

/** A delta B − A of one fact: an absent side counts 0, but an inserted or deleted event with no value has none. */
function delta(op: AlignedOp, x: number | null, y: number | null): number | null {
  if ((op.a < 0 && y === null) || (op.b < 0 && x === null)) return null;
  return minus(op.b < 0 ? 0 : y, op.a < 0 ? 0 : x);
}

function deltas(ctx: DiffContext, op: AlignedOp, prices: Readonly<Record<string, ModelPrice>>): Pick<DiffOp, 'durationDeltaMs' | 'tokensDelta' | 'costDeltaUsd'> {
  const fa = ctx.a.facts;
  const fb = ctx.b.facts;
  const at = <T>(i: number, f: (i: number) => T): T | null => (i < 0 ? null : f(i));
  return {
    durationDeltaMs: delta(op, at(op.a, (i) => known(fa.durationMs[i])), at(op.b, (i) => known(fb.durationMs[i]))),
    tokensDelta: delta(op, at(op.a, (i) => known(fa.tokens[i])), at(op.b, (i) => known(fb.tokens[i]))),
    costDeltaUsd: delta(op, at(op.a, (i) => eventCostUsd(ctx.a.model, i, prices)), at(op.b, (i) => eventCostUsd(ctx.b.model, i, prices))),
  };
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

function totalTokens(s: TraceSummary): number | null {
  const t = s.totals;
  return t.inputTokens === null && t.outputTokens === null ? null : (t.inputTokens ?? 0) + (t.outputTokens ?? 0);
}

/**
 * Compares two loaded traces: aligns their trees parent by parent on signatures that ignore ids and times,
 * lists the fields that differ for each changed event (re-read from the files) and the B − A deltas.
 */
export async function diffTraces(a: TraceModel, b: TraceModel, options: DiffOptions = {}): Promise<TraceDiff> {
  const includeVolatile = options.includeVolatile ?? false;
  const ctx: DiffContext = {
    a: { model: a, digests: await digestEvents(a, { includeVolatile }, options.lineDigests?.a), facts: eventFacts(a) },
    b: { model: b, digests: await digestEvents(b, { includeVolatile }, options.lineDigests?.b), facts: eventFacts(b) },
    sameShape: sameShape(a, b),
  };
  const aligned = alignTrees(ctx);
  const ops: DiffOp[] = [];
  const counts: Record<DiffOpKind, number> = { equal: 0, insert: 0, delete: 0, change: 0 };
  let firstDivergence = -1;
  for (const op of aligned) {
    counts[op.op]++;
    if (firstDivergence < 0 && op.op !== 'equal') firstDivergence = ops.length;
    const full: DiffOp = Object.assign(op as DiffOp, deltas(ctx, op, options.prices ?? {}));
    if (op.op === 'change') Object.assign(full, await changedFields(ctx, op, includeVolatile));
    ops.push(full);
  }
  // One rollup per run for the totals and every op's cost; the summary's usage report is the run's cost.
  const sa = summarize(a, { prices: options.prices, rollup: rollupOf(a) });
  const sb = summarize(b, { prices: options.prices, rollup: rollupOf(b) });
  return {
    a, b, sameShape: ctx.sameShape, ops, firstDivergence,
    summary: {
      equal: counts.equal, inserted: counts.insert, deleted: counts.delete, changed: counts.change,
      durationDeltaMs: minus(sb.durationMs, sa.durationMs),
      tokensDelta: minus(totalTokens(sb), totalTokens(sa)),
      costDeltaUsd: minus(sb.usage.total.costUsd, sa.usage.total.costUsd),
    },
  };
}
