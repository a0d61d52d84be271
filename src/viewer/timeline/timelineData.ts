/**
 * The timeline's data (issue 16 item 1, a waterfall since issue 40), vscode-free: one bar per step of the run in
 * tree order (a parent before its children, as the tree shows them), as compact columns so a million bars cost a
 * few typed arrays and the webview only ever receives the slice it draws.
 *
 * - A tool call is one bar from the call to its last part (its result, the result's bookkeeping): the parts are not
 *   rows of their own. A call with no part and no duration has no known end: it is drawn to the run's end, `open`.
 * - A model call a format writes when the answer comes, with no duration (Claude Code, Codex, Gemini), starts at the
 *   line before it in its file (the request, or the result it answers) and ends at its own time.
 * - Bookkeeping lines (category `other`: Claude Code's `progress`, `attachment`, `queue-operation`, Codex's echoed
 *   `event_msg` items, Gemini's `$set`) are not rows: `bookkeeping` counts them by kind.
 * - The critical path is marked only where the run had a real choice: somewhere along it two sibling bars ran at once.
 */
import type { FormatName } from '../../core/formatNames';
import { bookkeepingCategory, formatModule } from '../../core/formats';
import { formatDuration, formatTokens } from '../../core/display';
import { EVENT_CATEGORIES } from '../../core/model';
import type { TraceModel } from '../../core/traceModel';
import { priceOf } from '../../core/usage/prices';
import type { ModelPrice } from '../../core/usage/prices';
import { usageRollupOf } from '../../core/usage/rollup';
import { callOfEachEvent } from '../../core/usage/toolStats';
import type { TimelineSlice } from '../../protocol/timeline';

export type { TimelineSlice } from '../../protocol/timeline';

/** Status codes in the `status` column: the webview colours by them. */
export const BAR_OK = 0;
export const BAR_WARNING = 1;
export const BAR_ERROR = 2;

/** What a bar stands for, in the `kind` column: the webview colours model and tool calls apart. */
export const BAR_OTHER = 0;
export const BAR_MODEL = 1;
export const BAR_TOOL = 2;

/** The bars of one model, in tree order. `duration` is -1 for an instant event (drawn as a tick). */
export interface Timeline {
  /** Event index of each bar. */
  nodes: Int32Array;
  /** Start in ms after `t0`. */
  start: Float64Array;
  duration: Float64Array;
  /** Depth among the bars (an event that is no bar does not indent its children). */
  depth: Int32Array;
  status: Uint8Array;
  /** 1 for the bars on the critical path (none when the run never had two branches at once). */
  critical: Uint8Array;
  /** 1 for a call whose result is not in the trace: its bar runs to the run's end. */
  open: Uint8Array;
  /** {@link BAR_MODEL}, {@link BAR_TOOL} or {@link BAR_OTHER}. */
  kind: Uint8Array;
  /** The session part each bar was read from (0: the main file, k: a subagent's): its lane. */
  lane: Int32Array;
  /** How many bars follow under each bar (its subtree, without itself): what collapsing it hides. */
  size: Int32Array;
  /** Bar of each event, -1 for an event that is no bar (its call's bar for a call's result). */
  barOf: Int32Array;
  /** Epoch ms of the earliest start (0 when there are no bars). */
  t0: number;
  /** ms from t0 to the latest end: the run's real span. */
  span: number;
  /** Bookkeeping lines not drawn as rows, by kind, most first. */
  bookkeeping: { kind: string; count: number }[];
  /** Result lines drawn as part of their call's bar. */
  folded: number;
}

const STATUS: Record<string, number> = { ok: BAR_OK, warning: BAR_WARNING, error: BAR_ERROR };
const MESSAGE = EVENT_CATEGORIES.indexOf('message');
const TOOL = EVENT_CATEGORIES.indexOf('tool');
const INFERENCE = EVENT_CATEGORIES.indexOf('inference');

