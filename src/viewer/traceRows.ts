/**
 * Turns a loaded trace and its row projection into the plain rows, summaries and line lookups the webview
 * gets. Pure and vscode-free, so host paging is unit-tested in Node.
 */
import type { MalformedLine, TraceModel } from '../core/loadTrace';
import type { Severity } from '../core/model';
import type { EventSummary, IdSpan, RowData } from '../protocol';
import { compactChains } from './compactChains';
import { withoutBookkeeping, type FoldedTree } from './bookkeepingFold';
import { bookkeepingCategory } from '../core/formats';
import { EVENT_CATEGORIES } from '../core/model';
import { idSpansOf, PageIds } from './labelIdSpans';
import { malformedIndex, malformedNode, RowProjection, TreeSource } from './rowModel';

/**
 * The projection's view of a trace model; `compact`: linear parent chains as runs of rows (compactChains.ts);
 * `hideBookkeeping`: the writer's bookkeeping lines are no rows (bookkeepingFold.ts, formats.ts bookkeepingCategory).
 */
export function treeSourceOf(model: TraceModel, compact = false, hideBookkeeping = false): TreeSource {
  const base = hideBookkeeping ? foldedBookkeeping(model) : modelTreeSource(model);
  return compact ? compactChains(base) : base;
}

/** The model's tree without its bookkeeping lines (none in a format whose other kinds are the user's events). */
function foldedBookkeeping(model: TraceModel): FoldedTree {
  return withoutBookkeeping(modelTreeSource(model), isBookkeepingEvent(model));
}

/**
 * Whether event `i` is the writer's bookkeeping (formats.ts bookkeepingCategory): the rows the tree's toggle hides,
 * and compare's too. Never, in a format whose other kinds are the user's events.
 */
export function isBookkeepingEvent(model: TraceModel): (i: number) => boolean {
  const code = bookkeepingCategory(model.format, EVENT_CATEGORIES);
  const cats = model.events.codesOf('category');
  return (i) => code >= 0 && cats[i] === code;
}

/** How many of the model's events are the writer's bookkeeping (the rows the tree's toggle hides). */
export function bookkeepingCount(model: TraceModel): number {
  const is = isBookkeepingEvent(model);
  let n = 0;
  for (let i = 0; i < model.events.size; i++) if (is(i)) n++;
  return n;
}

function modelTreeSource(model: TraceModel): TreeSource {
  const t = model.events;
  const tree = model.tree;
  return {
    eventCount: t.size,
    roots: tree.roots,
    children: (i) => tree.children(i),
    childCount: (i) => tree.childCount(i),
    depth: (i) => tree.depth(i),
    parent: (i) => t.parent(i),
    lineOf: (i) => t.lineOf(i),
    malformedLines: model.malformed.map((m) => m.line),
  };
}

/** Per-row decorations that come from outside the model: findings and find matches. */
export interface RowDecorations {
  /** The worst finding on a line of the trace's file, or of a session part's file (`part`, TraceModel.parts). */
  badgeOfLine(line: number, part?: number): Severity | undefined;
  isMatch(node: number): boolean;
}

/** Most rows a page may hold; the webview asks for a screenful plus a margin. */
export const MAX_PAGE_ROWS = 2000;

/** Builds rows [start, start + count) of the projection, clamped to its size and to {@link MAX_PAGE_ROWS}. */
export function buildRows(
  model: TraceModel,
  rows: RowProjection,
  start: number,
  count: number,
  deco: RowDecorations,
  traceStartMs: number | null,
): RowData[] {
  const from = Math.max(0, Math.floor(start));
  const to = Math.min(rows.size, from + Math.min(MAX_PAGE_ROWS, Math.max(0, Math.floor(count))));
  const out: RowData[] = [];
  const ids = new PageIds(model.events);
  for (let r = from; r < to; r++) {
    const node = rows.nodeAt(r);
    out.push(node < 0 ? malformedRow(model.malformed[malformedIndex(node)], node, rows, deco) : eventRow(model, rows, node, deco, traceStartMs, ids));
  }
  return out;
}

