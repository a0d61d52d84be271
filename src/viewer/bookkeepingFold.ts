/**
 * The tree without the writer's bookkeeping lines (formats.ts bookkeepingCategory: Claude Code's `queue-operation`,
 * `attachment`, `progress`…, Codex's echoed `event_msg` twins and token reports, Gemini CLI's `$set` patches). A
 * hidden line is no row; a row under it moves up to its nearest shown ancestor, in file order among that ancestor's
 * children. The model is unchanged (the detail pane's links, Go to Line, find and the filter still reach a hidden
 * line: the session shows bookkeeping again to reveal one). Pure, iterative and O(n). vscode-free.
 */
import { preorder } from './compactChains';
import type { TreeSource } from './rowModel';

/** A tree source without some events, and how many it leaves out. */
export interface FoldedTree extends TreeSource {
  /** How many events are left out. */
  hiddenCount: number;
  /** True when event `i` is left out (it has no row). */
  hidden(i: number): boolean;
}

/** `src` without the events `hide` names (see the file comment); `src` itself when it names none. */
export function withoutBookkeeping(src: TreeSource, hide: (i: number) => boolean): FoldedTree {
  const n = src.eventCount;
  const out = new Uint8Array(n);
  let hiddenCount = 0;
  for (let i = 0; i < n; i++) if (hide(i)) (out[i] = 1), hiddenCount++;
  if (hiddenCount === 0) return { ...src, hiddenCount: 0, hidden: () => false };
  const dparent = new Int32Array(n).fill(-1);
  const ddepth = new Int32Array(n);
  const order = preorder(src);
  // Preorder visits a parent before its children, so a shown ancestor's display place is known.
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    let p = src.parent(i);
    // A hidden parent's own display parent is its nearest shown ancestor.
    if (p >= 0 && out[p]) p = dparent[p];
    dparent[i] = p;
    ddepth[i] = p >= 0 ? ddepth[p] + 1 : 0;
  }
  // Children lists of the shown events in compressed form, each in preorder (file order among siblings).
  const count = new Int32Array(n + 1);
  for (let k = 0; k < order.length; k++) if (!out[order[k]]) count[dparent[order[k]] + 1]++;
  const start = new Int32Array(n + 2);
  for (let j = 0; j <= n; j++) start[j + 1] = start[j] + count[j];
  const fill = start.slice(0, n + 1);
  const flat = new Int32Array(start[n + 1]);
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    if (!out[i]) flat[fill[dparent[i] + 1]++] = i;
  }
  const slice = (j: number) => flat.subarray(start[j], start[j + 1]);
  return {
    eventCount: n,
    roots: slice(0),
    children: (i) => (out[i] ? flat.subarray(0, 0) : slice(i + 1)),
    childCount: (i) => (out[i] ? 0 : start[i + 2] - start[i + 1]),
    depth: (i) => ddepth[i],
    parent: (i) => (out[i] ? -1 : dparent[i]),
    lineOf: (i) => src.lineOf(i),
    malformedLines: src.malformedLines,
    hiddenCount,
    hidden: (i) => i >= 0 && i < n && out[i] === 1,
  };
}
