import type { EventTable } from '../eventTable';
import type { TraceModel } from '../traceModel';
import type { UsageDraft } from '../usageTypes';
import type { UsageRollup } from './rollup';
import { UsageKind } from './usageColumns';
import type { CompactionPoint, ContextCall, ContextSeries } from './contextTypes';

/**
 * What the model saw, per model call (issue 37 item 4): each call's context (its input tokens, cached and
 * cache-writing input included, as every adapter records `input`) split into what was read from the prompt cache,
 * what was newly written to it and the rest (new input the cache did not hold), with the change since the previous
 * call of the same thread and the compaction points between calls. Read from the usage the rollup counts, so a
 * response written over several lines (Claude Code's one line per content block) is one call at its final snapshot,
 * and a repeated `token_count` (Codex 0.60) is not a second call.
 */

export type { CompactionPoint, ContextCall, ContextSeries } from './contextTypes';

/** Every model call's context, in file order, and the trace's compaction points. */
export interface ContextSplit {
  calls: ContextCall[];
  compactions: CompactionPoint[];
  /** Event index → position in `calls`. */
  callAt: ReadonlyMap<number, number>;
}

/** Categories of events whose usage sums the calls under them. */
const SUMS: ReadonlySet<string> = new Set(['turn', 'run', 'session', 'task']);

const splits = new WeakMap<UsageRollup, ContextSplit>();

/** The context split of a trace's model calls (computed once per rollup). */
export function contextSplit(model: TraceModel, rollup: UsageRollup): ContextSplit {
  let s = splits.get(rollup);
  if (!s) splits.set(rollup, (s = computeSplit(model, rollup)));
  return s;
}

function computeSplit(model: TraceModel, rollup: UsageRollup): ContextSplit {
  const t = model.events;
  const u = rollup.usage;
  const compactions: CompactionPoint[] = [];
  const oneHour = oneHourWrites(t, rollup.countedIndex);
  forEachFact(t, (f) => f.compaction !== undefined, (i, f) => {
    compactions.push({ index: i, line: t.lineOf(i), thread: t.groupOf(i), via: viaOf(model, i), preTokens: f.compaction!.preTokens ?? null, trigger: f.compaction!.trigger ?? null });
  });
  const calls: ContextCall[] = [];
  const callAt = new Map<number, number>();
  const last = new Map<string, ContextCall>();
  const pending = new Map<string, CompactionPoint[]>();
  let c = 0;
  const flushCompactionsBefore = (index: number): void => {
    while (c < compactions.length && compactions[c].index < index) {
      const p = compactions[c++];
      const key = threadKey(p.thread, p.via);
      const list = pending.get(key);
      if (list) list.push(p);
      else pending.set(key, [p]);
    }
  };
  for (const i of rollup.countedIndex) {
    // A record on a turn, run or session (Codex exec's `turn.completed`) sums several calls: not one call's context.
    if (u.kindOf(i) !== UsageKind.Event || SUMS.has(t.categoryOf(i))) continue;
    const total = u.field(i, 'input');
    if (total === null) continue;
    flushCompactionsBefore(i);
    const thread = t.groupOf(i);
    const via = viaOf(model, i);
    const key = threadKey(thread, via);
    const read = u.field(i, 'cacheRead');
    const write = u.field(i, 'cacheWrite');
    const cacheRead = read ?? 0;
    const cacheWrite = write ?? 0;
    const prev = last.get(key);
    const call: ContextCall = {
      index: i, line: t.lineOf(i), thread, via, total, cacheRead, cacheWrite,
      cacheWrite1h: oneHour.get(i) ?? null,
      uncached: Math.max(0, total - cacheRead - cacheWrite),
      split: read !== null || write !== null,
      delta: prev ? total - prev.total : null,
      ordinal: (prev?.ordinal ?? 0) + 1, ofThread: 0,
      compactedBefore: pending.get(key) ?? [],
    };
    pending.delete(key);
    last.set(key, call);
    callAt.set(i, calls.length);
    calls.push(call);
  }
  for (const call of calls) call.ofThread = last.get(threadKey(call.thread, call.via))!.ordinal;
  return { calls, compactions, callAt };
}

/**
 * Calls `each` for every event whose usage facts pass `test`, the test worked out once per shape of facts (a
 * million events share a few shapes), not once per event.
 */
function forEachFact(t: EventTable, test: (f: UsageDraft) => boolean, each: (i: number, f: UsageDraft) => void): void {
  const seen: (boolean | undefined)[] = [];
  for (let i = 0, end = t.size; i < end; i++) {
    const ref = t.usageFactShapeOf(i);
    if (ref === 0) continue;
    if (ref > 0) {
      if (!(seen[ref] ??= test(t.usageFactShape(ref)))) continue;
      each(i, t.usageFactShape(ref));
    } else {
      const f = t.usageFactsOf(i)!;
      if (test(f)) each(i, f);
    }
  }
}

/** The 1-hour cache writes (`cacheWrite1h`) of the given events, where their facts record them. */
export function oneHourWrites(t: EventTable, events: Int32Array): Map<number, number> {
  const out = new Map<number, number>();
  for (const i of events) {
    const h = t.usageFactsOf(i)?.cacheWrite1h;
    if (typeof h === 'number') out.set(i, h);
  }
  return out;
}

