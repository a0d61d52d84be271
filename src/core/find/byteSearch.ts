/**
 * Plain-text search on raw bytes, so blob text is searched at the speed it is read: no UTF-8 decoding and no
 * lower-casing copy. Matching case uses the native `Buffer.indexOf`; ignoring case uses Boyer-Moore-Horspool
 * with ASCII letters folded (the skip table is built on folded bytes, so it skips as far as the exact search).
 */

/** Finds the first of several needles in `hay[0, end)`; returns where and which length, or null. */
export type ByteFinder = (hay: Buffer, end: number) => { index: number; length: number } | null;

const fold = new Uint8Array(256);
for (let b = 0; b < 256; b++) fold[b] = b >= 65 && b <= 90 ? b + 32 : b;

/** A finder for `needles` (non-empty byte strings); `ignoreCase` folds ASCII letters only. */
export function byteFinder(needles: Buffer[], ignoreCase: boolean): ByteFinder {
  const finders = needles.map((n) => (ignoreCase ? foldedHorspool(n) : exact(n)));
  return (hay, end) => {
    let best: { index: number; length: number } | null = null;
    for (const f of finders) {
      const m = f(hay, best ? Math.min(end, best.index + best.length) : end);
      if (m && (!best || m.index < best.index)) best = m;
    }
    return best;
  };
}

function exact(needle: Buffer): ByteFinder {
  return (hay, end) => {
    const i = hay.subarray(0, end).indexOf(needle);
    return i >= 0 ? { index: i, length: needle.length } : null;
  };
}

function foldedHorspool(needle: Buffer): ByteFinder {
  const m = needle.length;
  const pat = Uint8Array.from(needle, (b) => fold[b]);
  const shift = new Int32Array(256).fill(m);
  for (let k = 0; k < m - 1; k++) {
    shift[pat[k]] = m - 1 - k;
    // The upper-case letter skips like its lower-case form.
    if (pat[k] >= 97 && pat[k] <= 122) shift[pat[k] - 32] = m - 1 - k;
  }
  const last = pat[m - 1];
  return (hay, end) => {
    let i = 0;
    while (i <= end - m) {
      const c = fold[hay[i + m - 1]];
      if (c === last) {
        let k = m - 2;
        while (k >= 0 && fold[hay[i + k]] === pat[k]) k--;
        if (k < 0) return { index: i, length: m };
      }
      i += shift[hay[i + m - 1]];
    }
    return null;
  };
}
