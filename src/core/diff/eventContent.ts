import { Buffer } from 'buffer';
import type { TraceModel } from '../traceModel';
import { scanLines } from '../lineIndexer';
import { readRanges } from '../byteSource';
import { tracePathToOpen } from '../tracePath';
import { comparableLabel } from './neutralFields';
import { flattenEvent, FlatField, FlattenOptions } from './flattenJson';
import { LineDigests, MAX_DIFF_LINE_BYTES } from './lineDigests';
import { TextHash } from './textHash';

/** What the diff knows of each event's JSON, without keeping the JSON: two digests per event (see TextHash.value). */
export interface EventDigests {
  /** Digest of the event's normalized fields (ids, times, hashes left out unless asked for); NaN when unread. */
  content: Float64Array;
  /** Digest of the normalized arguments of a tool call; NaN when the event has none. */
  args: Float64Array;
}

function parse(bytes: Buffer | null): unknown {
  if (bytes === null || bytes.length > MAX_DIFF_LINE_BYTES) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Event indices in line order (a stable sort: events of one line keep their order). */
function byLine(model: TraceModel): Int32Array {
  const n = model.events.size;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) if (model.events.lineOf(i) < model.events.lineOf(i - 1)) sorted = false;
  if (!sorted) order.sort((x, y) => model.events.lineOf(x) - model.events.lineOf(y) || x - y);
  return order;
}

/**
 * Digests each line of the trace that holds an event (its normalized JSON and its arguments) in one more read
 * of the file: for a trace loaded without {@link LineDigests.add} as its `onRecord`, or with other options.
 */
async function lineDigestsOf(model: TraceModel, options: FlattenOptions): Promise<LineDigests> {
  const digests = new LineDigests(options);
  const order = byLine(model);
  const n = order.length;
  let k = 0;
  await scanLines(tracePathToOpen(model), (span, bytes) => {
    while (k < n && model.events.lineOf(order[k]) < span.line) k++;
    if (k >= n || model.events.lineOf(order[k]) !== span.line) return;
    const value = parse(bytes);
    if (value !== undefined) digests.add({ value, line: span.line, length: bytes!.length });
  }, { maxLineBytes: MAX_DIFF_LINE_BYTES });
  return digests;
}

// Line digests read again for a loaded model, by whether they keep volatile fields: the compare view diffs the
// viewer's models, and its volatile toggle asks for both kinds in turn, so each file is read once per kind.
const readDigests = new WeakMap<TraceModel, { events: number; bytes: number; byVolatile: Map<boolean, Promise<LineDigests>> }>();

/** {@link lineDigestsOf}, kept for the model (until its table grows: a live tail's next model is read anew). */
function readDigestsOnce(model: TraceModel, options: FlattenOptions): Promise<LineDigests> {
  let memo = readDigests.get(model);
  if (!memo || memo.events !== model.events.size || memo.bytes !== model.bytesIndexed) {
    readDigests.set(model, (memo = { events: model.events.size, bytes: model.bytesIndexed, byVolatile: new Map() }));
  }
  const volatile = options.includeVolatile ?? false;
  let digests = memo.byVolatile.get(volatile);
  if (!digests) {
    digests = lineDigestsOf(model, options);
    memo.byVolatile.set(volatile, digests);
    // A failed read is not kept: the next diff tries again.
    digests.catch(() => memo!.byVolatile.delete(volatile));
  }
  return digests;
}

/** True when `gathered` digested the lines with the options the diff asks for now. */
function fits(gathered: LineDigests | undefined, options: FlattenOptions): gathered is LineDigests {
  return gathered !== undefined && (gathered.options.includeVolatile ?? false) === (options.includeVolatile ?? false);
}

/**
 * Digests each event's normalized JSON and its arguments, from its line's digests: `gathered` when it was taken
 * with the same options while the trace loaded (see LineDigests), else from one more read of the file. A line
 * that holds several events (derived formats) gives each of them the line's digests. A one-document trace (an
 * OTLP export) has no line per event: its digests stay empty and the diff compares the events' neutral facts.
 */
export async function digestEvents(model: TraceModel, options: FlattenOptions, gathered?: LineDigests): Promise<EventDigests> {
  const n = model.events.size;
  const content = new Float64Array(n).fill(NaN);
  const args = new Float64Array(n).fill(NaN);
  if (model.document || n === 0) return { content, args };
  const lines = fits(gathered, options) ? gathered : await readDigestsOnce(model, options);
  const event = new TextHash();
  for (let i = 0; i < n; i++) {
    const line = model.events.lineOf(i);
    if (!lines.has(line)) continue;
    // The label is what the adapter read, blobs included (agentledger span files keep the payload in a blob), less
    // what a result's label repeats of its call's line (the call's argument): that line is compared as itself.
    content[i] = lines.stateOf(line, event).update('\u0000').update(ownLabel(comparableLabel(model.events.labelOf(i)))).value();
    args[i] = lines.argsOf(line);
  }
  return { content, args };
}

/**
 * The flattened JSON of events of one trace, their lines re-read through one open file; null for each event of a
 * document trace, and for a line too long or unreadable.
 */
export async function eventFieldsOf(model: TraceModel, indices: readonly number[], options: FlattenOptions): Promise<(FlatField[] | null)[]> {
  if (model.document) return indices.map(() => null);
  const wanted = indices.filter((i) => model.events.lengthOf(i) <= MAX_DIFF_LINE_BYTES);
  const bytes = await readRanges(tracePathToOpen(model), model.compression, wanted.map((i) => [model.events.get(i).offset, model.events.lengthOf(i)] as const));
  const read = new Map(wanted.map((i, k) => [i, bytes[k]]));
  return indices.map((i) => {
    const value = parse(read.get(i) ?? null);
    return value === undefined ? null : flattenEvent(value, options);
  });
}

/**
 * A tool result's label less the call's argument it repeats (`Bash: npm test → exit 1` → `Bash → exit 1`: the
 * shared label builder's wording, formats/common.ts toolResultLabel); any other label as it is.
 */
export function ownLabel(label: string): string {
  const arrow = label.indexOf(' → ');
  if (arrow < 0) return label;
  const colon = label.indexOf(': ');
  return colon > 0 && colon < arrow ? `${label.slice(0, colon)}${label.slice(arrow)}` : label;
}
