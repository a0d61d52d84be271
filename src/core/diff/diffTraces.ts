import type { TraceModel } from '../traceModel';
import { alignTrees, AlignedOp, DiffOpKind } from './alignTrees';
import { digestEvents, eventFieldsOf } from './eventContent';
import type { FlatField } from './flattenJson';
import type { LineDigests } from './lineDigests';
import { diffFields, FieldChange } from './fieldDiff';
import { DiffContext, sameShape } from './signature';
import { eventCostUsd, runTotals } from './runCost';
import { neutralFieldChanges } from './neutralFields';
import { DEFAULT_DIFF_THRESHOLDS, DiffSummary, DiffThresholds, ThresholdChanges } from './diffTypes';
import type { ModelPrice } from '../usage/prices';
import { eventFacts, known } from './eventFacts';
import { readRanges } from '../byteSource';

export type { DiffOpKind, AlignedOp, FieldChange, DiffSummary, DiffThresholds };

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
  /** When a paired event's duration or tokens differ enough to make it a change (defaults: DEFAULT_DIFF_THRESHOLDS). */
  thresholds?: Partial<DiffThresholds>;
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


/**
 * The lines of each run that are not JSON (torn, cut, zeroed, edited): no event stands for them, so the event
 * diff cannot see them. Two runs whose unreadable lines differ in text or number are not equivalent.
 */
export interface MalformedDiff {
  /** Each side's unreadable line numbers, in file order. */
  a: number[];
  b: number[];
  /**
   * The first pair of unreadable lines whose text differs (compared in file order), a side's line null when it
   * has fewer; null when both runs have the same unreadable lines.
   */
  firstDifference: { aLine: number | null; bLine: number | null } | null;
}

/** The diff of two traces: the merged tree in preorder and where the runs first part. */
export interface TraceDiff {
  a: TraceModel;
  b: TraceModel;
  sameShape: boolean;
  ops: DiffOp[];
  /** Index into `ops` of the first op that is not `equal`, or -1 when the events are equivalent. */
  firstDivergence: number;
  summary: DiffSummary;
  /** The unreadable lines of both runs; the runs are equivalent only when the events and these agree. */
  malformed: MalformedDiff;
}

/** True when the runs are equivalent: no event differs and their unreadable lines are the same. */
export function equivalent(d: TraceDiff): boolean {
  return d.firstDivergence < 0 && d.malformed.firstDifference === null;
}

/** Unreadable lines read back at once to compare their text: bounded memory for a run with very many. */
const MALFORMED_BATCH = 4096;

