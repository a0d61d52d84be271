/**
 * Turns a loaded trace and its row projection into the plain rows, summaries and line lookups the webview
 * gets. Pure and vscode-free, so host paging is unit-tested in Node.
 */
import type { MalformedLine, TraceModel } from '../core/loadTrace';
import type { Severity } from '../core/model';
import type { EventSummary, IdSpan, RowData } from '../protocol';
import { compactChains } from './compactChains';
import { idSpansOf, PageIds } from './labelIdSpans';
import { malformedIndex, malformedNode, RowProjection, TreeSource } from './rowModel';

/** The projection's view of a trace model; `compact`: linear parent chains as runs of rows (compactChains.ts). */
export function treeSourceOf(model: TraceModel, compact = false): TreeSource {
  return compact ? compactChains(modelTreeSource(model)) : modelTreeSource(model);
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
  badgeOfLine(line: number): Severity | undefined;
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
  const badge = deco.badgeOfLine(line);
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
  const row: RowData = {
    node,
    line: m.line,
    depth: rows.depthOf(node),
    parent: rows.parentOf(node),
    kind: 'unparseable line',
    category: 'error',
    label: m.message,
    status: 'error',
    hasChildren: false,
    expanded: false,
    durationMs: null,
    tokensIn: null,
    tokensOut: null,
    offsetMs: null,
    malformed: true,
  };
  const badge = deco.badgeOfLine(m.line);
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
 * The node shown for a 1-based line: the first event on it, else its malformed line, else null.
 * Events are emitted in file order, so a binary search finds it; a linear pass covers adapters that don't.
 */
export function nodeAtLine(model: TraceModel, line: number): number | null {
  const t = model.events;
  let lo = 0;
  let hi = t.size - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (t.lineOf(mid) < line) lo = mid + 1;
    else hi = mid - 1;
  }
  if (lo < t.size && t.lineOf(lo) === line) return lo;
  const bad = model.malformed.findIndex((m) => m.line === line);
  if (bad >= 0) return malformedNode(bad);
  if (!linesAscending(model)) for (let i = 0; i < t.size; i++) if (t.lineOf(i) === line) return i;
  return null;
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
