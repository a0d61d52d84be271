/**
 * The flat list of visible rows over an event tree, with expand/collapse state and an optional filter.
 * Pure and vscode-free. Rows live in one Int32Array sized for every node, so expanding and collapsing are
 * `copyWithin` splices and a million rows never become a million objects.
 *
 * Nodes: events are 0..n-1; malformed line k is `-(k + 1)`. A malformed line is shown where it sits in the
 * file: as a sibling just before the next event of the file (same parent, in line order), or after the last
 * event when nothing follows it (see malformedPlacement.ts).
 */
import { MalformedPlacement, placeMalformed } from './malformedPlacement';

/** What the projection needs from a loaded trace (see `treeSourceOf` in traceRows.ts). */
export interface TreeSource {
  eventCount: number;
  /** Root events in file order. */
  roots: ArrayLike<number>;
  children(i: number): ArrayLike<number>;
  childCount(i: number): number;
  depth(i: number): number;
  parent(i: number): number;
  lineOf(i: number): number;
  /** 1-based lines of the malformed lines, ascending. */
  malformedLines: readonly number[];
  /** Compact view: the event continues a linear chain (its real parent is the row above it). */
  chained?(i: number): boolean;
  /** The event is left out of the rows (bookkeepingFold.ts); absent: none is. */
  hidden?(i: number): boolean;
}

const VISIBLE = 1;
const MATCHES = 2;
const HAS_VISIBLE_CHILD = 4;

/** Encodes malformed line k as a node. */
export function malformedNode(k: number): number {
  return -(k + 1);
}
/** Index of the malformed line a negative node stands for. */
export function malformedIndex(node: number): number {
  return -node - 1;
}

/** Visible rows of a tree; see the file comment. */
export class RowProjection {
  private rows: Int32Array;
  private count = 0;
  private readonly top: ArrayLike<number>;
  private readonly expandedNormal: Uint8Array;
  private expandedFiltered: Uint8Array | null = null;
  private mask: Uint8Array | null = null;
  private malformedPass = true;
  private readonly bad: MalformedPlacement;
  /** Bumped on every change of the rows; pages carry it so stale ones are dropped. */
  version = 1;

  constructor(private readonly src: TreeSource) {
    const n = src.eventCount;
    // Grown as rows are shown (see room): a large trace opens with a few rows of its million events visible.
    this.rows = new Int32Array(Math.min(n + src.malformedLines.length, 4096));
    this.expandedNormal = new Uint8Array(n);
    this.bad = placeMalformed(src);
    this.top = this.bad.childrenOf(-1, src.roots);
    this.rebuild();
  }

  get size(): number {
    return this.count;
  }
  get filtered(): boolean {
    return this.mask !== null;
  }
  /** The node shown at `row`. */
  nodeAt(row: number): number {
    return this.rows[row];
  }
  /** Row of `node`, or -1 when it is not visible. */
  rowOf(node: number): number {
    return this.rows.subarray(0, this.count).indexOf(node);
  }
  depthOf(node: number): number {
    return node < 0 ? this.bad.depthOf(node) : this.src.depth(node);
  }
  /** The node's parent in the rows (the display parent in the compact view), -1 for roots. */
  parentOf(node: number): number {
    return node < 0 ? this.bad.parentOf(node) : this.src.parent(node);
  }
  /** Compact view: the event's real parent is the row just above it. */
  chained(node: number): boolean {
    return node >= 0 && this.src.chained?.(node) === true;
  }
  /** True when the event is left out of this view's rows whatever the expansion (a folded bookkeeping line). */
  isLeftOut(node: number): boolean {
    return node >= 0 && this.src.hidden?.(node) === true;
  }
  isExpanded(node: number): boolean {
    return node >= 0 && this.expanded()[node] === 1;
  }
  /** True when the node has children in the current view (the filter may hide some). */
  hasChildren(node: number): boolean {
    if (node < 0) return false;
    if (this.mask) return (this.mask[node] & HAS_VISIBLE_CHILD) !== 0;
    return this.src.childCount(node) > 0 || this.bad.hasUnder(node);
  }
  /** True when the row is shown only as an ancestor of rows that pass the filter. */
  isContext(node: number): boolean {
    return this.mask !== null && node >= 0 && (this.mask[node] & MATCHES) === 0;
  }
  /** True when the node is in the current view at all (ignoring collapsed ancestors). */
  passes(node: number): boolean {
    if (node < 0) return this.malformedPass;
    return this.mask === null || (this.mask[node] & VISIBLE) !== 0;
  }

