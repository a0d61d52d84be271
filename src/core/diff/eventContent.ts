import type { TraceModel } from '../traceModel';
import { scanLines } from '../lineIndexer';
import { readSpan } from '../lineIndexer';
import { tracePathToOpen } from '../tracePath';
import { comparableLabel } from './neutralFields';
import { findArguments, flattenEvent, FlatField, FlattenOptions, hashCanonical } from './flattenJson';
import { TextHash } from './textHash';

/** What the diff knows of each event's JSON, without keeping the JSON: two digests per event (see TextHash.value). */
export interface EventDigests {
  /** Digest of the event's normalized fields (ids, times, hashes left out unless asked for); NaN when unread. */
  content: Float64Array;
  /** Digest of the normalized arguments of a tool call; NaN when the event has none. */
  args: Float64Array;
}

/** Lines longer than this are compared by their neutral facts only (kind, label, tokens…), never parsed here. */
const MAX_DIFF_LINE_BYTES = 16 << 20;

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
 * Reads the trace once, line by line, and digests each event's normalized JSON and its arguments. A line that
 * holds several events (derived formats) gives each of them the line's digests. A one-document trace (an OTLP
 * export) has no line per event: its digests stay empty and the diff compares the events' neutral facts.
 */
export async function digestEvents(model: TraceModel, options: FlattenOptions): Promise<EventDigests> {
  const n = model.events.size;
  const content = new Float64Array(n).fill(NaN);
  const args = new Float64Array(n).fill(NaN);
  if (model.document || n === 0) return { content, args };
  const order = byLine(model);
  const lines = model.events.lineOf.bind(model.events);
  const line = new TextHash();
  const event = new TextHash();
  let k = 0;
  await scanLines(tracePathToOpen(model), (span, bytes) => {
    while (k < n && lines(order[k]) < span.line) k++;
    if (k >= n || lines(order[k]) !== span.line) return;
    const value = parse(bytes);
    if (value === undefined) return;
    hashCanonical(value, options, line.reset());
    const found = findArguments(value);
    const a = found === undefined ? NaN : hashCanonical(found, options, event.reset()).value();
    for (; k < n && lines(order[k]) === span.line; k++) {
      // The label is what the adapter read, blobs included (agentledger span files keep the payload in a blob).
      content[order[k]] = line.copyTo(event).update('\u0000').update(comparableLabel(model.events.labelOf(order[k]))).value();
      args[order[k]] = a;
    }
  }, { maxLineBytes: MAX_DIFF_LINE_BYTES });
  return { content, args };
}

/** The flattened JSON of one event, re-read from its line; null for a document trace or an unreadable line. */
export async function eventFields(model: TraceModel, i: number, options: FlattenOptions): Promise<FlatField[] | null> {
  if (model.document) return null;
  const length = model.events.lengthOf(i);
  if (length > MAX_DIFF_LINE_BYTES) return null;
  const e = model.events.get(i);
  const value = parse(await readSpan(tracePathToOpen(model), e.offset, e.length));
  return value === undefined ? null : flattenEvent(value, options);
}