function eventRow(model: TraceModel, rows: RowProjection, i: number, deco: RowDecorations, t0: number | null, ids: PageIds): RowData {
  // Only the columns a row shows: materializing the whole event (`events.get`) decoded its ids and mentions too.
  const t = model.events;
  const line = t.lineOf(i);
  const label = t.labelOf(i);
  const time = t.timeOf(i);
  const duration = t.durationOf(i);
  const row: RowData = {
    node: i,
    line,
    depth: rows.depthOf(i),
    parent: t.parent(i),
    kind: t.kindOf(i),
    category: t.categoryOf(i),
    label,
    status: t.statusOf(i),
    hasChildren: rows.hasChildren(i),
    expanded: rows.isExpanded(i),
    durationMs: Number.isNaN(duration) ? null : duration,
    tokensIn: t.tokensInOf(i),
    tokensOut: t.tokensOutOf(i),
    offsetMs: time !== null && t0 !== null ? time - t0 : null,
  };
  if (t.partOf(i) !== 0) {
    const place = placeOfNode(model, i);
    if (place !== null) row.place = place;
  }
  const badge = deco.badgeOfLine(line, t.partOf(i));
  if (badge) row.badge = badge;
  if (deco.isMatch(i)) row.match = true;
  if (rows.isContext(i)) row.context = true;
  if (rows.chained(i)) row.chained = true;
  const spans = idSpansOf(ids, i, label);
  if (spans.length > 0) row.idSpans = spans;
  return row;
}

/** The id links of event i's label (see labelIdSpans.ts); a page builds them with one {@link PageIds}. */
export function labelIdSpans(model: TraceModel, i: number, label: string): IdSpan[] {
  return idSpansOf(new PageIds(model.events), i, label);
}

function malformedRow(m: MalformedLine, node: number, rows: RowProjection, deco: RowDecorations): RowData {
  const badge = deco.badgeOfLine(m.line);
  // A line whose worst finding is a warning is a torn last line (a writer stopped mid-line): a warning, drawn as one.
  const torn = badge === 'warning';
  const row: RowData = {
    node,
    line: m.line,
    depth: rows.depthOf(node),
    parent: rows.parentOf(node),
    kind: 'unparseable line',
    category: 'error',
    label: m.message,
    status: torn ? 'warning' : 'error',
    hasChildren: false,
    expanded: false,
    durationMs: null,
    tokensIn: null,
    tokensOut: null,
    offsetMs: null,
    malformed: true,
  };
  if (badge) row.badge = badge;
  if (deco.isMatch(node)) row.match = true;
  return row;
}

/** Earliest event time, the zero of the rows' time offsets. */
export function traceStartTime(model: TraceModel): number | null {
  const t = model.events;
  let min = Infinity;
  for (let i = 0; i < t.size; i++) {
    const v = t.timeOf(i);
    if (v !== null && v < min) min = v;
  }
  return Number.isFinite(min) ? min : null;
}

/** A short description of an event for parents, breadcrumbs and hover cards. */
export function summarizeEvent(model: TraceModel, i: number): EventSummary {
  const t = model.events;
  const time = t.timeOf(i);
  return { node: i, line: t.lineOf(i), kind: t.kindOf(i), label: t.labelOf(i), status: t.statusOf(i), id: t.id(i), time: isoOrNull(time) };
}