/**
 * Where an event's bar starts, in epoch ms: its time, or its time minus its duration where the format writes a
 * record when the work is done (`eventTime: 'end'`, the default; OTLP and agentledger record starts).
 */
export function barStart(format: FormatName, time: number, durationMs: number | null): number {
  return durationMs !== null && durationMs > 0 && formatModule(format).eventTime !== 'start' ? time - durationMs : time;
}

/** Each event's role: a row, a part of a call's row, bookkeeping, or nothing (no time: its children pass through). */
const ROW = 1, PART = 2, BOOK = 3;

/**
 * Builds the timeline of a model (see the file comment), walked depth-first from the roots without recursion (deep
 * traces cannot overflow the stack), in a few passes over typed arrays: a million-event build stays well under a second.
 */
export function buildTimeline(model: TraceModel): Timeline {
  const t = model.events;
  const n = t.size;
  const endStamped = formatModule(model.format).eventTime !== 'start';
  const cats = t.codesOf('category');
  const parents = t.parents();
  const callOf = callOfEachEvent(t);
  // Bookkeeping lines (category other; none in the generic format, whose other kinds are the user's events).
  const OTHER = bookkeepingCategory(model.format, EVENT_CATEGORIES);
  // A call's direct child that is bookkeeping or a leaf message in the same file (Gemini's tool_result, Codex's
  // item_completed) is a part of the call too.
  for (let i = 0; i < n; i++) {
    const p = parents[i];
    if (callOf[i] !== -1 || p < 0 || callOf[p] !== p || t.partOf(i) !== t.partOf(p)) continue;
    if (cats[i] === OTHER || (cats[i] === MESSAGE && model.tree.childCount(i) === 0)) callOf[i] = p;
  }
  // Each event's own start and end (epoch ms; NaN: no time), and its role.
  const ownStart = new Float64Array(n).fill(NaN);
  const ownEnd = new Float64Array(n).fill(NaN);
  const role = new Uint8Array(n);
  const lastTimeInPart = new Map<number, number>();
  let folded = 0;
  const books = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const time = t.timeOf(i);
    const timed = time !== null && Number.isFinite(time);
    const part = t.partOf(i);
    const before = lastTimeInPart.get(part);
    if (timed) {
      const raw = t.durationOf(i);
      const dur = Number.isFinite(raw) && raw >= 0 ? raw : -1;
      let start = endStamped && dur > 0 ? time - dur : time;
      // A model call written when its answer came: from the line before it (the request, or the result it answers).
      if (dur < 0 && endStamped && cats[i] === INFERENCE && before !== undefined && before < time && callOf[i] === -1) start = before;
      ownStart[i] = start;
      ownEnd[i] = dur >= 0 && !endStamped ? time + dur : time;
      lastTimeInPart.set(part, time);
    }
    const call = callOf[i];
    // Bookkeeping is counted by kind wherever it sits (a progress line under its call too).
    if (cats[i] === OTHER) {
      const k = t.kindOf(i);
      books.set(k, (books.get(k) ?? 0) + 1);
    }
    if (call !== -1 && call !== i) {
      role[i] = PART;
      if (cats[i] !== OTHER) folded++;
    } else if (cats[i] === OTHER) role[i] = BOOK;
    else if (timed) role[i] = ROW;
  }
  // A call's end: the last end among its parts; known at all only when one of them (or the call) has a time.
  const callEnd = new Float64Array(n).fill(NaN);
  const ended = new Uint8Array(n);
  const worst = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const call = callOf[i];
    if (call === -1) continue;
    const s = STATUS[t.statusOf(i)] ?? BAR_OK;
    if (s > worst[call]) worst[call] = s;
    const end = ownEnd[i];
    if (end === end && !(callEnd[call] >= end)) callEnd[call] = end;
    if (call !== i && end === end) ended[call] = 1;
    if (call === i && t.durationOf(i) >= 0) ended[call] = 1;
  }
  const order = new Int32Array(n);
  const depths = new Int32Array(n);
  let m = 0;
  const stackNode = new Int32Array(Math.max(1, n));
  const stackDepth = new Int32Array(Math.max(1, n));
  let sp = 0;
  const roots = model.tree.roots;
  for (let r = roots.length - 1; r >= 0; r--) (stackNode[sp] = roots[r]), (stackDepth[sp++] = 0);
  while (sp > 0) {
    const i = stackNode[--sp];
    const d = stackDepth[sp];
    const row = role[i] === ROW;
    if (row) (order[m] = i), (depths[m++] = d);
    if (model.tree.childCount(i) === 0) continue;
    const kids = model.tree.children(i);
    for (let k = kids.length - 1; k >= 0; k--) (stackNode[sp] = kids[k]), (stackDepth[sp++] = row ? d + 1 : d);
  }
  const tl: Timeline = {
    nodes: order.slice(0, m), start: new Float64Array(m), duration: new Float64Array(m), depth: depths.slice(0, m),
    status: new Uint8Array(m), critical: new Uint8Array(m), open: new Uint8Array(m), kind: new Uint8Array(m), lane: new Int32Array(m),
    size: new Int32Array(m), barOf: new Int32Array(n).fill(-1), t0: 0, span: 0,
    bookkeeping: [...books].map(([kind, count]) => ({ kind, count })).sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind)), folded,
  };
  let t0 = Infinity, last = -Infinity;
  for (let b = 0; b < m; b++) {
    const i = tl.nodes[b];
    const isCall = callOf[i] === i;
    const start = ownStart[i];
    const end = isCall ? callEnd[i] : ownEnd[i];
    tl.start[b] = start;
    tl.duration[b] = isCall ? (ended[i] ? Math.max(0, end - start) : -1) : ownEnd[i] > start || t.durationOf(i) >= 0 ? Math.max(0, ownEnd[i] - start) : -1;
    tl.open[b] = isCall && !ended[i] ? 1 : 0;
    tl.kind[b] = isCall ? BAR_TOOL : cats[i] === INFERENCE ? BAR_MODEL : BAR_OTHER;
    tl.status[b] = isCall ? worst[i] : STATUS[t.statusOf(i)] ?? BAR_OK;
    tl.lane[b] = t.partOf(i);
    tl.barOf[i] = b;
  }
  // The run's span is every timed line's, drawn or not (a bookkeeping line that came first or last counts, as the
  // header's duration counts it); an open call's end is unknown, so it adds nothing.
  for (let i = 0; i < n; i++) {
    if (ownStart[i] === ownStart[i] && ownStart[i] < t0) t0 = ownStart[i];
    if (ownEnd[i] === ownEnd[i] && ownEnd[i] > last) last = ownEnd[i];
  }
  if (m > 0) {
    tl.t0 = t0;
    tl.span = last - t0;
  }
  // Times after t0; an open call runs to the run's end; parts point at their call's bar.
  for (let b = 0; b < m; b++) {
    tl.start[b] -= tl.t0;
    if (tl.open[b]) tl.duration[b] = Math.max(0, tl.span - tl.start[b]);
  }
  for (let i = 0; i < n; i++) if (role[i] === PART && tl.barOf[callOf[i]] >= 0) tl.barOf[i] = tl.barOf[callOf[i]];
  // Subtree sizes: a bar's subtree ends at the next bar no deeper than it.
  const open: number[] = [];
  for (let b = 0; b <= m; b++) {
    const d = b < m ? tl.depth[b] : -1;
    while (open.length > 0 && tl.depth[open[open.length - 1]] >= d) {
      const a = open.pop()!;
      tl.size[a] = b - a - 1;
    }
    if (b < m) open.push(b);
  }
  markCriticalPath(tl);
  return tl;
}

