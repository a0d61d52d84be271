import { diffArrays } from 'diff';
import { contentEqual, DiffContext, pairKey, Signatures, signatures } from './signature';

import type { DiffOpKind } from './diffTypes';

export type { DiffOpKind };

/** One row of the alignment: an event of A, of B, or of both (`-1` for the missing side). */
export interface AlignedOp {
  op: DiffOpKind;
  a: number;
  b: number;
  /** Depth in the merged tree (roots are 0). */
  depth: number;
}

/** How far ahead a deleted event looks for an inserted one of the same kind and tool to pair with as a change. */
const PAIR_WINDOW = 64;

/**
 * Pairs the deleted and inserted events left by both alignments in order: a deleted event and a later inserted
 * event of the same kind and tool become one `change` (a changed argument), the rest stay deletes and inserts.
 */
function pairRegion(ctx: DiffContext, dels: number[], ins: number[], depth: number, out: AlignedOp[]): void {
  let j = 0;
  for (const d of dels) {
    const key = pairKey(ctx, ctx.a, d);
    let m = -1;
    for (let k = j; k < ins.length && k < j + PAIR_WINDOW; k++) if (pairKey(ctx, ctx.b, ins[k]) === key) { m = k; break; }
    if (m < 0) {
      out.push({ op: 'delete', a: d, b: -1, depth });
      continue;
    }
    for (; j < m; j++) out.push({ op: 'insert', a: -1, b: ins[j], depth });
    out.push({ op: 'change', a: d, b: ins[m], depth });
    j = m + 1;
  }
  for (; j < ins.length; j++) out.push({ op: 'insert', a: -1, b: ins[j], depth });
}

type Level = 'exact' | 'coarse';

/**
 * Aligns two sibling lists with jsdiff's Myers O(ND) array diff, so one inserted step shifts nothing after it.
 * First on exact signatures (an unchanged event keeps its twin); the events that did not match are aligned again
 * on coarse signatures (same call, other content: `change`), and what is left is paired by kind and tool.
 */
function alignSiblings(ctx: DiffContext, sig: Signatures, level: Level, aKids: ArrayLike<number>, bKids: ArrayLike<number>, depth: number, out: AlignedOp[]): void {
  const sa = sig[level].a;
  const sb = sig[level].b;
  const as = Array.from(aKids, (i) => sa[i]);
  const bs = Array.from(bKids, (i) => sb[i]);
  let ai = 0;
  let bi = 0;
  let dels: number[] = [];
  let ins: number[] = [];
  const flush = (): void => {
    if (dels.length === 0 && ins.length === 0) return;
    if (level === 'exact' && dels.length > 0 && ins.length > 0) alignSiblings(ctx, sig, 'coarse', dels, ins, depth, out);
    else pairRegion(ctx, dels, ins, depth, out);
    dels = [];
    ins = [];
  };
  const same = as.length === bs.length && as.every((s, k) => s === bs[k]);
  for (const part of same ? [{ count: as.length, added: false, removed: false }] : diffArrays(as, bs)) {
    const count = part.count ?? 0;
    if (part.removed) for (let k = 0; k < count; k++) dels.push(aKids[ai++]);
    else if (part.added) for (let k = 0; k < count; k++) ins.push(bKids[bi++]);
    else {
      flush();
      for (let k = 0; k < count; k++, ai++, bi++) {
        const a = aKids[ai];
        const b = bKids[bi];
        out.push({ op: contentEqual(ctx, a, b) ? 'equal' : 'change', a, b, depth });
      }
    }
  }
  flush();
}

function siblings(ctx: DiffContext, sig: Signatures, aKids: ArrayLike<number>, bKids: ArrayLike<number>, depth: number): AlignedOp[] {
  const out: AlignedOp[] = [];
  alignSiblings(ctx, sig, 'exact', aKids, bKids, depth, out);
  return out;
}

/**
 * Aligns two traces parent by parent and returns the merged tree in preorder: each op, then its subtree. An
 * inserted or deleted event brings its whole subtree along on its side. Iterative, so depth cannot overflow.
 */
export function alignTrees(ctx: DiffContext): AlignedOp[] {
  const sig = signatures(ctx);
  const ta = ctx.a.model.tree;
  const tb = ctx.b.model.tree;
  const out: AlignedOp[] = [];
  const stack: AlignedOp[] = siblings(ctx, sig, ta.roots, tb.roots, 0).reverse();
  while (stack.length > 0) {
    const op = stack.pop()!;
    out.push(op);
    let kids: AlignedOp[];
    if (op.a >= 0 && op.b >= 0) kids = siblings(ctx, sig, ta.children(op.a), tb.children(op.b), op.depth + 1);
    else if (op.a >= 0) kids = Array.from(ta.children(op.a), (a) => ({ op: 'delete' as const, a, b: -1, depth: op.depth + 1 }));
    else kids = Array.from(tb.children(op.b), (b) => ({ op: 'insert' as const, a: -1, b, depth: op.depth + 1 }));
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
  }
  return out;
}
