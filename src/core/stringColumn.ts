/**
 * An append-only column of strings (or nulls) kept as UTF-8 bytes in one growing buffer: entry `k` costs its
 * bytes plus five, where a JS string costs a header of 16 bytes and a pointer of 8 besides its characters.
 * The column of ids and of stored labels in the event table, where a million events made a million strings.
 */
export class StringColumn {
  private bytes = new Uint8Array(4096);
  private used = 0;
  /** End offset (exclusive) of entry k in `bytes`; entry k starts where entry k-1 ends. */
  private ends = new Uint32Array(0);
  /** 1 when entry k holds a string (possibly empty), 0 for null. Both arrays stay empty while every entry is null. */
  private present = new Uint8Array(0);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Appends a string (or null) as the next entry. */
  push(s: string | null | undefined): void {
    const k = this.count++;
    // A column of nulls (the ids of a format without ids) costs nothing.
    if ((s === null || s === undefined) && this.used === 0 && this.present.length === 0) return;
    if (k >= this.ends.length) {
      this.ends = grown(this.ends, k + 1);
      this.present = grown(this.present, k + 1);
    }
    if (s !== null && s !== undefined) {
      this.present[k] = 1;
      this.write(s);
    }
    this.ends[k] = this.used;
  }

  /** Entry k, or null. */
  get(k: number): string | null {
    if (k >= this.present.length || this.present[k] === 0) return null;
    const start = k === 0 ? 0 : this.ends[k - 1];
    const end = this.ends[k];
    if (end > start && this.bytes[start] === PACKED) return unpackHex(this.bytes, start, end);
    // Ids and labels are mostly ASCII: char codes straight from the bytes avoid a decoder call.
    let ascii = true;
    for (let p = start; p < end; p++) if (this.bytes[p] >= 0x80) { ascii = false; break; }
    if (!ascii) return DECODER.decode(this.bytes.subarray(start, end));
    return end - start <= 1024 ? String.fromCharCode.apply(null, this.bytes.subarray(start, end) as unknown as number[]) : DECODER.decode(this.bytes.subarray(start, end));
  }

  /** Whether entry k is exactly `s`, without making a string of it when `s` is ASCII. */
  equals(k: number, s: string): boolean {
    if (k >= this.present.length || this.present[k] === 0) return false;
    const start = k === 0 ? 0 : this.ends[k - 1];
    const end = this.ends[k];
    if (end - start === s.length && this.bytes[start] !== PACKED) {
      let ascii = true;
      for (let j = 0; j < s.length; j++) {
        const c = s.charCodeAt(j);
        if (c >= 0x80) { ascii = false; break; }
        if (c !== this.bytes[start + j]) return false;
      }
      if (ascii) return true;
    }
    // Non-ASCII text has more bytes than UTF-16 units, so equal lengths above only matter for ASCII.
    return this.get(k) === s;
  }

  /** Bytes of entry k (0 for null or empty). */
  byteLength(k: number): number {
    if (k >= this.present.length || this.present[k] === 0) return 0;
    return this.ends[k] - (k === 0 ? 0 : this.ends[k - 1]);
  }

  /**
   * FNV-1a over entry k's stored bytes. A string is always stored as the same bytes (packing is a function of
   * the string), so equal strings have equal hashes; null hashes as empty.
   */
  hashAt(k: number): number {
    let h = 0x811c9dc5;
    const n = this.byteLength(k);
    const start = n === 0 || k === 0 ? 0 : this.ends[k - 1];
    for (let p = start; p < start + n; p++) h = Math.imul(h ^ this.bytes[p], 0x01000193);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    return (h ^ (h >>> 12)) >>> 0;
  }

  /** Whether entries a and b hold the same string (null equals only null), compared byte for byte. */
  sameAt(a: number, b: number): boolean {
    const pa = a < this.present.length && this.present[a] === 1;
    const pb = b < this.present.length && this.present[b] === 1;
    if (!pa || !pb) return pa === pb;
    const sa = a === 0 ? 0 : this.ends[a - 1];
    const sb = b === 0 ? 0 : this.ends[b - 1];
    const len = this.ends[a] - sa;
    if (len !== this.ends[b] - sb) return false;
    for (let j = 0; j < len; j++) if (this.bytes[sa + j] !== this.bytes[sb + j]) return false;
    return true;
  }

  private write(s: string): void {
    // UTF-8 needs at most three bytes per UTF-16 unit.
    if (this.used + s.length * 3 > this.bytes.length) this.bytes = grown(this.bytes, this.used + s.length * 3);
    const packed = packHex(s, this.bytes, this.used);
    if (packed > 0) {
      this.used += packed;
      return;
    }
    let p = this.used;
    let j = 0;
    for (; j < s.length; j++) {
      const c = s.charCodeAt(j);
      if (c >= 0x80) break;
      this.bytes[p++] = c;
    }
    if (j < s.length) p += ENCODER.encodeInto(s.slice(j), this.bytes.subarray(p)).written;
    this.used = p;
  }
}

/** First byte of an entry kept as prefix + hex digits two to a byte (0xFF never starts UTF-8). */
const PACKED = 0xff;
const MIN_HEX = 16;
const HEX = '0123456789abcdef';

/**
 * Ids are mostly a short prefix and a long run of lowercase hex (`evt_` + 32 digits, UUIDs' last group,
 * hashes): such a string is written as 0xFF, the prefix's length, the prefix, and the digits packed two to
 * a byte, about half its size. Returns the bytes written, or 0 when the string has no such tail.
 */
function packHex(s: string, out: Uint8Array, at: number): number {
  let tail = s.length;
  while (tail > 0 && isHex(s.charCodeAt(tail - 1))) tail--;
  if ((s.length - tail) % 2 === 1) tail++;
  if (s.length - tail < MIN_HEX || tail > 255) return 0;
  for (let j = 0; j < tail; j++) if (s.charCodeAt(j) >= 0x80) return 0;
  out[at] = PACKED;
  out[at + 1] = tail;
  let p = at + 2;
  for (let j = 0; j < tail; j++) out[p++] = s.charCodeAt(j);
  for (let j = tail; j < s.length; j += 2) out[p++] = (HEX.indexOf(s[j]) << 4) | HEX.indexOf(s[j + 1]);
  return p - at;
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102);
}

const HEX_CODES = Array.from(HEX, (c) => c.charCodeAt(0));
const codes: number[] = [];

function unpackHex(bytes: Uint8Array, start: number, end: number): string {
  const tail = bytes[start + 1];
  codes.length = 0;
  for (let p = start + 2; p < start + 2 + tail; p++) codes.push(bytes[p]);
  for (let p = start + 2 + tail; p < end; p++) codes.push(HEX_CODES[bytes[p] >> 4], HEX_CODES[bytes[p] & 15]);
  return String.fromCharCode.apply(null, codes);
}

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();

function grown<T extends Uint8Array | Uint32Array>(a: T, atLeast: number): T {
  let n = Math.max(1024, a.length * 2);
  while (n < atLeast) n *= 2;
  const next = new (a.constructor as new (n: number) => T)(n);
  next.set(a);
  return next;
}
