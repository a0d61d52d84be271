import { EventTable } from './eventTable';
import type { FindingSink } from './model';
import { TREE_CATALOG } from './catalog/genericCatalog';

/** Children of every event in compressed form: `children(i)` is a slice of one Int32Array. */
export interface EventTree {
  /** Indices of root events (no parent, or orphans whose parent is missing), in file order. */
  roots: Int32Array;
  /** Children of event `i`, in file order. */
  children(i: number): Int32Array;
  childCount(i: number): number;
  /**
   * The children lists themselves, for passes that walk the whole tree without a view per node: the children
   * of i are `childList[childStart[i]]` … `childList[childStart[i + 1] - 1]`.
   */
  childStart: Int32Array;
  childList: Int32Array;
  /** Depth of event `i` (roots are 0). */
  depth(i: number): number;
  /** From id to the index of the first event that defines it (the event table's typed-array hash index). */
  idIndex: EventIdIndex;
}

/** Id → index of the first event with that id. */
export interface EventIdIndex {
  get(id: string): number | undefined;
  has(id: string): boolean;
}

/**
 * Resolves parents (structural indices first, then explicit parent ids) and builds the children lists.
 * Linear and iterative: no recursion, so a million events or a cycle of parent ids cannot overflow the stack.
 * Duplicate ids, missing parents and cycles become findings; the events involved stay in the tree as roots.
 * The findings are about the recorded links alone; an event with a display parent (EventDraft.displayParent) is
 * nested under it, whatever its link.
 */
export function buildTree(table: EventTable, findings: FindingSink, rulePrefix = 'tree'): EventTree {
  const n = table.size;
  const idIndex: EventIdIndex = { get: (id) => table.indexOfId(id), has: (id) => table.indexOfId(id) !== undefined };
  for (const i of table.duplicateIdEvents()) {
    const id = table.id(i)!;
    findings.push({
      rule: `${rulePrefix}/duplicate-id`,
      severity: TREE_CATALOG.severityOf('tree/duplicate-id'),
      line: table.lineOf(i),
      eventId: id,
      message: `Event id ${id} is already used by the event on line ${table.lineOf(table.indexOfId(id)!)}.`,
    });
  }
  for (let i = 0; i < n; i++) linkParent(table, i, idIndex, findings, rulePrefix);
  breakCycles(table, findings, rulePrefix);
  if (table.hasDisplayParents()) cutDisplayCycles(table);
  return indexChildren(table, idIndex);
}

/**
 * Sets event i's recorded link: its structural parent, else the event its parent id names (a missing parent or the
 * event itself is a finding and leaves it a root). Cycles through several events are cut afterwards.
 */
export function linkParent(table: EventTable, i: number, idIndex: EventIdIndex, findings: FindingSink, rulePrefix = 'tree'): void {
  const n = table.size;
  const structural = table.explicitParentOf(i);
  if (structural >= 0 && structural < n && structural !== i) {
    table.setParent(i, structural);
    return;
  }
  // A structural parent this tree cannot use (after the end of a view) is no link here.
  if (structural !== -2 && !table.parentFromIdOf(i)) table.setParent(i, -1);
  // Resolved when the event was added (its parent came first) or by an earlier build: nothing to look up.
  if (table.parentFromIdOf(i)) return;
  const pid = table.parentId(i);
  if (pid === null) return;
  const p = idIndex.get(pid);
  if (p === undefined) {
    findings.push({
      rule: `${rulePrefix}/dangling-parent`,
      severity: TREE_CATALOG.severityOf('tree/dangling-parent'),
      line: table.lineOf(i),
      eventId: table.id(i) ?? undefined,
      message: `Parent ${pid} is not in this trace; the event is shown as a root.`,
    });
  } else if (p === i) {
    findings.push({
      rule: `${rulePrefix}/cycle`,
      severity: TREE_CATALOG.severityOf('tree/cycle'),
      line: table.lineOf(i),
      eventId: table.id(i) ?? undefined,
      message: `Event ${pid} names itself as its parent.`,
    });
  } else {
    table.setParentById(i, p);
  }
}

/** Walks up the recorded links from every event once, marking visits; a walk that meets its own mark is a cycle, cut. */
function breakCycles(table: EventTable, findings: FindingSink, rulePrefix: string): void {
  forEachCycle(table.size, (i) => table.linkOf(i), (cut) => {
    findings.push({
      rule: `${rulePrefix}/cycle`,
      severity: TREE_CATALOG.severityOf('tree/cycle'),
      line: table.lineOf(cut),
      eventId: table.id(cut) ?? undefined,
      message: `Parent links form a cycle through line ${table.lineOf(cut)} (parent ${table.parentId(cut) ?? '?'}); the event is shown as a root.`,
    });
    table.setParent(cut, -1);
  });
}

/**
 * Display parents come before their events, but an event without one nests under its recorded link, which may name
 * a later event: such a ring is cut at its last event that has a display parent (made a root of the display; the
 * links, and so the findings, are not changed).
 */
