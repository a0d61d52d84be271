/**
 * Plain-text search on raw bytes, so blob text is searched at the speed it is read: no UTF-8 decoding and no
 * lower-casing copy. A needle of two bytes or more is looked for with the SIMD pair scan (pairScan.ts): its two
 * rarest bytes at their distance, 16 positions at a time, each candidate checked in full here. Where that scan
 * is missing, or where the pair turns out common in the text, needles of 8 bytes or more use
 * Boyer-Moore-Horspool on byte pairs (faster than the native `Buffer.indexOf`), with ASCII letters folded when
 * ignoring case (the skip table is built on folded bytes, so either case skips alike); shorter needles use the
 * native search matching case, and Horspool on single bytes ignoring case.
 */
import { Buffer } from 'buffer';
import { pairScanner, placeInMemory } from './pairScan';

/** Finds the first of several needles in `hay[0, end)`; returns where and which length, or null. */
export type ByteFinder = (hay: Buffer, end: number) => { index: number; length: number } | null;

const fold = new Uint8Array(256);
for (let b = 0; b < 256; b++) fold[b] = b >= 65 && b <= 90 ? b + 32 : b;
const same = Uint8Array.from({ length: 256 }, (_, b) => b);

/** A finder for `needles` (non-empty byte strings); `ignoreCase` folds ASCII letters only. */
export function byteFinder(needles: Buffer[], ignoreCase: boolean): ByteFinder {
  const finders = needles.map((n) => {
    const fallback = ignoreCase ? foldedHorspool(n) : exact(n);
    return n.length >= 2 ? pairFinder(n, ignoreCase, fallback) : fallback;
  });
  return (hay, end) => {
    let best: { index: number; length: number } | null = null;
    for (const f of finders) {
      const m = f(hay, best ? Math.min(end, best.index + best.length) : end);
      if (m && (!best || m.index < best.index)) best = m;
    }
    return best;
  };
}

/**
 * Bytes by how common they are in trace text (JSON, prose, code, logs), most common first, roughly; bytes not
 * listed (capitals, most punctuation, non-ASCII) count as rare. Only the order matters: it picks which two of
 * a needle's bytes the pair scan tests.
 */
const COMMON = ' e"tao,insr:lhcd1u0m2p.f-g_y345b6789w/v{}kx\\TSEAjIqz';
const rank = new Uint8Array(256).fill(255);
for (let k = 0; k < COMMON.length; k++) rank[COMMON.charCodeAt(k)] = Math.min(rank[COMMON.charCodeAt(k)], k);

/**
 * Candidates checked in full that were no match, beyond which the pair is taken for a common one in this text
 * and the rest of the search goes to the fallback: more than 64 and more than one per 64 bytes scanned.
 */
const MISSES_MIN = 64;
const MISS_SPACING = 64;

/** The pair scan for `needle` (2 bytes or more), or `fallback` where the scan is not available. */
function pairFinder(needle: Buffer, ignoreCase: boolean, fallback: ByteFinder): ByteFinder {
  const s = pairScanner();
  if (!s) return fallback;
  const m = needle.length;
  const t = ignoreCase ? fold : same;
  const pat = Uint8Array.from(needle, (b) => t[b]);
  const [p1, p2] = rarestPair(pat, ignoreCase);
  const d = p2 - p1;
  const orOf = (b: number) => (ignoreCase && b >= 97 && b <= 122 ? 0x20 : 0);
  const [or1, b1, or2, b2] = [orOf(pat[p1]), pat[p1], orOf(pat[p2]), pat[p2]];
  return (hay, end) => {
    if (end < m) return null;
    const base = placeInMemory(s, hay, end);
    if (base < 0) return fallback(hay, end);
    // Candidate i (a position of the first byte, relative to hay) starts a match at i - p1.
    const limit = base + end - m + p2 + 1;
    let misses = 0;
    for (let at = base + p1; ; ) {
      const c = s.scan(at, limit, d, or1, b1, or2, b2);
      if (c < 0) return null;
      const from = c - base - p1;
      let k = 0;
      while (k < m && t[hay[from + k]] === pat[k]) k++;
      if (k === m) return { index: from, length: m };
      at = c + 1;
      if (++misses > MISSES_MIN && misses * MISS_SPACING > at - base) return offset(fallback(hay.subarray(from + 1), end - from - 1), from + 1);
    }
  };
}

/** Positions of the needle's two rarest bytes (distinct values where it has two), in order. */
function rarestPair(pat: Uint8Array, ignoreCase: boolean): [number, number] {
  const rarity = (k: number) => (ignoreCase && pat[k] >= 97 && pat[k] <= 122 ? Math.min(rank[pat[k]], rank[pat[k] - 32]) : rank[pat[k]]);
  let a = 0;
  for (let k = 1; k < pat.length; k++) if (rarity(k) > rarity(a)) a = k;
  let b = a === 0 ? 1 : 0;
  for (let k = 0; k < pat.length; k++) {
    if (k === a) continue;
    const better = (pat[k] !== pat[a]) !== (pat[b] !== pat[a]) ? pat[k] !== pat[a] : rarity(k) > rarity(b);
    if (better) b = k;
  }
  return a < b ? [a, b] : [b, a];
}

function offset(m: { index: number; length: number } | null, by: number): { index: number; length: number } | null {
  return m && { index: m.index + by, length: m.length };
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