  /** Expands (true), collapses (false) or toggles (undefined) one node. Returns whether rows changed. */
  toggle(node: number, expand?: boolean): boolean {
    if (!this.hasChildren(node)) return false;
    const exp = this.expanded();
    const want = expand ?? exp[node] === 0;
    if ((exp[node] === 1) === want) return false;
    exp[node] = want ? 1 : 0;
    const row = this.rowOf(node);
    if (row >= 0) {
      if (want) this.insertSubtree(row);
      else this.removeSubtree(row);
    }
    this.version++;
    return true;
  }

  /** Expands or collapses a node and everything below it. */
  setSubtree(node: number, expand: boolean): void {
    if (node < 0) return;
    const exp = this.expanded();
    const stack = [node];
    while (stack.length > 0) {
      const i = stack.pop()!;
      if (!this.hasChildren(i)) continue;
      exp[i] = expand ? 1 : 0;
      this.forVisibleChildren(i, (c) => stack.push(c));
    }
    this.rebuild();
  }

  expandAll(): void {
    const exp = this.expanded();
    for (let i = 0; i < exp.length; i++) exp[i] = this.hasChildren(i) ? 1 : 0;
    this.rebuild();
  }
  collapseAll(): void {
    this.expanded().fill(0);
    this.rebuild();
  }
  /** True when every node with children is expanded. */
  allExpanded(): boolean {
    const exp = this.expanded();
    for (let i = 0; i < exp.length; i++) if (exp[i] === 0 && this.hasChildren(i)) return false;
    return true;
  }

  /** Expanded events of the unfiltered view, in index order. */
  expandedNodes(): number[] {
    const out: number[] = [];
    const exp = this.expandedNormal;
    for (let i = 0; i < exp.length; i++) if (exp[i] === 1) out.push(i);
    return out;
  }
  /** Replaces the unfiltered view's expansion (e.g. carried over from a previous model by line). */
  setExpandedNodes(nodes: Iterable<number>): void {
    this.expandedNormal.fill(0);
    for (const i of nodes) if (i >= 0 && i < this.expandedNormal.length) this.expandedNormal[i] = 1;
    if (!this.mask) this.rebuild();
  }
  /** Expands nodes above `maxDepth`; the default view of a trace that is too large to expand fully. */
  expandToDepth(maxDepth: number): void {
    const exp = this.expanded();
    for (let i = 0; i < exp.length; i++) exp[i] = this.src.depth(i) < maxDepth && this.hasChildren(i) ? 1 : 0;
    this.rebuild();
  }

  /**
   * Shows only events for which `matches` is true, with their ancestors as context, all expanded.
   * `malformedPass` says whether malformed lines pass. `null` clears the filter.
   */
  setFilter(matches: ((i: number) => boolean) | null, malformedPass = true): void {
    this.malformedPass = matches === null ? true : malformedPass;
    if (matches === null) {
      this.mask = null;
      this.expandedFiltered = null;
      this.rebuild();
      return;
    }
    const n = this.src.eventCount;
    const mask = new Uint8Array(n);
    // Walk up until an ancestor already marked: each edge is visited once.
    const markAncestors = (p: number) => {
      while (p >= 0) {
        mask[p] |= HAS_VISIBLE_CHILD;
        if (mask[p] & VISIBLE) break;
        mask[p] |= VISIBLE;
        p = this.src.parent(p);
      }
    };
    for (let i = 0; i < n; i++) {
      if (!matches(i)) continue;
      mask[i] |= VISIBLE | MATCHES;
      markAncestors(this.src.parent(i));
    }
    if (malformedPass) for (let k = 0; k < this.src.malformedLines.length; k++) markAncestors(this.bad.parentOf(malformedNode(k)));
    this.mask = mask;
    this.expandedFiltered = new Uint8Array(n);
    for (let i = 0; i < n; i++) if (mask[i] & HAS_VISIBLE_CHILD) this.expandedFiltered[i] = 1;
    this.rebuild();
  }