/** End of a bar in ms after t0 (an instant ends where it starts). */
export function endOf(tl: Timeline, b: number): number {
  return tl.start[b] + Math.max(0, tl.duration[b]);
}

/**
 * Whether sibling bars a and b (under bar `parent`, -1: top level) ran at the same time for a while, both with a
 * length. A bar that is no call and starts with its parent (Codex's task_complete, murmur's task_end: the parent's
 * length written at its end) records the parent's time: it is no branch.
 */
function overlap(tl: Timeline, a: number, b: number, parent: number): boolean {
  const branch = (x: number): boolean => parent < 0 || tl.kind[x] !== BAR_OTHER || tl.start[x] > tl.start[parent];
  return branch(a) && branch(b) && tl.duration[a] > 0 && tl.duration[b] > 0 && tl.open[a] === 0 && tl.open[b] === 0 && tl.start[a] < endOf(tl, b) && tl.start[b] < endOf(tl, a);
}

/**
 * The critical path: from the bar that ends last among the top-level bars, repeatedly the child bar that ends
 * last (ties go to the earlier one), down to a leaf: the chain that decided when the run finished. Marked only when,
 * at some step, another sibling ran at the same time as the chosen one: in a run that does one thing at a time every
 * bar is on it, and marking them all says nothing.
 */
