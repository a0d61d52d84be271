/**
 * Plain-text search on raw bytes, so blob text is searched at the speed it is read: no UTF-8 decoding and no
 * lower-casing copy. Needles of 8 bytes or more use Boyer-Moore-Horspool on byte pairs (faster here than the
 * native `Buffer.indexOf`), with ASCII letters folded when ignoring case (the skip table is built on folded
 * bytes, so either case skips alike); shorter needles use the native search matching case, and Horspool on
 * single bytes ignoring case.
 */

/** Finds the first of several needles in `hay[0, end)`; returns where and which length, or null. */
export type ByteFinder = (hay: Buffer, end: number) => { index: number; length: number } | null;

const fold = new Uint8Array(256);
for (let b = 0; b < 256; b++) fold[b] = b >= 65 && b <= 90 ? b + 32 : b;
const same = Uint8Array.from({ length: 256 }, (_, b) => b);

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
  if (needle.length >= PAIR_MIN) return pairHorspool(needle, same);
  return (hay, end) => {
    const i = hay.subarray(0, end).indexOf(needle);
    return i >= 0 ? { index: i, length: needle.length } : null;
  };
}

/** Below this length the pair table's shifts (at most m - 1) are too short to pay for its lookups. */
const PAIR_MIN = 8;

function foldedHorspool(needle: Buffer): ByteFinder {
  if (needle.length < 2) return foldedScan(needle);
  if (needle.length < PAIR_MIN) return foldedByteHorspool(needle);
  return pairHorspool(needle, fold);
}

/** Horspool on byte pairs, bytes read through `t` (folding, or the same byte). */
function pairHorspool(needle: Buffer, t: Uint8Array): ByteFinder {
  const m = needle.length;
  const pat = Uint8Array.from(needle, (b) => t[b]);
  // Shifts by the folded byte pair that ends the window (Horspool on 2-grams): in prose most pairs are not in
  // the needle, so the window moves by m - 1 where single bytes (letters the needle shares) moved by a few.
  const shift = new Uint8Array(65536).fill(Math.min(m - 1, 255));
  for (let k = 0; k < m - 1; k++) shift[(pat[k] << 8) | pat[k + 1]] = Math.min(m - 2 - k, 255);
  return (hay, end) => {
    let i = 0;
    while (i <= end - m) {
      const j = i + m - 1;
      const s = shift[(t[hay[j - 1]] << 8) | t[hay[j]]];
      if (s > 0) {
        i += s;
        continue;
      }
      let k = m - 3;
      while (k >= 0 && t[hay[i + k]] === pat[k]) k--;
      if (k < 0) return { index: i, length: m };
      i++;
    }
    return null;
  };
}

/** Horspool on single bytes, for short needles: the table holds both cases of each letter. */
function foldedByteHorspool(needle: Buffer): ByteFinder {
  const m = needle.length;
  const pat = Uint8Array.from(needle, (b) => fold[b]);
  const shift = new Uint8Array(256).fill(m);
  for (let k = 0; k < m - 1; k++) for (const b of cases(pat[k])) shift[b] = m - 1 - k;
  const last = pat[m - 1];
  return (hay, end) => {
    for (let i = m - 1; i < end; i += shift[hay[i]]) {
      if (fold[hay[i]] !== last) continue;
      const start = i - m + 1;
      let k = m - 2;
      while (k >= 0 && fold[hay[start + k]] === pat[k]) k--;
      if (k < 0) return { index: start, length: m };
    }
    return null;
  };
}

/** The byte and, for an ASCII letter, its other case. */
function cases(b: number): number[] {
  return b >= 97 && b <= 122 ? [b, b - 32] : [b];
}

/** A one-byte needle, either case: the native search for each case. */
function foldedScan(needle: Buffer): ByteFinder {
  const [a, b] = cases(fold[needle[0]]);
  return (hay, end) => {
    const within = hay.subarray(0, end);
    const i = within.indexOf(a);
    const j = b === undefined ? -1 : within.subarray(0, i >= 0 ? i : end).indexOf(b);
    const at = j >= 0 ? j : i;
    return at >= 0 ? { index: at, length: 1 } : null;
  };
}
