import type { EventTree } from '../tree';
import { Tally } from './tally';
import { orNull, UsageColumns, UsageKind } from './usageColumns';
import { keepShape } from '../keepShape';

/** Slots of one frame: the token fields, then the recorded total. NaN: not reported. */
const F = 6;

/**
 * Sums held for the events on the current path from a root: frame d is the running sum of the depth-d event's
 * settled children. One frame per depth, reused, so the pass allocates nothing per event (a tally per event
 * made the garbage collector the largest cost of the rollups).
 */
class Frames {
  private a = new Float64Array(F * 64);
  /** 1 where frame d holds something (so a test is one read, not six). */
  private has = new Uint8Array(64);

  clear(d: number): void {
    if ((d + 1) * F > this.a.length) {
      const b = new Float64Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
      const h = new Uint8Array(this.has.length * 2);
      h.set(this.has);
      this.has = h;
    }
    const a = this.a;
    const o = d * F;
    a[o] = a[o + 1] = a[o + 2] = a[o + 3] = a[o + 4] = a[o + 5] = NaN;
    this.has[d] = 0;
  }

  any(d: number): boolean {
    return this.has[d] === 1;
  }

  /** Adds event i's counts into frame d. */
  addCounts(d: number, u: UsageColumns, i: number): void {
    if (u.sumInto(this.a, d * F, i)) this.has[d] = 1;
  }

  /** Adds frame `from` into frame `to`. */
  addFrame(to: number, from: number): void {
    if (this.has[from] === 0) return;
    this.has[to] = 1;
    for (let f = 0; f < F; f++) {
      const v = this.a[from * F + f];
      const k = to * F + f;
      if (v === v) this.a[k] = this.a[k] === this.a[k] ? this.a[k] + v : v;
    }
  }

  /** Frame d as a tally (for the few aggregates the totals check compares). */
  tally(d: number): Tally {
    const t = new Tally();
    const a = this.a;
    const o = d * F;
    t.input = orNull(a[o]), t.output = orNull(a[o + 1]), t.cacheRead = orNull(a[o + 2]);
    t.cacheWrite = orNull(a[o + 3]), t.reasoning = orNull(a[o + 4]), t.total = orNull(a[o + 5]);
    return t;
  }
}

/**
 * Decides which records count, children before parents, in one iterative depth-first pass: an event's own
 * usage always counts; an aggregate of its own subtree counts only when nothing below it counted; a closing
 * aggregate (`covers: 'parent'`) counts only when nothing else in its parent's subtree did. An aggregate that
 * does not count is returned in `shadowed` with the sum it stands beside.
 */
export function settleUsage(tree: EventTree, usage: UsageColumns, isCounted: Uint8Array, shadowed: { index: number; children: Tally }[]): void {
  if (usage.count(UsageKind.AggregateSelf) + usage.count(UsageKind.AggregateParent) === 0) {
    // Without aggregates every event's own usage counts and nothing else does: no walk is needed.
    for (let i = 0; i < isCounted.length; i++) if (usage.kindOf(i) === UsageKind.Event) isCounted[i] = 1;
    return;
  }
  const closing = usage.count(UsageKind.AggregateParent) > 0;
  const frames = new Frames();
  // The tree's flat children lists, read by position (a view of each node's children was most of the pass).
  const start = tree.childStart;
  const list = tree.childList;
  let nodes: Int32Array = new Int32Array(64);
  let next: Int32Array = new Int32Array(64);
  // 1 where the depth-d event has a closing aggregate among its children (only those are looked for again).
  let closes: Uint8Array = new Uint8Array(64);
  for (const root of tree.roots) {
    let d = 0;
    nodes[0] = root;
    next[0] = start[root];
    closes[0] = 0;
    frames.clear(0);
    while (d >= 0) {
      const i = nodes[d];
      if (next[d] < start[i + 1]) {
        const k = list[next[d]++];
        // A leaf settles straight into its parent's frame: its own record counts (nothing below it did).
        if (start[k + 1] === start[k]) {
          const kind = usage.kindOf(k);
          if (kind === UsageKind.Event || kind === UsageKind.AggregateSelf) (isCounted[k] = 1), frames.addCounts(d, usage, k);
          else if (kind === UsageKind.AggregateParent) closes[d] = 1;
          continue;
        }
        if (closing && usage.kindOf(k) === UsageKind.AggregateParent) closes[d] = 1;
        if (++d >= nodes.length) (nodes = grow(nodes)), (next = grow(next)), (closes = growBytes(closes));
        nodes[d] = k;
        next[d] = start[k];
        closes[d] = 0;
        frames.clear(d);
        continue;
      }
      const closer = closes[d] === 1;
      settleOne(frames, d, i, closer ? start[i] : 0, closer ? start[i + 1] : 0, list, usage, isCounted, shadowed);
      if (d > 0) frames.addFrame(d - 1, d);
      d--;
    }
  }
}

/** Event i, its children (`list[from]` … `list[to - 1]`) settled into frame d: decides its own record and its closing children's. */
function settleOne(frames: Frames, d: number, i: number, from: number, to: number, list: Int32Array, usage: UsageColumns, isCounted: Uint8Array, shadowed: { index: number; children: Tally }[]): void {
  const kind = usage.kindOf(i);
  if (kind === UsageKind.Event) {
    isCounted[i] = 1;
    frames.addCounts(d, usage, i);
  } else if (kind === UsageKind.AggregateSelf) {
    if (frames.any(d)) shadowed.push({ index: i, children: frames.tally(d) });
    else (isCounted[i] = 1), frames.addCounts(d, usage, i);
  }
  for (let c = from; c < to; c++) {
    const k = list[c];
    if (usage.kindOf(k) !== UsageKind.AggregateParent) continue;
    if (frames.any(d)) shadowed.push({ index: k, children: frames.tally(d) });
    else (isCounted[k] = 1), frames.addCounts(d, usage, k);
  }
}

function growBytes(a: Uint8Array): Uint8Array {
  const b = new Uint8Array(a.length * 2);
  b.set(a);
  return b;
}

function grow(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

// Made for every rollup: its map is kept (see keepShape).
keepShape(new Frames());
