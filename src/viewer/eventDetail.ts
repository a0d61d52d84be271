/**
 * Builds the detail pane's data for one event: its fields from the compact table, its exact line re-read
 * from the file (the model keeps offsets, not text), the parsed JSON and the conversation inside it.
 * vscode-free, so it is tested in Node.
 */
import { Buffer } from 'buffer';
import { readText } from '../core/byteSource';
import { TracePath, tracePathToOpen } from '../core/tracePath';
import { fileOfEvent, fileSizeOfEvent } from '../core/traceParts';
import type { TraceModel } from '../core/loadTrace';
import { readSpan } from '../core/lineIndexer';
import { contextCallOf } from '../core/usage/contextSplit';
import { usageRollupOf } from '../core/usage/rollup';
import type { EventDetail, EventSummary, FindingView } from '../protocol';
import { extractChat } from './chatContent';
import { formatModule } from '../core/formats';
import type { ChatMessage } from '../protocol';
import { malformedIndex } from './rowModel';
import { isoOrNull, placeOfNode, summarizeEvent } from './traceRows';

/** Limits on what one detail carries to the webview. */
export interface DetailLimits {
  /** Bytes of the raw line shown; longer lines are cut (the text editor has the rest). */
  maxRawBytes: number;
  /** Lines longer than this are not parsed for the JSON and Content tabs. */
  maxJsonBytes: number;
}

export const DEFAULT_DETAIL_LIMITS: DetailLimits = { maxRawBytes: 1 << 20, maxJsonBytes: 16 << 20 };
const MAX_ANCESTORS = 64;

/** The detail of `node` (an event index, or a negative malformed-line node). */
export async function buildDetail(model: TraceModel, node: number, findings: FindingView[], limits = DEFAULT_DETAIL_LIMITS): Promise<EventDetail> {
  if (node < 0) return malformedDetail(model, node, findings, limits);
  const e = model.events.get(node);
  const part = model.events.partOf(node);
  const file = part > 0 ? model.parts?.[part] : undefined;
  // A session's subagent event is re-read from its own file (TraceModel.parts), a document from its own document.
  const own = file?.model ?? model;
  const body = own.document ? await documentBody(own, e.id) : await lineBody(fileOfEvent(model, node), e.offset, e.length, limits);
  // The breadcrumbs follow the tree's nesting; `parent` is the event the recorded link names (the same one unless
  // the format shows its events under display parents, as Claude Code's session → turn → step → call).
  const ancestors: EventSummary[] = [];
  for (let p = e.parent; p >= 0 && ancestors.length < MAX_ANCESTORS; p = model.events.parent(p)) ancestors.unshift(summarizeEvent(model, p));
  const link = model.events.linkOf(node);
  return {
    node,
    line: e.line,
    kind: e.kind,
    category: e.category,
    label: e.label,
    status: e.status,
    id: e.id,
    parentId: e.parentId,
    parent: link >= 0 ? summarizeEvent(model, link) : null,
    ancestors,
    childCount: model.tree.childCount(node),
    seq: e.seq,
    time: isoOrNull(e.time),
    durationMs: e.durationMs,
    tokensIn: e.tokensIn,
    tokensOut: e.tokensOut,
    model: e.model,
    tool: e.tool,
    group: e.group,
    hashRefs: e.hashRefs,
    mentions: e.mentions,
    ...body,
    ...(file && file.role !== 'main' ? { file: { index: part, name: baseName(file.path), role: file.role, title: file.title, ...placed(model, node) } } : {}),
    messages: body.json !== null ? await messagesOf(model, node, e.offset + e.length, body.json) : [],
    findings,
    malformed: false,
    // What the model saw, for a model step (the rollup is shared with the header and statistics).
    context: contextCallOf(model, usageRollupOf(model), node),
  };
}

/** How far past a streamed message's first line its other chunks are read (a longer answer shows its first part). */
const MAX_CONTINUATION_BYTES = 1 << 20;

/**
 * The messages of an event's line; for a message the writer streams over several lines (FormatModule.continuedText),
 * with the text of its chunks after the line joined in.
 */
async function messagesOf(model: TraceModel, node: number, end: number, json: unknown): Promise<ChatMessage[]> {
  const join = formatModule(model.format).continuedText;
  if (!join || model.document || join(json, []) === null) return extractChat(json);
  const length = Math.max(0, Math.min(MAX_CONTINUATION_BYTES, fileSizeOfEvent(model, node) - end));
  const following = length > 0 ? (await readSpan(fileOfEvent(model, node), end, length)).toString('utf8').split('\n') : [];
  const text = join(json, following);
  return extractChat(text === null ? json : { ...(json as object), content: text });
}

interface Body {
  raw: string;
  rawBytes: number;
  rawTruncated: boolean;
  json: unknown;
  jsonError: string | null;
}

