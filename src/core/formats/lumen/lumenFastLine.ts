/**
 * A byte-level reader for Lumen lines already written the canonical way, so that verify hashes the line's own
 * bytes instead of re-reading its text losslessly and rebuilding the pre-image as a string.
 *
 * It accepts only a strict subset of JSON: one compact object (no whitespace), no backslash anywhere, valid UTF-8,
 * only the sixteen known keys, each once, strings, non-negative integers of at most 15 digits, true/false/null, and
 * nested values (details) whose objects have strictly sorted keys and whose integers are at most 15 digits. In
 * that subset every value's bytes are its canonical (serde_json) text, so the pre-image (§6.1–6.2) is the values'
 * byte slices between fixed key fragments. Anything else returns false and the caller reads the line the slow way
 * (LumenLineReader), which is the reference: a test holds both to the same verdicts and hashes.
 */
import { Buffer } from 'buffer';
import { isUtf8 } from '../../io/platform';
import { hasControlByte } from '../../json/controlBytes';
import { LUMEN_KEYS, LUMEN_KINDS } from './lumenFields';
import { LumenPreimage } from './lumenPreimage';

/** How a value was written. */
export const enum Tok {
  Absent = 0,
  Str = 1,
  Int = 2,
  Bool = 3,
  Null = 4,
  Obj = 5,
  Arr = 6,
}

/** Nesting deeper than this takes the slow path (serde_json allows 127 open containers; the reader checks that). */
const MAX_DEPTH = 64;
/** Integers longer than this take the slow path (below 2^53, so a seq is exact as a number). */
const MAX_DIGITS = 15;

const QUOTE = 34;
const COMMA = 44;
const COLON = 58;
const MINUS = 45;
const ZERO = 48;
const NINE = 57;

const KEY_BYTES = LUMEN_KEYS.map((k) => Buffer.from(k));
const KIND_BYTES = LUMEN_KINDS.map((k) => Buffer.from(k));
/** Key slot by length * 128 + first byte (unique for the sixteen keys). */
const KEY_INDEX = new Map<number, number>(LUMEN_KEYS.map((k, slot) => [k.length * 128 + k.charCodeAt(0), slot]));

/** The spans and kinds of one line's known keys (value spans include a string's quotes). */
export class LumenFastLine {
  buf: Buffer = Buffer.alloc(0);
  readonly start = new Int32Array(LUMEN_KEYS.length);
  readonly end = new Int32Array(LUMEN_KEYS.length);
  readonly tok = new Uint8Array(LUMEN_KEYS.length);
  private readonly preimage = new LumenPreimage();

  /**
   * Reads a line's bytes (without its line break); false when they are outside the subset (see the file's comment).
   * With `strict`, also false when they hold a control character (0x00–0x1F), which JSON.parse refuses in a string
   * (and the subset outside one): a reader that takes lines before JSON.parse has seen them (lumenScanner.ts) reads
   * this way; otherwise the line is known to parse already. `utf8`: the bytes are known to be valid UTF-8.
   */
  read(buf: Buffer, strict = false, utf8 = false): boolean {
    this.buf = buf;
    this.tok.fill(Tok.Absent);
    this.kindSlot = -1;
    const n = buf.length;
    if (n < 2 || buf[0] !== 123 || buf[n - 1] !== 125 || buf.indexOf(92) >= 0 || (strict && hasControlByte(buf)) || (!utf8 && !isUtf8(buf))) return false;
    let p = 1;
    if (buf[p] === 125) return p + 1 === n;
    for (;;) {
      if (buf[p] !== QUOTE) return false;
      const keyEnd = buf.indexOf(QUOTE, p + 1);
      if (keyEnd < 0 || buf[keyEnd + 1] !== COLON) return false;
      const slot = slotOf(buf, p + 1, keyEnd);
      if (slot < 0 || this.tok[slot] !== Tok.Absent) return false;
      const v = keyEnd + 2;
      const after = this.value(v, 0);
      if (after < 0) return false;
      this.start[slot] = v;
      this.end[slot] = after;
      this.tok[slot] = this.lastTok;
      const c = buf[after];
      p = after + 1;
      if (c === 125) return p === n;
      if (c !== COMMA) return false;
    }
  }

  private lastTok: Tok = Tok.Absent;