/** Compares the texts of the two runs' unreadable lines in file order (see {@link MalformedDiff}). */
async function diffMalformed(a: TraceModel, b: TraceModel): Promise<MalformedDiff> {
  const out: MalformedDiff = { a: a.malformed.map((m) => m.line), b: b.malformed.map((m) => m.line), firstDifference: null };
  const n = Math.min(a.malformed.length, b.malformed.length);
  for (let k = 0; k < n; k += MALFORMED_BATCH) {
    const end = Math.min(n, k + MALFORMED_BATCH);
    const ranges = (m: TraceModel) => m.malformed.slice(k, end).map((x) => [x.offset, x.length] as const);
    const ta = await readRanges(a.path, a.compression, ranges(a));
    const tb = await readRanges(b.path, b.compression, ranges(b));
    for (let j = 0; j < ta.length; j++) {
      if (!ta[j].equals(tb[j])) {
        out.firstDifference = { aLine: out.a[k + j], bLine: out.b[k + j] };
        return out;
      }
    }
  }
  if (a.malformed.length !== b.malformed.length) out.firstDifference = { aLine: out.a[n] ?? null, bLine: out.b[n] ?? null };
  return out;
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

function fieldChanges(ctx: DiffContext, op: AlignedOp, fa: FlatField[] | null, fb: FlatField[] | null): Pick<DiffOp, 'fields' | 'fieldsOmitted'> {
  if (fa !== null && fb !== null) {
    const { fields, omitted } = diffFields(fa, fb);
    if (fields.length === 0) return { fields: neutralFieldChanges(ctx.a.model, op.a, ctx.b.model, op.b) };
    return omitted > 0 ? { fields, fieldsOmitted: omitted } : { fields };
  }
  return { fields: neutralFieldChanges(ctx.a.model, op.a, ctx.b.model, op.b) };
}

/** Whether two known values of one fact differ past the thresholds (absolute amount and share of the larger). */
function beyond(x: number | null, y: number | null, least: number, ratio: number): boolean {
  if (x === null || y === null) return false;
  const d = Math.abs(y - x);
  return d > 0 && d >= least && d >= ratio * Math.max(Math.abs(x), Math.abs(y));
}

/**
 * The facts of a paired event that moved past the thresholds, as field changes (`durationMs`, `tokens`): ids and
 * times are left out of the field diff, so a tool call 125 s slower would otherwise read as equal.
 */
function thresholdFields(ctx: DiffContext, op: AlignedOp, t: DiffThresholds): FieldChange[] {
  if (op.a < 0 || op.b < 0) return [];
  const out: FieldChange[] = [];
  const da = known(ctx.a.facts.durationMs[op.a]);
  const db = known(ctx.b.facts.durationMs[op.b]);
  if (beyond(da, db, t.durationMs, t.ratio)) out.push({ path: 'durationMs', a: da, b: db });
  const ta = known(ctx.a.facts.tokens[op.a]);
  const tb = known(ctx.b.facts.tokens[op.b]);
  if (beyond(ta, tb, t.tokens, t.ratio)) out.push({ path: 'tokens', a: ta, b: tb });
  return out;
}

/** Changed events whose lines are read again at once: few enough that their flattened fields stay small. */
const FIELD_BATCH = 1024;

/** Lists the fields that differ for each `change` op, each side's lines re-read in batches through one open file. */
async function addChangedFields(ctx: DiffContext, changes: DiffOp[], includeVolatile: boolean): Promise<void> {
  const options = { includeVolatile };
  for (let k = 0; k < changes.length; k += FIELD_BATCH) {
    const batch = changes.slice(k, k + FIELD_BATCH);
    // Fields compare only between files written the same way; across shapes, the neutral facts do.
    const fa = ctx.sameShape ? await eventFieldsOf(ctx.a.model, batch.map((op) => op.a), options) : null;
    const fb = ctx.sameShape ? await eventFieldsOf(ctx.b.model, batch.map((op) => op.b), options) : null;
    batch.forEach((op, j) => Object.assign(op, fieldChanges(ctx, op, fa?.[j] ?? null, fb?.[j] ?? null)));
  }
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
  const changes: DiffOp[] = [];
  const thresholds: DiffThresholds = { ...DEFAULT_DIFF_THRESHOLDS, ...options.thresholds };
  const moved: ThresholdChanges = { duration: 0, durationDeltaMs: 0, tokens: 0, tokensDelta: 0, thresholds };
  const movedFields = new Map<DiffOp, FieldChange[]>();
  for (const op of aligned) {
    const full: DiffOp = Object.assign(op as DiffOp, deltas(ctx, op, options.prices ?? {}));
    const facts = thresholdFields(ctx, op, thresholds);
    if (facts.length > 0) {
      if (full.op === 'equal') full.op = 'change';
      movedFields.set(full, facts);
      for (const f of facts) {
        if (f.path === 'durationMs') (moved.duration++, (moved.durationDeltaMs += full.durationDeltaMs ?? 0));
        else (moved.tokens++, (moved.tokensDelta += full.tokensDelta ?? 0));
      }
    }
    counts[full.op]++;
    if (firstDivergence < 0 && full.op !== 'equal') firstDivergence = ops.length;
    if (full.op === 'change') changes.push(full);
    ops.push(full);
  }
  await addChangedFields(ctx, changes, includeVolatile);
  // The moved facts after the content's fields (a field the content diff already names is not repeated).
  for (const [op, facts] of movedFields) {
    const have = new Set((op.fields ?? []).map((f) => f.path));
    op.fields = [...(op.fields ?? []), ...facts.filter((f) => !have.has(f.path))];
  }
  // One rollup per run for the totals and every op's cost.
  const sa = runTotals(a, options.prices);
  const sb = runTotals(b, options.prices);
  const malformed = await diffMalformed(a, b);
  return {
    a, b, sameShape: ctx.sameShape, ops, firstDivergence, malformed,
    summary: {
      equal: counts.equal, inserted: counts.insert, deleted: counts.delete, changed: counts.change,
      durationDeltaMs: minus(sb.durationMs, sa.durationMs),
      tokensDelta: minus(sb.tokens, sa.tokens),
      costDeltaUsd: minus(sb.costUsd, sa.costUsd),
      thresholdChanges: moved,
    },
  };
}
