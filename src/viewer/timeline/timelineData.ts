/**
 * The timeline's data (issue 16 item 1), vscode-free: the events that have a time, in tree order (a parent
 * before its children, as the tree shows them), as compact columns so a million bars cost a few typed arrays
 * and the webview only ever receives the slice it draws.
 */
import type { FormatName } from '../../core/formatNames';
import { formatModule } from '../../core/formats';
import type { TraceModel } from '../../core/traceModel';
import type { TimelineSlice } from '../../protocol/timeline';

export type { TimelineSlice } from '../../protocol/timeline';

/** Status codes in the `status` column: the webview colours by them. */
export const BAR_OK = 0;
export const BAR_WARNING = 1;
export const BAR_ERROR = 2;

/** The bars of one model, in tree order. `duration` is -1 for an instant event (drawn as a tick). */
export interface Timeline {
  /** Event index of each bar. */
  nodes: Int32Array;
  /** Start in ms after `t0`. */
  start: Float64Array;
  duration: Float64Array;
  /** Depth among the bars (an event without a time does not indent its children). */
  depth: Int32Array;
  status: Uint8Array;
  /** 1 for the bars on the critical path. */
  critical: Uint8Array;
  /** Bar of each event, -1 for events without a time. */
  barOf: Int32Array;
  /** Epoch ms of the earliest start (0 when there are no bars). */
  t0: number;
  /** ms from t0 to the latest end. */
  span: number;
}

const STATUS: Record<string, number> = { ok: BAR_OK, warning: BAR_WARNING, error: BAR_ERROR };

/**
 * Where an event's bar starts, in epoch ms: its time, or its time minus its duration where the format writes a
 * record when the work is done (`eventTime: 'end'`, the default; OTLP and agentledger record starts).
 */
export function barStart(format: FormatName, time: number, durationMs: number | null): number {
  return durationMs !== null && durationMs > 0 && formatModule(format).eventTime !== 'start' ? time - durationMs : time;
}

/**
 * Builds the timeline of a model: every event with a time becomes a bar (or a tick when it has no duration),
 * walked depth-first from the roots without recursion (deep traces cannot overflow the stack). One pass over
 * typed arrays: a tuple per stack entry and two column reads per event made a million-event build take seconds.
 */
export function buildTimeline(model: TraceModel): Timeline {
  const t = model.events;
  const n = t.size;
  const endStamped = formatModule(model.format).eventTime !== 'start';
  const order = new Int32Array(n);
  const depths = new Int32Array(n);
  const starts = new Float64Array(n);
  const durations = new Float64Array(n);
  let m = 0;
  let t0 = Infinity;
  // Each event is pushed once (the tree has no cycles), so the stack never holds more than n.
  const stackNode = new Int32Array(Math.max(1, n));
  const stackDepth = new Int32Array(Math.max(1, n));
  let sp = 0;
  const roots = model.tree.roots;
  for (let r = roots.length - 1; r >= 0; r--) (stackNode[sp] = roots[r]), (stackDepth[sp++] = 0);
  while (sp > 0) {
    const i = stackNode[--sp];
    const d = stackDepth[sp];
    const time = t.timeOf(i);
    const timed = time !== null && Number.isFinite(time);
    if (timed) {
      // The duration column itself (NaN: none), not an object of the event's usage columns per bar.
      const raw = t.durationOf(i);
      const dur = Number.isFinite(raw) && raw >= 0 ? raw : -1;
      const start = endStamped && dur > 0 ? time - dur : time;
      order[m] = i;
      depths[m] = d;
      starts[m] = start;
      durations[m++] = dur;
      if (start < t0) t0 = start;
    }
    // Most events are leaves: skip making a view of their (empty) children.
    if (model.tree.childCount(i) === 0) continue;
    const kids = model.tree.children(i);
    for (let k = kids.length - 1; k >= 0; k--) (stackNode[sp] = kids[k]), (stackDepth[sp++] = timed ? d + 1 : d);
  }
  if (!Number.isFinite(t0)) t0 = 0;
  const tl: Timeline = {
    // Usually every event has a time: keep the arrays as they are rather than copy them (and make garbage).
    nodes: fit(order, m), start: fit(starts, m), duration: fit(durations, m), depth: fit(depths, m),
    status: new Uint8Array(m), critical: new Uint8Array(m), barOf: new Int32Array(n).fill(-1), t0, span: 0,
  };
  for (let b = 0; b < m; b++) {
    const i = tl.nodes[b];
    tl.barOf[i] = b;
    tl.start[b] -= t0;
    tl.status[b] = STATUS[t.statusOf(i)] ?? BAR_OK;
    const end = endOf(tl, b);
    if (end > tl.span) tl.span = end;
  }
  markCriticalPath(tl);
  return tl;
}

function fit<T extends Int32Array | Float64Array>(a: T, m: number): T {
  return (a.length === m ? a : a.slice(0, m)) as T;
}

/** End of a bar in ms after t0 (an instant ends where it starts). */
export function endOf(tl: Timeline, b: number): number {
  return tl.start[b] + Math.max(0, tl.duration[b]);
}

/**
 * The critical path: from the bar that ends last among the top-level bars, repeatedly the child bar that ends
 * last (ties go to the earlier one), down to a leaf: the chain that decided when the run finished.
 */
export function markCriticalPath(tl: Timeline): void {
  const m = tl.nodes.length;
  let best = -1;
  for (let b = 0; b < m; b++) if (tl.depth[b] === 0 && (best < 0 || endOf(tl, b) > endOf(tl, best))) best = b;
  while (best >= 0) {
    tl.critical[best] = 1;
    const d = tl.depth[best];
    let next = -1;
    // The children of a bar are the following bars one level deeper, up to the next bar at its own depth.
    for (let c = best + 1; c < m && tl.depth[c] > d; c++) {
      if (tl.depth[c] === d + 1 && (next < 0 || endOf(tl, c) > endOf(tl, next))) next = c;
    }
    best = next;
  }
}

/** Bars [start, start+count) of a timeline, clamped to its size. */
export function timelineSlice(model: TraceModel, tl: Timeline, start: number, count: number): TimelineSlice {
  const from = Math.max(0, Math.min(start, tl.nodes.length));
  const to = Math.min(tl.nodes.length, from + Math.max(0, count));
  const nodes = Array.from(tl.nodes.subarray(from, to));
  return {
    total: tl.nodes.length, t0: tl.t0, span: tl.span, start: from, nodes,
    starts: Array.from(tl.start.subarray(from, to)), durations: Array.from(tl.duration.subarray(from, to)),
    depths: Array.from(tl.depth.subarray(from, to)), status: Array.from(tl.status.subarray(from, to)),
    critical: Array.from(tl.critical.subarray(from, to)), labels: nodes.map((i) => model.events.labelOf(i)),
  };
}

/** How many bars are active in each of `buckets` equal slices of the run: the minimap's density and the idle gaps. */
export function timelineDensity(tl: Timeline, buckets: number): number[] {
  const diff = new Array<number>(buckets + 1).fill(0);
  const scale = tl.span > 0 ? buckets / tl.span : 0;
  // A difference array: +1 where a bar starts, -1 after the bucket it ends in, so long bars cost O(1).
  for (let b = 0; b < tl.nodes.length; b++) {
    diff[Math.min(buckets - 1, Math.floor(tl.start[b] * scale))]++;
    diff[Math.min(buckets - 1, Math.floor(endOf(tl, b) * scale)) + 1]--;
  }
  const out = new Array<number>(buckets);
  for (let k = 0, run = 0; k < buckets; k++) out[k] = run += diff[k];
  return out;
}