  /** Skips the value at `p`; its end, or -1 outside the subset. Sets `lastTok`. */
  private value(p: number, depth: number): number {
    const buf = this.buf;
    const c = buf[p];
    if (c === QUOTE) {
      this.lastTok = Tok.Str;
      const close = buf.indexOf(QUOTE, p + 1);
      return close < 0 ? -1 : close + 1;
    }
    if (c >= ZERO && c <= NINE) {
      this.lastTok = Tok.Int;
      return integerEnd(buf, p);
    }
    if (c === 123) {
      const end = depth < MAX_DEPTH ? this.object(p, depth + 1) : -1;
      this.lastTok = Tok.Obj;
      return end;
    }
    if (c === 91) {
      const end = depth < MAX_DEPTH ? this.array(p, depth + 1) : -1;
      this.lastTok = Tok.Arr;
      return end;
    }
    if (c === MINUS && depth > 0) {
      // A negative integer inside details (serde prints i64 as written); never at the top level, where only u64 fits.
      this.lastTok = Tok.Int;
      const d = buf[p + 1];
      return d > ZERO && d <= NINE ? integerEnd(buf, p + 1) : -1;
    }
    if (c === 116) return this.literal(p, 'true', Tok.Bool);
    if (c === 102) return this.literal(p, 'false', Tok.Bool);
    if (c === 110) return this.literal(p, 'null', Tok.Null);
    return -1;
  }

  private literal(p: number, word: string, tok: Tok): number {
    for (let i = 0; i < word.length; i++) if (this.buf[p + i] !== word.charCodeAt(i)) return -1;
    this.lastTok = tok;
    return p + word.length;
  }

  /** An object whose keys are strictly sorted by bytes (so none repeats): its text is already canonical. */
  private object(p: number, depth: number): number {
    const buf = this.buf;
    p++;
    if (buf[p] === 125) return p + 1;
    let prevStart = -1;
    let prevEnd = -1;
    for (;;) {
      if (buf[p] !== QUOTE) return -1;
      const keyEnd = buf.indexOf(QUOTE, p + 1);
      if (keyEnd < 0 || buf[keyEnd + 1] !== COLON) return -1;
      // The key before must sort strictly before this one (UTF-8 byte order, as serde_json's map sorts).
      if (prevStart >= 0 && compareBytes(buf, prevStart, prevEnd, buf, p + 1, keyEnd) >= 0) return -1;
      prevStart = p + 1;
      prevEnd = keyEnd;
      const after = this.value(keyEnd + 2, depth);
      if (after < 0) return -1;
      p = after + 1;
      if (buf[after] === 125) return p;
      if (buf[after] !== COMMA) return -1;
    }
  }

  private array(p: number, depth: number): number {
    const buf = this.buf;
    p++;
    if (buf[p] === 93) return p + 1;
    for (;;) {
      const after = this.value(p, depth);
      if (after < 0) return -1;
      p = after + 1;
      if (buf[after] === 93) return p;
      if (buf[after] !== COMMA) return -1;
    }
  }

  /** Lowercase hex SHA-256 of the pre-image (§6.1–6.2) written from the line's bytes. */
  preimageHex(): string {
    return this.preimage.hex(this);
  }

  /** Whether the key at `slot` is in the line. */
  present(slot: number): boolean {
    return this.tok[slot] !== Tok.Absent;
  }

  /** Whether the string at `slot` is `sha256:` followed by exactly `hex`. */
  hashEquals(slot: number, hex: string): boolean {
    const s = this.start[slot] + 1;
    if (this.tok[slot] !== Tok.Str || this.end[slot] - 1 - s !== 7 + hex.length || !this.hasPrefix(s)) return false;
    const buf = this.buf;
    for (let i = 0; i < hex.length; i++) if (buf[s + 7 + i] !== hex.charCodeAt(i)) return false;
    return true;
  }

  /** Whether the string at `slot` equals `text`; false for any `text` that is not ASCII. */
  stringEquals(slot: number, text: string): boolean {
    const s = this.start[slot] + 1;
    if (this.tok[slot] !== Tok.Str || this.end[slot] - 1 - s !== text.length) return false;
    const buf = this.buf;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c > 127 || buf[s + i] !== c) return false;
    }
    return true;
  }

  /** Whether the string at `slot` is `sha256:` and 64 lowercase hex digits (CHAIN_HASH_RE). */
  isChainHash(slot: number): boolean {
    const s = this.start[slot] + 1;
    if (this.tok[slot] !== Tok.Str || this.end[slot] - 1 - s !== 71 || !this.hasPrefix(s)) return false;
    const buf = this.buf;
    for (let i = s + 7; i < s + 71; i++) {
      const c = buf[i];
      if (!((c >= ZERO && c <= NINE) || (c >= 97 && c <= 102))) return false;
    }
    return true;
  }

  /** The 64 hex digits of a chain hash at `slot` (see {@link isChainHash}). */
  hexOf(slot: number): string {
    const s = this.start[slot] + 8;
    return this.buf.toString('latin1', s, s + 64);
  }

  /** The slot whose kind index the line read last has given ({@link kindIndex}), -1 for none yet, and that index. */
  private kindSlot = -1;
  private kindAt = -1;

  /**
   * The index in LUMEN_KINDS of the string at `slot`, or -1. Kept for the line read (a worker's facts, its
   * digest and the field checks each ask for the kind: four byte matches a line, one now).
   */
  kindIndex(slot: number): number {
    if (slot === this.kindSlot) return this.kindAt;
    const k = this.matchKind(slot);
    this.kindSlot = slot;
    this.kindAt = k;
    return k;
  }

  private matchKind(slot: number): number {
    if (this.tok[slot] !== Tok.Str) return -1;
    const s = this.start[slot] + 1;
    const e = this.end[slot] - 1;
    for (let k = 0; k < KIND_BYTES.length; k++) {
      const kb = KIND_BYTES[k];
      if (kb.length === e - s && compareBytes(kb, 0, kb.length, this.buf, s, e) === 0) return k;
    }
    return -1;
  }

  /** The decoded string at `slot` (its bytes hold no escape). */
  string(slot: number): string {
    return this.buf.toString('utf8', this.start[slot] + 1, this.end[slot] - 1);
  }

  /** The integer at `slot` (at most 15 digits, so exact). */
  integer(slot: number): number {
    let x = 0;
    for (let i = this.start[slot]; i < this.end[slot]; i++) x = x * 10 + this.buf[i] - ZERO;
    return x;
  }

  private hasPrefix(s: number): boolean {
    const b = this.buf;
    // `sha256:`
    return b[s] === 115 && b[s + 1] === 104 && b[s + 2] === 97 && b[s + 3] === 50 && b[s + 4] === 53 && b[s + 5] === 54 && b[s + 6] === COLON;
  }
}