export function markCriticalPath(tl: Timeline): void {
  const m = tl.nodes.length;
  const path: number[] = [];
  let choice = false;
  let best = -1;
  for (let b = 0; b < m; b++) if (tl.depth[b] === 0 && (best < 0 || endOf(tl, b) > endOf(tl, best))) best = b;
  for (let b = 0; b < m && best >= 0 && !choice; b++) if (b !== best && tl.depth[b] === 0 && overlap(tl, b, best, -1)) choice = true;
  while (best >= 0) {
    path.push(best);
    const d = tl.depth[best];
    let next = -1;
    const end = best + 1 + tl.size[best];
    // The children of a bar are the following bars one level deeper, within its subtree.
    for (let c = best + 1; c < end; c++) if (tl.depth[c] === d + 1 && (next < 0 || endOf(tl, c) > endOf(tl, next))) next = c;
    if (next >= 0 && !choice) for (let c = best + 1; c < end && !choice; c++) if (c !== next && tl.depth[c] === d + 1 && overlap(tl, c, next, best)) choice = true;
    best = next;
  }
  tl.critical.fill(0);
  if (choice) for (const b of path) tl.critical[b] = 1;
}

/** The rows a view of the timeline shows: bars in order, without those the filter hides or a collapsed bar holds. */
export interface TimelineRows {
  /** Bar of each row. */
  bars: Int32Array;
  /** Row of each bar, -1: not shown. */
  rowOf: Int32Array;
  /** Bars the filter hides. */
  hidden: number;
}

/**
 * The rows of `tl` under a filter (`keep`: the events it keeps; null: no filter) with the bars of `collapsed`
 * (event indices) folded. A bar the filter drops is still shown when a bar under it is kept (so the names keep their
 * tree), and counted as hidden only when it is not drawn.
 */
export function timelineRows(tl: Timeline, keep: ((event: number) => boolean) | null, collapsed: ReadonlySet<number>): TimelineRows {
  const m = tl.nodes.length;
  let shown: Uint8Array | null = null;
  let hidden = 0;
  if (keep) {
    shown = new Uint8Array(m);
    // The bars above the current one, nearest last: a kept bar shows those not shown yet.
    const above: number[] = [];
    for (let b = 0; b < m; b++) {
      const d = tl.depth[b];
      while (above.length > 0 && tl.depth[above[above.length - 1]] >= d) above.pop();
      if (keep(tl.nodes[b])) {
        shown[b] = 1;
        for (let k = above.length - 1; k >= 0 && !shown[above[k]]; k--) shown[above[k]] = 1;
      }
      above.push(b);
    }
    for (let b = 0; b < m; b++) if (!shown[b]) hidden++;
  }
  const bars = new Int32Array(m);
  const rowOf = new Int32Array(m).fill(-1);
  let r = 0;
  for (let b = 0; b < m; b++) {
    if (shown && !shown[b]) continue;
    rowOf[b] = r;
    bars[r++] = b;
    if (tl.size[b] > 0 && collapsed.has(tl.nodes[b])) b += tl.size[b];
  }
  return { bars: bars.slice(0, r), rowOf, hidden };
}