/** ISO 8601 of an epoch-ms time, or null (also for times outside Date's range). */
export function isoOrNull(ms: number | null): string | null {
  if (ms === null) return null;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/**
 * The node shown for a 1-based line of the trace's file (or, with `part`, of that file of a session read with its
 * parts, TraceModel.parts): the first event on it, else its malformed line (the trace's own file), else null.
 * Events are emitted in file order, so a binary search finds it; a linear pass covers adapters that don't.
 */
export function nodeAtLine(model: TraceModel, line: number, part = 0): number | null {
  const t = model.events;
  if (model.parts) {
    for (const [from, to] of partRanges(model, part)) {
      const i = firstAtLine(t, line, from, to);
      if (i !== null) return i;
    }
    if (part !== 0) return null;
  } else {
    const i = firstAtLine(t, line, 0, t.size);
    if (i !== null) return i;
  }
  const bad = model.malformed.findIndex((m) => m.line === line);
  if (bad >= 0) return malformedNode(bad);
  if (!model.parts && !linesAscending(model)) for (let i = 0; i < t.size; i++) if (t.lineOf(i) === line) return i;
  return null;
}

/** The first of events [from, to) on `line`, by a binary search over lines that do not decrease, or null. */
function firstAtLine(t: TraceModel['events'], line: number, from: number, to: number): number | null {
  let lo = from;
  let hi = to - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (t.lineOf(mid) < line) lo = mid + 1;
    else hi = mid - 1;
  }
  return lo < to && t.lineOf(lo) === line ? lo : null;
}

/**
 * The index ranges of a part's events in a model read with its session's parts: a part's own (without the
 * grouping event made for a part whose call is not found), the main file's before the parts and after them (a live
 * append).
 */
function partRanges(model: TraceModel, part: number): [number, number][] {
  const parts = model.parts!;
  if (part !== 0) {
    const p = parts[part];
    if (!p) return [];
    const skip = p.call < 0 && p.count > 0 ? 1 : 0;
    return [[p.first + skip, p.first + p.count]];
  }
  const last = parts[parts.length - 1];
  return [[0, parts[0].count], [last.first + last.count, model.events.size]];
}

/**
 * Where a node is, as one number that stays valid across reads of the same files (the kept selection, scroll
 * position and open branches): its line for the trace's own file (so a model without parts keeps plain lines), and
 * for an event of a session part's file its part times {@link PLACE_STRIDE} plus its line. Null for a line too far
 * down a part to be told apart.
 */
export function placeOfNode(model: TraceModel, node: number): number | null {
  const line = lineOfNode(model, node);
  const part = partOfNode(model, node);
  if (line === null || part === 0) return line;
  return line < PLACE_STRIDE && part < MAX_PLACE_PART ? part * PLACE_STRIDE + line : null;
}

/** The node at a place of {@link placeOfNode}. */
export function nodeAtPlace(model: TraceModel, place: number): number | null {
  if (place < PLACE_STRIDE || !model.parts) return nodeAtLine(model, place);
  return nodeAtLine(model, place % PLACE_STRIDE, Math.floor(place / PLACE_STRIDE));
}

/** Lines of a part's file a place tells apart, and parts (places stay below 2^31, as the webview's saved lines). */
const PLACE_STRIDE = 2 ** 24;
const MAX_PLACE_PART = 127;

/** The part (file) a node was read from: 0 for the trace's own file and its malformed lines. */
export function partOfNode(model: TraceModel, node: number): number {
  return node >= 0 && node < model.events.size ? model.events.partOf(node) : 0;
}

const ascending = new WeakMap<object, boolean>();
/** True when event lines never decrease with the index (checked once per model). */
function linesAscending(model: TraceModel): boolean {
  let v = ascending.get(model.events);
  if (v === undefined) {
    v = true;
    for (let i = 1; i < model.events.size && v; i++) if (model.events.lineOf(i) < model.events.lineOf(i - 1)) v = false;
    ascending.set(model.events, v);
  }
  return v;
}

/** The 1-based line a node stands for. */
export function lineOfNode(model: TraceModel, node: number): number | null {
  if (node >= 0) return node < model.events.size ? model.events.lineOf(node) : null;
  const m = model.malformed[malformedIndex(node)];
  return m ? m.line : null;
}

/** True when the node exists in the model. */
export function validNode(model: TraceModel, node: number): boolean {
  return node >= 0 ? node < model.events.size : malformedIndex(node) < model.malformed.length;
}

/** The last event that starts before `line` (for a line that holds no event, e.g. a blank one). */
export function nearestNodeBefore(model: TraceModel, line: number): number | null {
  for (let l = line - 1; l >= 1 && l > line - 1000; l--) {
    const n = nodeAtLine(model, l);
    if (n !== null) return n;
  }
  return null;
}