const threadKey = (group: string | null, via: number): string => `${via}\u0000${group ?? ''}`;

/**
 * The nearest tool-call ancestor of event i in the tree (a subagent's thread), -1 when none. A tool call that is only
 * shown above a line of its own model step is no such call: Codex shows a response that starts with a tool call
 * (no reasoning, no text) with the call as the step's row, its token reports under it, though they are recorded under
 * the turn (their recorded link names an ancestor of the call, not the call).
 */
function viaOf(model: TraceModel, i: number): number {
  const t = model.events;
  for (let c = i, p = t.parent(i), hops = 0; p >= 0 && hops < 256; c = p, p = t.parent(p), hops++) {
    if (t.categoryOf(p) === 'tool' && !shownUnderStepItem(model, c, p)) return p;
  }
  return -1;
}

/** Whether event c sits under tool call p only for display, its recorded link naming an ancestor of p. */
function shownUnderStepItem(model: TraceModel, c: number, p: number): boolean {
  const t = model.events;
  const link = t.linkOf(c);
  if (!t.hasDisplayParent(c) || link < 0 || link === p) return false;
  for (let a = t.parent(p), hops = 0; a >= 0 && hops < 256; a = t.parent(a), hops++) if (a === link) return true;
  return false;
}

/** A model call, or an item of a model response whose usage another line records (a Codex reasoning or message item). */
function modelItem(model: TraceModel, i: number): boolean {
  const c = model.events.categoryOf(i);
  return c === 'inference' || (c !== 'tool' && model.events.usageFactsOf(i)?.elsewhere === true);
}

/**
 * The call whose context an event shows in the detail pane: its own when its usage counts; for a later line of the
 * same response (usage recorded on its first line) the call it sits under; for a model call whose usage a later
 * line records (Codex's response items, then their `token_count`), the next call of its thread. Null otherwise.
 */
export function contextCallOf(model: TraceModel, rollup: UsageRollup, node: number): ContextCall | null {
  // Neither a counted record nor a model call: no split to work out (most details the user opens).
  if (node < 0 || node >= model.events.size || (rollup.isCounted[node] !== 1 && !modelItem(model, node))) return null;
  const s = contextSplit(model, rollup);
  const own = s.callAt.get(node);
  if (own !== undefined) return s.calls[own];
  const t = model.events;
  if (!modelItem(model, node) || t.usageFactsOf(node)?.elsewhere !== true) return null;
  const up = s.callAt.get(t.parent(node));
  if (up !== undefined) return s.calls[up];
  // A model step whose usage is recorded under it (Codex: a response's first item holds its token_count).
  for (const k of model.tree.children(node)) {
    const below = s.callAt.get(k);
    if (below !== undefined) return s.calls[below];
  }
  const thread = t.groupOf(node);
  const via = viaOf(model, node);
  // The first call after `node` (binary search over file order), then on to its thread's.
  let lo = 0, hi = s.calls.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (s.calls[mid].index <= node) lo = mid + 1;
    else hi = mid;
  }
  for (let k = lo; k < s.calls.length; k++) {
    const call = s.calls[k];
    if (call.thread !== thread || call.via !== via) continue;
    // A model item after a user prompt started a new turn belongs to that turn's call: stop at a turn boundary.
    for (let j = node + 1; j < call.index; j++) if (t.categoryOf(j) === 'turn' && t.groupOf(j) === thread) return null;
    return call;
  }
  return null;
}

/**
 * Each thread's context over its calls (the threads with the most calls first, at most `maxThreads`), each series
 * cut to at most `maxPoints` points: a point then stands for a run of calls and is the largest of them.
 */
export function contextSeries(split: ContextSplit, maxThreads = 20, maxPoints = 400): ContextSeries[] {
  const byThread = new Map<string, ContextCall[]>();
  for (const c of split.calls) {
    const key = threadKey(c.thread, c.via);
    const list = byThread.get(key);
    if (list) list.push(c);
    else byThread.set(key, [c]);
  }
  const threads = [...byThread.values()].sort((a, b) => b.length - a.length || a[0].index - b[0].index).slice(0, maxThreads);
  return threads.map((calls) => {
    const step = Math.max(1, Math.ceil(calls.length / maxPoints));
    const points: number[] = [];
    const compactions: number[] = [];
    let peak = calls[0];
    for (let k = 0; k < calls.length; k++) {
      const c = calls[k];
      const at = Math.floor(k / step);
      if (at === points.length) points.push(c.total);
      else points[at] = Math.max(points[at], c.total);
      if (c.compactedBefore.length > 0 && compactions[compactions.length - 1] !== at) compactions.push(at);
      if (c.total > peak.total) peak = c;
    }
    const first = calls[0];
    return { thread: first.thread, via: first.via, calls: calls.length, points, compactions, first: first.total, last: calls[calls.length - 1].total, peak: { total: peak.total, index: peak.index, line: peak.line } };
  });
}