/** Every bar as a row: no filter, nothing collapsed. */
export function allRows(tl: Timeline): TimelineRows {
  return timelineRows(tl, null, new Set());
}

/** The words on or beside a bar: model, tokens, cost and duration, as far as the event has them. */
export function barFacts(model: TraceModel, tl: Timeline, b: number, prices: Readonly<Record<string, ModelPrice>> = {}): string {
  const t = model.events;
  const i = tl.nodes[b];
  const out: string[] = [];
  if (tl.kind[b] === BAR_TOOL) out.push(t.toolOf(i) ?? '');
  const rollup = usageRollupOf(model);
  const name = t.modelOf(i) ?? (tl.kind[b] === BAR_MODEL ? rollup.modelOf(i) : null);
  if (name && tl.kind[b] !== BAR_TOOL) out.push(name);
  const tin = t.tokensInOf(i), tout = t.tokensOutOf(i);
  if (tin !== null || tout !== null) out.push(formatTokens(tin, tout, 'tokens'));
  if (tin !== null || tout !== null) {
    const cost = rollup.usage.costAt(i, name ? priceOf(name, prices) : undefined);
    if (cost !== null && cost > 0) out.push(`$${cost < 0.01 ? cost.toFixed(4) : cost.toFixed(2)}`);
  }
  if (tl.open[b]) out.push('no result');
  else if (tl.duration[b] >= 0) out.push(formatDuration(tl.duration[b]));
  return out.filter(Boolean).join(' · ');
}

/** Rows [start, start+count) of a view, clamped to its size. */
export function timelineSlice(model: TraceModel, tl: Timeline, start: number, count: number, rows: TimelineRows = allRows(tl), collapsed: ReadonlySet<number> = new Set(), prices: Readonly<Record<string, ModelPrice>> = {}): TimelineSlice {
  const total = rows.bars.length;
  const from = Math.max(0, Math.min(start, total));
  const to = Math.min(total, from + Math.max(0, count));
  const bars = Array.from(rows.bars.subarray(from, to));
  const nodes = bars.map((b) => tl.nodes[b]);
  const pick = <T extends ArrayLike<number>>(a: T): number[] => bars.map((b) => a[b]);
  return {
    total, t0: tl.t0, span: tl.span, start: from, nodes,
    starts: pick(tl.start), durations: pick(tl.duration), depths: pick(tl.depth), status: pick(tl.status),
    critical: pick(tl.critical), labels: nodes.map((i) => model.events.labelOf(i)),
    open: pick(tl.open), kinds: pick(tl.kind), lanes: pick(tl.lane), sizes: pick(tl.size),
    collapsed: nodes.map((i) => (collapsed.has(i) ? 1 : 0)), facts: bars.map((b) => barFacts(model, tl, b, prices)),
    hidden: rows.hidden, bookkeeping: tl.bookkeeping, folded: tl.folded, anyCritical: tl.critical.includes(1),
  };
}

/** How many bars are active in each of `buckets` equal slices of the run: the minimap's density and the idle gaps. */
export function timelineDensity(tl: Timeline, buckets: number): number[] {
  const diff = new Array<number>(buckets + 1).fill(0);
  const scale = tl.span > 0 ? buckets / tl.span : 0;
  // A difference array: +1 where a bar starts, -1 after the bucket it ends in, so long bars cost O(1).
  for (let b = 0; b < tl.nodes.length; b++) {
    // An open call's bar says "no end known", not "busy until the end".
    const end = tl.open[b] ? tl.start[b] : endOf(tl, b);
    diff[Math.min(buckets - 1, Math.floor(tl.start[b] * scale))]++;
    diff[Math.min(buckets - 1, Math.floor(end * scale)) + 1]--;
  }
  const out = new Array<number>(buckets);
  for (let k = 0, run = 0; k < buckets; k++) out[k] = run += diff[k];
  return out;
}