/** The end of the digits at `p` (a leading zero stands alone); -1 for a fraction, an exponent or too many digits. */
function integerEnd(buf: Buffer, p: number): number {
  let i = p;
  if (buf[i] === ZERO) i++;
  else while (buf[i] >= ZERO && buf[i] <= NINE) i++;
  const c = buf[i];
  if (i - p > MAX_DIGITS || c === 46 || c === 101 || c === 69 || (c >= ZERO && c <= NINE)) return -1;
  return i;
}

/** The slot of the key at `buf[s, e)`, or -1. */
function slotOf(buf: Buffer, s: number, e: number): number {
  const slot = KEY_INDEX.get((e - s) * 128 + buf[s]);
  if (slot === undefined) return -1;
  const key = KEY_BYTES[slot];
  for (let i = 1; i < key.length; i++) if (buf[s + i] !== key[i]) return -1;
  return slot;
}

/** Compares `a[as, ae)` with `b[bs, be)` byte by byte (negative when a sorts first). */
function compareBytes(a: Uint8Array, as: number, ae: number, b: Uint8Array, bs: number, be: number): number {
  const n = Math.min(ae - as, be - bs);
  for (let i = 0; i < n; i++) {
    const d = a[as + i] - b[bs + i];
    if (d !== 0) return d;
  }
  return ae - as - (be - bs);
}

/** The token of the value that starts with byte `c`, in a line the reader took. */
export function tokenAt(c: number): Tok {
  if (c === QUOTE) return Tok.Str;
  if (c === 123) return Tok.Obj;
  if (c === 91) return Tok.Arr;
  if (c === 116 || c === 102) return Tok.Bool;
  if (c === 110) return Tok.Null;
  return Tok.Int;
}

/** The end of the value at `p`, in a line the reader took (so it is well-formed and has no escape). */
export function valueEnd(buf: Buffer, p: number): number {
  const c = buf[p];
  if (c === QUOTE) return buf.indexOf(QUOTE, p + 1) + 1;
  if (c === 123 || c === 91) {
    let depth = 0;
    for (let i = p; i < buf.length; i++) {
      const b = buf[i];
      if (b === QUOTE) i = buf.indexOf(QUOTE, i + 1);
      else if (b === 123 || b === 91) depth++;
      else if ((b === 125 || b === 93) && --depth === 0) return i + 1;
    }
    return buf.length;
  }
  if (c === 116 || c === 110) return p + 4;
  if (c === 102) return p + 5;
  let i = c === MINUS ? p + 1 : p;
  while (buf[i] >= ZERO && buf[i] <= NINE) i++;
  return i;
}

/** Where {@link objectValue} found a value: `[start, end)` of the line. */
export interface ValueSpan {
  start: number;
  end: number;
}

/**
 * The token of the value of `key` in the object at `buf[s, e)` of a line the reader took (its pairs are
 * `"key":value` with no escape), with the value's span in `found`; Absent when the object lacks the key.
 */
export function objectValue(buf: Buffer, s: number, e: number, key: Uint8Array, found: ValueSpan): Tok {
  let p = s + 1;
  while (p < e && buf[p] === QUOTE) {
    const keyEnd = buf.indexOf(QUOTE, p + 1);
    const v = keyEnd + 2;
    const end = valueEnd(buf, v);
    if (keyEnd < 0 || end <= p) return Tok.Absent; // never, for an object the reader took: a guard against looping
    if (keyEnd - p - 1 === key.length && compareBytes(buf, p + 1, keyEnd, key, 0, key.length) === 0) {
      found.start = v;
      found.end = end;
      return tokenAt(buf[v]);
    }
    p = end + 1;
  }
  return Tok.Absent;
}