  /** Expands the ancestors of `node` so it becomes a row; returns its row, or -1 when the filter hides it. */
  reveal(node: number): number {
    if (!this.passes(node)) return -1;
    {
      const chain: number[] = [];
      for (let p = this.parentOf(node); p >= 0; p = this.src.parent(p)) chain.push(p);
      const exp = this.expanded();
      let changed = false;
      for (let k = chain.length - 1; k >= 0; k--) {
        if (exp[chain[k]] === 0) {
          exp[chain[k]] = 1;
          changed = true;
        }
      }
      if (changed) {
        this.rebuild();
      }
    }
    return this.rowOf(node);
  }

  /** Recomputes all rows from the expansion state. */
  rebuild(): void {
    let k = 0;
    const stack: number[] = [];
    for (let t = this.top.length - 1; t >= 0; t--) if (this.passes(this.top[t])) stack.push(this.top[t]);
    const exp = this.expanded();
    while (stack.length > 0) {
      const i = stack.pop()!;
      if (k === this.rows.length) this.room(k + 1);
      this.rows[k++] = i;
      if (i >= 0 && exp[i] === 1) this.pushChildrenReversed(i, stack);
    }
    this.count = k;
    this.version++;
  }

  /** Room for `n` rows: the array doubles, up to every event and malformed line. */
  private room(n: number): void {
    if (n <= this.rows.length) return;
    const next = new Int32Array(Math.min(this.src.eventCount + this.src.malformedLines.length, Math.max(n, this.rows.length * 2)));
    next.set(this.rows);
    this.rows = next;
  }

  private expanded(): Uint8Array {
    return this.expandedFiltered ?? this.expandedNormal;
  }

  private forVisibleChildren(i: number, f: (c: number) => void): void {
    const ch = this.bad.childrenOf(i, this.src.children(i));
    for (let k = 0; k < ch.length; k++) if (this.passes(ch[k])) f(ch[k]);
  }

  private pushChildrenReversed(i: number, stack: number[]): void {
    const ch = this.bad.childrenOf(i, this.src.children(i));
    for (let k = ch.length - 1; k >= 0; k--) if (this.passes(ch[k])) stack.push(ch[k]);
  }

  /** Inserts the visible descendants of the node at `row` right after it. */
  private insertSubtree(row: number): void {
    const node = this.rows[row];
    const add: number[] = [];
    const stack: number[] = [];
    const exp = this.expanded();
    this.pushChildrenReversed(node, stack);
    while (stack.length > 0) {
      const i = stack.pop()!;
      add.push(i);
      if (exp[i] === 1) this.pushChildrenReversed(i, stack);
    }
    if (add.length === 0) return;
    this.room(this.count + add.length);
    this.rows.copyWithin(row + 1 + add.length, row + 1, this.count);
    this.rows.set(add, row + 1);
    this.count += add.length;
  }

  /** Removes the rows below the node at `row` that are deeper than it. */
  private removeSubtree(row: number): void {
    const d = this.depthOf(this.rows[row]);
    let end = row + 1;
    while (end < this.count && this.depthOf(this.rows[end]) > d) end++;
    this.rows.copyWithin(row + 1, end, this.count);
    this.count -= end - row - 1;
  }
}
