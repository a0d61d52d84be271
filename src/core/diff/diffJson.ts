import type { TraceModel } from '../traceModel';
import type { DiffOp, DiffSummary, TraceDiff } from './diffTraces';
import type { FieldChange } from './fieldDiff';

/** One op of `agent-trace diff --json`; line fields are absent on the side the event is missing from. */
export interface DiffOpJson {
  op: DiffOp['op'];
  aLine?: number;
  bLine?: number;
  kind: string;
  label: string;
  depth: number;
  fields?: FieldChange[];
  fieldsOmitted?: number;
  durationDeltaMs?: number;
  tokensDelta?: number;
  costDeltaUsd?: number;
}

/** The `agent-trace diff --json` document: a public contract, extended only. */
export interface TraceDiffJson {
  a: { file: string; format: string; events: number };
  b: { file: string; format: string; events: number };
  /** Lines where the runs first part: each side's event there, or (for an event only one side has) the next one. */
  firstDivergence: { aLine: number | null; bLine: number | null } | null;
  ops: DiffOpJson[];
  summary: DiffSummary;
  /**
   * The lines of each run that are not JSON, and the first pair whose text differs (null when both runs have the
   * same ones). Added after the first release: absent when neither run has an unreadable line.
   */
  malformed?: {
    a: { count: number; lines: number[] };
    b: { count: number; lines: number[] };
    firstDifference: { aLine: number | null; bLine: number | null } | null;
  };
}

/** The `malformed` field of the JSON (see {@link TraceDiffJson.malformed}), or undefined when there is none. */
function malformedJson(diff: TraceDiff): TraceDiffJson['malformed'] {
  const m = diff.malformed;
  if (m.a.length === 0 && m.b.length === 0) return undefined;
  return { a: { count: m.a.length, lines: m.a }, b: { count: m.b.length, lines: m.b }, firstDifference: m.firstDifference };
}

function side(m: TraceModel): TraceDiffJson['a'] {
  return { file: m.path, format: m.format, events: m.events.size };
}

/** The line on one side at op `k`: its own event, else the next op's event on that side. */
function lineAt(diff: TraceDiff, k: number, which: 'a' | 'b'): number | null {
  const m = which === 'a' ? diff.a : diff.b;
  for (let j = k; j < diff.ops.length; j++) {
    const i = diff.ops[j][which];
    if (i >= 0) return m.events.lineOf(i);
  }
  return null;
}

function opJson(diff: TraceDiff, op: DiffOp): DiffOpJson {
  const m = op.a >= 0 ? diff.a : diff.b;
  const i = op.a >= 0 ? op.a : op.b;
  // Keys in the documented order: op, aLine, bLine, kind, label, then the optional ones.
  const out = { op: op.op } as DiffOpJson;
  if (op.a >= 0) out.aLine = diff.a.events.lineOf(op.a);
  if (op.b >= 0) out.bLine = diff.b.events.lineOf(op.b);
  out.kind = m.events.kindOf(i);
  out.label = m.events.labelOf(i);
  out.depth = op.depth;
  if (op.fields) out.fields = op.fields;
  if (op.fieldsOmitted) out.fieldsOmitted = op.fieldsOmitted;
  if (op.durationDeltaMs !== null) out.durationDeltaMs = op.durationDeltaMs;
  if (op.tokensDelta !== null) out.tokensDelta = op.tokensDelta;
  if (op.costDeltaUsd !== null) out.costDeltaUsd = op.costDeltaUsd;
  return out;
}

/** The lines where the runs first part (see {@link TraceDiffJson.firstDivergence}), or null when equivalent. */
export function divergenceLines(diff: TraceDiff): TraceDiffJson['firstDivergence'] {
  const k = diff.firstDivergence;
  return k < 0 ? null : { aLine: lineAt(diff, k, 'a'), bLine: lineAt(diff, k, 'b') };
}

/** Builds the public JSON of a diff. */
export function traceDiffJson(diff: TraceDiff): TraceDiffJson {
  return {
    a: side(diff.a),
    b: side(diff.b),
    firstDivergence: divergenceLines(diff),
    ops: diff.ops.map((op) => opJson(diff, op)),
    summary: diff.summary,
    ...(malformedJson(diff) ? { malformed: malformedJson(diff) } : {}),
  };
}

/** A finite number as JSON writes it (every number of a diff is finite; anything else would be null). */
function jsonNumber(n: number): string {
  return Number.isFinite(n) ? String(n) : 'null';
}

/**
 * One op's JSON text, byte for byte `JSON.stringify` of {@link opJson}'s object (same keys, same order), written
 * without that object: the diff of two large runs writes one per event. `kinds` holds each kind's JSON string.
 */
function opText(diff: TraceDiff, op: DiffOp, kinds: Map<string, string>): string {
  const m = op.a >= 0 ? diff.a : diff.b;
  const i = op.a >= 0 ? op.a : op.b;
  const kind = m.events.kindOf(i);
  let kindJson = kinds.get(kind);
  if (kindJson === undefined) kinds.set(kind, (kindJson = JSON.stringify(kind)));
  let s = `{"op":"${op.op}"`;
  if (op.a >= 0) s += `,"aLine":${diff.a.events.lineOf(op.a)}`;
  if (op.b >= 0) s += `,"bLine":${diff.b.events.lineOf(op.b)}`;
  s += `,"kind":${kindJson},"label":${JSON.stringify(m.events.labelOf(i))},"depth":${op.depth}`;
  if (op.fields) s += `,"fields":${JSON.stringify(op.fields)}`;
  if (op.fieldsOmitted) s += `,"fieldsOmitted":${jsonNumber(op.fieldsOmitted)}`;
  if (op.durationDeltaMs !== null) s += `,"durationDeltaMs":${jsonNumber(op.durationDeltaMs)}`;
  if (op.tokensDelta !== null) s += `,"tokensDelta":${jsonNumber(op.tokensDelta)}`;
  if (op.costDeltaUsd !== null) s += `,"costDeltaUsd":${jsonNumber(op.costDeltaUsd)}`;
  return s + '}';
}

/**
 * The text of `JSON.stringify(traceDiffJson(diff))` in pieces (an op each), the same bytes without building the
 * document: `agent-trace diff --json` writes these.
 */
export function* traceDiffJsonPieces(diff: TraceDiff): Generator<string> {
  yield `{"a":${JSON.stringify(side(diff.a))},"b":${JSON.stringify(side(diff.b))},"firstDivergence":${JSON.stringify(divergenceLines(diff))},"ops":[`;
  const kinds = new Map<string, string>();
  for (let k = 0; k < diff.ops.length; k++) yield (k > 0 ? ',' : '') + opText(diff, diff.ops[k], kinds);
  const malformed = malformedJson(diff);
  yield `],"summary":${JSON.stringify(diff.summary)}${malformed ? `,"malformed":${JSON.stringify(malformed)}` : ''}}`;
}
