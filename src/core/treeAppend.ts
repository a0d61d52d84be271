/**
 * The tree of a growing trace (live tail), extended by the events an append read instead of built again over
 * every event: the new events are linked to their parents, and their children lists, depths and roots are kept
 * beside the tree built last (an overlay), so an append costs in proportion to what it read. Whenever the new
 * events could change what the earlier ones look like (a new event defines an id an earlier event waits for as
 * its parent, repeats an id, or names a parent later than itself, which could close a cycle), or the overlay has
 * grown large, the caller builds the whole tree again, with the same result.
 */
import type { EventTable } from './eventTable';
import type { Finding } from './model';
import { EventIdIndex, EventTree, linkParent } from './tree';

/** Events an overlay holds at most (beyond a few thousand, or an eighth of the tree under it) before a whole build. */
const OVERLAY_MIN = 4096;
const OVERLAY_SHARE = 8;

/** What an extended tree keeps beside the tree it extends. */
interface Overlay {
  base: EventTree;
  baseSize: number;
  /** Children of any event that were appended after the base was built, in file order. */
  extra: Map<number, number[]>;
  /** Depths of the events after the base. */
  depths: number[];
  roots: Int32Array;
}

const overlays = new WeakMap<EventTree, Overlay>();

/**
 * `prev` (the tree of the table's first `from` events) extended by events `from`..`table.size - 1`, with their
 * tree findings pushed to `findings`; null when the whole tree must be built again (see the file comment).
 */
export function extendTree(prev: EventTree, from: number, table: EventTable, findings: Finding[]): EventTree | null {
  const n = table.size;
  const before = overlays.get(prev);
  const base = before?.base ?? prev;
  const baseSize = before?.baseSize ?? from;
  if (n - baseSize > Math.max(OVERLAY_MIN, baseSize / OVERLAY_SHARE)) return null;
  if (table.duplicateIdEvents().some((d) => d >= from)) return null;
  const waiting = table.unresolvedParentIds(from);
  if (waiting.size > 0) {
    for (let i = from; i < n; i++) {
      const id = table.id(i);
      if (id !== null && waiting.has(id)) return null;
    }
  }
  const idIndex: EventIdIndex = prev.idIndex;
  const linked: Finding[] = [];
  for (let i = from; i < n; i++) {
    linkParent(table, i, idIndex, linked);
    if (table.parent(i) >= i || table.linkOf(i) >= i) return null;
  }
  const extra = new Map(before?.extra);
  const depths = before ? before.depths.slice() : [];
  const roots: number[] = [];
  const copied = new Set<number>();
  const depthOf = (i: number) => (i < baseSize ? base.depth(i) : depths[i - baseSize]);
  for (let i = from; i < n; i++) {
    const p = table.parent(i);
    depths.push(p < 0 ? 0 : depthOf(p) + 1);
    if (p < 0) {
      roots.push(i);
      continue;
    }
    // Copied on write: the tree handed out before this append keeps its own lists.
    const list = extra.get(p);
    if (list && copied.has(p)) list.push(i);
    else {
      extra.set(p, list ? [...list, i] : [i]);
      copied.add(p);
    }
  }
  for (const f of linked) findings.push(f);
  let all = prev.roots;
  if (roots.length > 0) {
    all = new Int32Array(prev.roots.length + roots.length);
    all.set(prev.roots);
    all.set(roots, prev.roots.length);
  }
  return overlaid({ base, baseSize, extra, depths, roots: all }, idIndex);
}

/** How many events `tree` holds beyond the tree it extends, or null for a tree built whole (for tests). */
export function overlaidEvents(tree: EventTree): number | null {
  const o = overlays.get(tree);
  return o ? o.depths.length : null;
}

function overlaid(o: Overlay, idIndex: EventIdIndex): EventTree {
  const merged = new Map<number, Int32Array>();
  let flat: { start: Int32Array; list: Int32Array } | null = null;
  // The flat lists are made only when a pass over the whole tree asks for them (the header's rollups, later).
  const flatLists = () => (flat ??= flatten(tree, o.baseSize + o.depths.length));
  const tree: EventTree = {
    roots: o.roots,
    idIndex,
    get childStart() {
      return flatLists().start;
    },
    get childList() {
      return flatLists().list;
    },
    children(i) {
      const more = o.extra.get(i);
      if (!more) return i < o.baseSize ? o.base.children(i) : EMPTY;
      let m = merged.get(i);
      if (!m) {
        const own = i < o.baseSize ? o.base.children(i) : EMPTY;
        m = new Int32Array(own.length + more.length);
        m.set(own);
        m.set(more, own.length);
        merged.set(i, m);
      }
      return m;
    },
    childCount: (i) => (i < o.baseSize ? o.base.childCount(i) : 0) + (o.extra.get(i)?.length ?? 0),
    depth: (i) => (i < o.baseSize ? o.base.depth(i) : o.depths[i - o.baseSize]),
  };
  overlays.set(tree, o);
  return tree;
}

/** The children lists of all `n` events in one array, as a whole build makes them. */
function flatten(tree: EventTree, n: number): { start: Int32Array; list: Int32Array } {
  const start = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) start[i + 1] = start[i] + tree.childCount(i);
  const list = new Int32Array(start[n]);
  for (let i = 0; i < n; i++) if (start[i + 1] > start[i]) list.set(tree.children(i), start[i]);
  return { start, list };
}

const EMPTY = new Int32Array(0);