function cutDisplayCycles(table: EventTable): void {
  forEachCycle(table.size, (i) => table.parent(i), (last, members) => {
    let cut = -1;
    for (const m of members) if (table.hasDisplayParent(m) && m > cut) cut = m;
    table.cutDisplayParent(cut >= 0 ? cut : last);
  });
}

/**
 * Calls `cut` once for each cycle of `parentOf` (it must then break it), with the member that comes last in the file
 * (most likely the wrong link) and all members. Walks up from every event once, marking visits: a walk that meets
 * its own mark has found a cycle.
 */
function forEachCycle(n: number, parentOf: (i: number) => number, cut: (last: number, members: number[]) => void): void {
  // Parents that all come before their children (most traces) cannot form a cycle: no marks needed.
  let forward = false;
  for (let i = 0; i < n && !forward; i++) forward = parentOf(i) >= i;
  if (!forward) return;
  const mark = new Int32Array(n).fill(-1); // -1 unvisited, n = done, else the walk's start index
  for (let start = 0; start < n; start++) {
    if (mark[start] !== -1) continue;
    let i = start;
    while (i >= 0 && mark[i] === -1) {
      mark[i] = start;
      i = parentOf(i);
    }
    if (i >= 0 && mark[i] === start) {
      const members = [i];
      let last = i;
      for (let j = parentOf(i); j !== i; j = parentOf(j)) {
        members.push(j);
        if (j > last) last = j;
      }
      cut(last, members);
    }
    let k = start;
    while (k >= 0 && mark[k] === start) {
      mark[k] = n;
      k = parentOf(k);
    }
  }
}

/**
 * The children lists in file order, and every depth. Only what the tree keeps is allocated (a million events
 * made four more arrays of 4 MB each here, at the moment the viewer's memory peaks): the counts are made in
 * the start array itself, and the depths in one byte each unless one is deeper (then two, then four).
 */
function indexChildren(table: EventTable, idIndex: EventIdIndex): EventTree {
  const n = table.size;
  const { roots, childStart: start, childList: list } = childLists(n, (i) => table.parent(i));
  const depths = depthsOf(table, new Uint8Array(n)) ?? depthsOf(table, new Uint16Array(n)) ?? depthsOf(table, new Int32Array(n))!;
  return {
    roots,
    idIndex,
    childStart: start,
    childList: list,
    children: (i) => list.subarray(start[i], start[i + 1]),
    childCount: (i) => start[i + 1] - start[i],
    depth: (i) => depths[i] - 1,
  };
}

/** Roots and children lists (as EventTree's) of `n` events with these parents. */
function childLists(n: number, parentOf: (i: number) => number): Pick<EventTree, 'roots' | 'childStart' | 'childList'> {
  // start[p + 1] counts p's children; summed, start[p] is where they begin.
  const start = new Int32Array(n + 1);
  let rootCount = 0;
  for (let i = 0; i < n; i++) {
    const p = parentOf(i);
    if (p < 0) rootCount++;
    else start[p + 1]++;
  }
  for (let i = 0; i < n; i++) start[i + 1] += start[i];
  const list = new Int32Array(Math.max(0, n - rootCount));
  const roots = new Int32Array(rootCount);
  let r = 0;
  // Filling moves start[p] to where p's children end (the next one's start): moved back one place after.
  for (let i = 0; i < n; i++) {
    const p = parentOf(i);
    if (p < 0) roots[r++] = i;
    else list[start[p]++] = i;
  }
  for (let i = n; i > 0; i--) start[i] = start[i - 1];
  start[0] = 0;
  return { roots, childStart: start, childList: list };
}

/**
 * The roots and children lists of the recorded links (EventTable.linkOf) rather than of the tree shown: for the
 * passes that infer from the file's own structure (the summary's roots, inferred retries), so that how a format
 * nests its events for reading (EventDraft.displayParent) changes none of their numbers. The tree's own lists
 * when no event has a display parent.
 */
export function linkChildren(table: EventTable, tree: EventTree): Pick<EventTree, 'roots' | 'childStart' | 'childList'> {
  if (!table.hasDisplayParents()) return tree;
  return childLists(table.size, (i) => table.linkOf(i));
}

/**
 * Every event's depth + 1 (0: not known yet) in `depth`, or null when one does not fit its type. Iterative:
 * depths in file order work only when parents precede children.
 */
function depthsOf<T extends Uint8Array | Uint16Array | Int32Array>(table: EventTable, depth: T): T | null {
  const max = depth instanceof Uint8Array ? 0xff : depth instanceof Uint16Array ? 0xffff : 0x7fffffff;
  const n = table.size;
  const stack: number[] = [];
  for (let i = 0; i < n; i++) {
    let j = i;
    while (depth[j] === 0 && table.parent(j) >= 0) {
      stack.push(j);
      j = table.parent(j);
    }
    if (depth[j] === 0) depth[j] = 1;
    let d = depth[j];
    if (d + stack.length > max) return null;
    while (stack.length > 0) depth[stack.pop()!] = ++d;
  }
  return depth;
}