async function lineBody(path: TracePath, offset: number, length: number, limits: DetailLimits): Promise<Body> {
  const wantJson = length <= limits.maxJsonBytes;
  const bytes = await readSpan(path, offset, wantJson ? length : Math.min(length, limits.maxRawBytes));
  const text = bytes.toString('utf8');
  const rawTruncated = length > limits.maxRawBytes;
  const raw = rawTruncated ? bytes.subarray(0, limits.maxRawBytes).toString('utf8') : text;
  if (bytes.length < Math.min(length, wantJson ? length : limits.maxRawBytes)) {
    return { raw, rawBytes: length, rawTruncated, json: null, jsonError: 'The file is shorter than when it was read; reload to see the current content.' };
  }
  if (!wantJson) return { raw, rawBytes: length, rawTruncated, json: null, jsonError: `The line is ${length} bytes, too large to show as a tree here; open it in the text editor.` };
  try {
    const json: unknown = JSON.parse(text);
    // The message to the webview is serialized as JSON and the tree is walked by depth: a value nested deeper than
    // that is shown as raw text only, never a stack overflow on the way.
    const depth = jsonDepth(json, MAX_TREE_DEPTH);
    if (depth > MAX_TREE_DEPTH) return { raw, rawBytes: length, rawTruncated, json: null, jsonError: `The value is nested more than ${MAX_TREE_DEPTH} levels deep, too deep to show as a tree; see Raw.` };
    return { raw, rawBytes: length, rawTruncated, json, jsonError: null };
  } catch (err) {
    return { raw, rawBytes: length, rawTruncated, json: null, jsonError: `Not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
}

const MAX_TREE_DEPTH = 200;

/** The place of a session part's event (traceRows' placeOfNode), when it has one. */
function placed(model: TraceModel, node: number): { place?: number } {
  const place = placeOfNode(model, node);
  return place !== null ? { place } : {};
}

/** The last part of a path (either separator). */
function baseName(path: string): string {
  return path.replace(/\\/g, '/').split('/').pop() ?? path;
}

/** Nesting depth of a parsed value, counted iteratively and stopping once it passes `limit`. */
export function jsonDepth(value: unknown, limit: number): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (d + 1 > max) max = d + 1;
    if (max > limit) return max;
    for (const c of Array.isArray(v) ? v : Object.values(v)) if (typeof c === 'object' && c !== null) stack.push([c, d + 1]);
  }
  return max;
}

/**
 * An event inside one multi-line JSON document (an OTLP export) has no line of its own: show the object in
 * the document whose id field holds the event's id, pretty-printed.
 */
async function documentBody(model: TraceModel, id: string | null): Promise<Body> {
  const doc = await parsedDocument(model);
  if (doc === undefined) return { raw: '', rawBytes: 0, rawTruncated: false, json: null, jsonError: 'The document could not be read again.' };
  // OTLP events are named `traceId/spanId`; the span object holds only its own part.
  const byId = objectsById(doc);
  const found = id === null ? null : byId.get(id.toLowerCase()) ?? (id.includes('/') ? byId.get(id.slice(id.lastIndexOf('/') + 1).toLowerCase()) : null) ?? null;
  const json = found ?? null;
  const raw = json !== null ? JSON.stringify(json, null, 2) : '';
  return { raw, rawBytes: Buffer.byteLength(raw), rawTruncated: false, json, jsonError: json === null ? 'This event is part of a multi-line JSON document and could not be isolated; open the file as text.' : null };
}

const docCache = new WeakMap<TraceModel, unknown>();
async function parsedDocument(model: TraceModel): Promise<unknown> {
  if (docCache.has(model)) return docCache.get(model);
  let value: unknown;
  try {
    value = JSON.parse((await readText(tracePathToOpen(model))) ?? '');
  } catch {
    value = undefined;
  }
  docCache.set(model, value);
  return value;
}

/** Objects visited by {@link findObjectWithId}'s walk, at most. */
const MAX_WALK = 1_000_000;

/** Whether key `k` names an object's own id (not a parent's or a trace's). */
const ownIdKey = (k: string): boolean => /id$/i.test(k) && !/parent|trace/i.test(k);

const idIndexes = new WeakMap<object, Map<string, Record<string, unknown>>>();
/**
 * What {@link findObjectWithId} finds for every id of a document, by lowercased id: one walk in the same order (the
 * first object holding an id wins), kept with the parsed document, so the transcript of a document of n spans is
 * not n walks of it (an OTLP export of 1,000 spans took 23 s with `--include-content`, 2,000 took 97 s).
 */
function objectsById(doc: unknown): Map<string, Record<string, unknown>> {
  const key = typeof doc === 'object' && doc !== null ? doc : null;
  const kept = key ? idIndexes.get(key) : undefined;
  if (kept) return kept;
  const index = new Map<string, Record<string, unknown>>();
  const queue: unknown[] = [doc];
  for (let q = 0; q < queue.length && q < MAX_WALK; q++) {
    const v = queue[q];
    if (Array.isArray(v)) queue.push(...v);
    else if (typeof v === 'object' && v !== null) {
      const o = v as Record<string, unknown>;
      for (const [k, x] of Object.entries(o)) {
        if (typeof x === 'string' && ownIdKey(k) && !index.has(x.toLowerCase())) index.set(x.toLowerCase(), o);
        if (typeof x === 'object' && x !== null) queue.push(x);
      }
    }
  }
  if (key) idIndexes.set(key, index);
  return index;
}

/** The first object (breadth-first) with an `…id` field equal to `id` (ignoring case: OTLP hex ids vary). */
export function findObjectWithId(doc: unknown, id: string): Record<string, unknown> | null {
  return objectsById(doc).get(id.toLowerCase()) ?? null;
}

async function malformedDetail(model: TraceModel, node: number, findings: FindingView[], limits: DetailLimits): Promise<EventDetail> {
  const m = model.malformed[malformedIndex(node)];
  const bytes = await readSpan(tracePathToOpen(model), m.offset, Math.min(m.length, limits.maxRawBytes));
  return {
    node,
    line: m.line,
    kind: 'unparseable line',
    category: 'error',
    label: m.message,
    status: 'error',
    id: null,
    parentId: null,
    parent: null,
    ancestors: [],
    childCount: 0,
    seq: null,
    time: null,
    durationMs: null,
    tokensIn: null,
    tokensOut: null,
    model: null,
    tool: null,
    group: null,
    hashRefs: [],
    mentions: [],
    raw: bytes.toString('utf8'),
    rawBytes: m.length,
    rawTruncated: m.length > limits.maxRawBytes,
    json: null,
    jsonError: m.message,
    messages: [],
    findings,
    malformed: true,
  };
}
