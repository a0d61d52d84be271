/**
 * The compact view of linear parent chains. Claude Code and many generic traces link each message to the one
 * before it, so the real tree is a staircase one level deeper per message. In the compact view a node whose
 * parent has exactly one child is shown as the next sibling of that parent instead of below it: a chain of
 * single-child links becomes a run of rows at one depth, and depth only grows where the trace branches.
 * Real parents are unchanged (the detail pane and navigation use the model); only the rows' layout moves.
 * Pure, iterative and O(n). vscode-free.
 */
import type { TreeSource } from './rowModel';

/** A display tree plus, per event, whether its real parent is the row shown just above it in a chain. */
export interface CompactTree extends TreeSource {
  /** True when the event continues a linear chain (its real parent is its previous display sibling). */
  chained(i: number): boolean;
}

/** Builds the compact display tree over `src` (see the file comment). */
export function compactChains(src: TreeSource): CompactTree {
  const n = src.eventCount;
  const order = preorder(src);
  const dparent = new Int32Array(n).fill(-1);
  const ddepth = new Int32Array(n);
  const isChained = new Uint8Array(n);
  // Preorder visits a real parent before its children, so its display parent and depth are known.
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    const p = src.parent(i);
    if (p < 0) continue;
    if (src.childCount(p) === 1) {
      dparent[i] = dparent[p];
      ddepth[i] = ddepth[p];
      isChained[i] = 1;
    } else {
      dparent[i] = p;
      ddepth[i] = ddepth[p] + 1;
    }
  }
  // Children lists in compressed form, each in preorder (a chain's rows follow its head).
  const count = new Int32Array(n + 1);
  for (let k = 0; k < order.length; k++) count[dparent[order[k]] + 1]++;
  const start = new Int32Array(n + 2);
  for (let j = 0; j <= n; j++) start[j + 1] = start[j] + count[j];
  const fill = start.slice(0, n + 1);
  const flat = new Int32Array(order.length);
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    flat[fill[dparent[i] + 1]++] = i;
  }
  const slice = (j: number) => flat.subarray(start[j], start[j + 1]);
  return {
    eventCount: n,
    roots: slice(0),
    children: (i) => slice(i + 1),
    childCount: (i) => start[i + 2] - start[i + 1],
    depth: (i) => ddepth[i],
    parent: (i) => dparent[i],
    lineOf: (i) => src.lineOf(i),
    malformedLines: src.malformedLines,
    chained: (i) => isChained[i] === 1,
    ...(src.hidden ? { hidden: src.hidden } : {}),
  };
}

/** Events in preorder of the real tree, iteratively; events no root reaches are appended (never lost). */
export function preorder(src: TreeSource): Int32Array {
  const n = src.eventCount;
  const out = new Int32Array(n);
  const seen = new Uint8Array(n);
  let k = 0;
  const walk = (root: number) => {
    const stack = [root];
    while (stack.length > 0) {
      const i = stack.pop()!;
      if (seen[i]) continue;
      seen[i] = 1;
      out[k++] = i;
      const ch = src.children(i);
      for (let c = ch.length - 1; c >= 0; c--) stack.push(ch[c]);
    }
  };
  for (let r = 0; r < src.roots.length; r++) walk(src.roots[r]);
  for (let i = 0; i < n && k < n; i++) if (!seen[i]) walk(i);
  return out.subarray(0, k);
}

/** Deepest display depth over every event (for tests and the header's note). */
export function maxDepth(src: TreeSource): number {
  let d = 0;
  for (let i = 0; i < src.eventCount; i++) d = Math.max(d, src.depth(i));
  return d;
}
