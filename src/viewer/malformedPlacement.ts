/**
 * Where the rows show lines that are not valid JSON: where they sit in the file. A malformed line becomes a
 * sibling of the next event in the file (same parent, ordered by line, so it is the row just before that
 * event); with no event after it (a torn tail), a sibling of the last event before it. Listing them among the
 * roots put a bad line in the middle of a session after the session's last event. vscode-free.
 */

/**
 * What placing needs of a tree source (rowModel.ts's TreeSource satisfies it); declared here so that the two
 * files do not import each other.
 */
export interface PlacementSource {
  eventCount: number;
  depth(i: number): number;
  parent(i: number): number;
  lineOf(i: number): number;
  /** 1-based lines of the malformed lines, ascending. */
  malformedLines: readonly number[];
}

/** Lookups of the placed malformed lines; nodes are `-(k + 1)` for malformed line k. */
export interface MalformedPlacement {
  parentOf(node: number): number;
  depthOf(node: number): number;
  /** True when some malformed line is placed under event `i`. */
  hasUnder(i: number): boolean;
  /** `children` (events of parent `i`, or the roots for -1) merged with the malformed lines placed there, in line order. */
  childrenOf(i: number, children: ArrayLike<number>): ArrayLike<number>;
}

const NONE: MalformedPlacement = {
  parentOf: () => -1,
  depthOf: () => 0,
  hasUnder: () => false,
  childrenOf: (_i, children) => children,
};

/** Places every malformed line of `src` (see the file comment). */
export function placeMalformed(src: PlacementSource): MalformedPlacement {
  const lines = src.malformedLines;
  if (lines.length === 0) return NONE;
  const parent = new Int32Array(lines.length);
  const under = new Map<number, number[]>();
  for (let k = 0; k < lines.length; k++) {
    const next = firstEventAfter(src, lines[k]);
    const anchor = next < src.eventCount ? next : next - 1;
    const p = anchor >= 0 ? src.parent(anchor) : -1;
    parent[k] = p;
    const list = under.get(p);
    if (list) list.push(-(k + 1));
    else under.set(p, [-(k + 1)]);
  }
  const merged = new Map<number, Int32Array>();
  const lineOf = (node: number) => (node < 0 ? lines[-node - 1] : src.lineOf(node));
  return {
    parentOf: (node) => parent[-node - 1] ?? -1,
    depthOf: (node) => {
      const p = parent[-node - 1] ?? -1;
      return p < 0 ? 0 : src.depth(p) + 1;
    },
    hasUnder: (i) => under.has(i),
    childrenOf: (i, children) => {
      const bad = under.get(i);
      if (!bad) return children;
      let m = merged.get(i);
      if (!m) merged.set(i, (m = mergeByLine(children, bad, lineOf)));
      return m;
    },
  };
}

/** Index of the first event whose line is after `line` (events are in file order), or eventCount. */
function firstEventAfter(src: PlacementSource, line: number): number {
  let lo = 0;
  let hi = src.eventCount;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (src.lineOf(mid) <= line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function mergeByLine(a: ArrayLike<number>, b: number[], lineOf: (node: number) => number): Int32Array {
  const out = new Int32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && lineOf(a[i]) <= lineOf(b[j]))) out[k++] = a[i++];
    else out[k++] = b[j++];
  }
  return out;
}
