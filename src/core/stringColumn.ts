/**
 * An append-only column of strings (or nulls) kept as UTF-8 bytes in one growing buffer: entry `k` costs its
 * bytes plus five, where a JS string costs a header of 16 bytes and a pointer of 8 besides its characters.
 * The column of ids and of stored labels in the event table, where a million events made a million strings.
 */
export class StringColumn {
  private bytes = new Uint8Array(4096);
  private used = 0;
  /** End offset (exclusive) of entry k in `bytes`; entry k starts where entry k-1 ends. Empty while every entry is null. */
  private ends = new Uint32Array(0);
  /** 1 when entry k holds a string (possibly empty), 0 for null; no array while no entry after the first string is null. */
  private present: Uint8Array | null = null;
  private count = 0;
  /** Entries a read expects (see {@link reserve}). */
  private reserved = 0;
  /** Prefixes of packed hex ids (`evt_`, `msg_`), each written once here and as one byte in an entry. */
  private readonly prefixes = new PrefixTable();

  get size(): number {
    return this.count;
  }

  /** Appends a string (or null) as the next entry. */
  push(s: string | null | undefined): void {
    const k = this.count++;
    const isNull = s === null || s === undefined;
    // A column of nulls (the ids of a format without ids) costs nothing.
    if (this.ends.length === 0) {
      if (isNull) return;
      // Leading nulls: present[0..k) stay 0.
      if (k > 0) this.present = new Uint8Array(this.ends.length);
    }
    if (k >= this.ends.length) {
      this.ends = k < this.reserved ? grownTo(this.ends, this.reserved) : grown(this.ends, k + 1);
      if (this.present) this.present = grownTo(this.present, this.ends.length);
    }
    if (isNull) {
      if (!this.present) this.present = new Uint8Array(this.ends.length).fill(1, 0, k);
      this.present[k] = 0;
    } else {
      if (this.present) this.present[k] = 1;
      this.write(s);
    }
    this.ends[k] = this.used;
  }

  /** Whether entry k holds a string. */
  private has(k: number): boolean {
    return k < this.count && k < this.ends.length && (this.present === null || this.present[k] === 1);
  }

  /** Entry k, or null. */
  get(k: number): string | null {
    if (!this.has(k)) return null;
    return decodeText(this.bytes, k === 0 ? 0 : this.ends[k - 1], this.ends[k], this.prefixes);
  }

  /**
   * Whether entry k is exactly `s`, without making a string of it: a different id is rejected at its first
   * differing byte (an id index compares every probe this way).
   */
  equals(k: number, s: string): boolean {
    return this.has(k) && textEquals(this.bytes, k === 0 ? 0 : this.ends[k - 1], this.ends[k], this.prefixes, s);
  }

  /**
   * Whether entries a and b hold the same string (both null counts as the same), comparing their bytes: one
   * column writes a string the same way every time (its prefix is named, or written inline, from its first use on).
   */
  sameAs(a: number, b: number): boolean {
    const ha = this.has(a);
    if (ha !== this.has(b)) return false;
    if (!ha) return true;
    const sa = a === 0 ? 0 : this.ends[a - 1];
    const sb = b === 0 ? 0 : this.ends[b - 1];
    const length = this.ends[a] - sa;
    if (this.ends[b] - sb !== length) return false;
    // Ids of one prefix differ in their last digits: compare from the end.
    for (let j = length - 1; j >= 0; j--) if (this.bytes[sa + j] !== this.bytes[sb + j]) return false;
    return true;
  }

  /** Bytes of the buffers (for the memory breakdown). */
  get byteSize(): number {
    return this.bytes.byteLength + this.ends.byteLength + (this.present?.byteLength ?? 0);
  }

  /**
   * Room for about `n` entries (see NumberColumn.reserve): the entry arrays at once, the bytes as many more
   * as the entries so far took on average.
   */
  reserve(n: number): void {
    if (n <= this.reserved) return;
    this.reserved = n;
    if (this.ends.length > 0 && this.ends.length < n) {
      this.ends = grownTo(this.ends, n);
      if (this.present) this.present = grownTo(this.present, n);
    }
    const bytes = this.count > 0 ? Math.ceil((this.used / this.count) * n) : 0;
    if (bytes > this.bytes.length) this.bytes = grownTo(this.bytes, bytes);
  }

  /**
   * Drops the spare capacity of a finished read (unless it is at most `slack` of the entries, and as large a
   * share of the bytes); a later push grows the buffers again.
   */
  trim(slack = 0): void {
    if (this.bytes.length > this.used + Math.ceil((this.used / Math.max(1, this.count)) * slack)) this.bytes = this.bytes.slice(0, this.used);
    if (this.ends.length > this.count + slack) {
      this.ends = this.ends.slice(0, this.count);
      if (this.present) this.present = this.present.slice(0, this.count);
    }
  }

  private write(s: string): void {
    if (this.used + maxTextBytes(s) > this.bytes.length) this.bytes = grown(this.bytes, this.used + maxTextBytes(s));
    this.used = encodeText(s, this.bytes, this.used, this.prefixes);
  }
}

/** Room `encodeText` may need for `s`: UTF-8 needs at most three bytes per UTF-16 unit. */
export function maxTextBytes(s: string): number {
  return s.length * 3 + 2;
}

/** Writes `s` at `at` (packed hex, else UTF-8) and returns where its bytes end; `out` has `maxTextBytes(s)` of room. */
export function encodeText(s: string, out: Uint8Array, at: number, prefixes: PrefixTable): number {
  const packed = packUuid(s, out, at) || packHex(s, out, at, prefixes);
  if (packed > 0) return at + packed;
  let p = at;
  let j = 0;
  for (; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c >= 0x80) break;
    out[p++] = c;
  }
  if (j < s.length) p += ENCODER.encodeInto(s.slice(j), out.subarray(p)).written;
  return p;
}

/** The string `encodeText` wrote in bytes [start, end). */
export function decodeText(bytes: Uint8Array, start: number, end: number, prefixes: PrefixTable): string {
  if (end > start && bytes[start] >= PACKED_UUID) return bytes[start] === PACKED_UUID ? unpackUuid(bytes, start) : unpackHex(bytes, start, end, prefixes);
  // Ids and labels are mostly ASCII: char codes straight from the bytes avoid a decoder call.
  let ascii = true;
  for (let p = start; p < end; p++) if (bytes[p] >= 0x80) { ascii = false; break; }
  if (!ascii || end - start > 1024) return DECODER.decode(bytes.subarray(start, end));
  return String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
}

/** Whether bytes [start, end) that `encodeText` wrote are `s`, without making a string of them. */
export function textEquals(bytes: Uint8Array, start: number, end: number, prefixes: PrefixTable, s: string): boolean {
  if (end > start && bytes[start] >= PACKED_UUID) return bytes[start] === PACKED_UUID ? uuidEquals(bytes, start, end, s) : packedEquals(bytes, start, end, prefixes, s);
  // UTF-8 has at least as many bytes as the string has UTF-16 units, and exactly as many for ASCII.
  if (end - start < s.length) return false;
  if (end - start === s.length) {
    let ascii = true;
    for (let j = 0; j < s.length; j++) {
      const c = s.charCodeAt(j);
      if (c >= 0x80) { ascii = false; break; }
      if (c !== bytes[start + j]) return false;
    }
    if (ascii) return true;
  } else if (!/[^\x00-\x7f]/.test(s)) return false;
  return decodeText(bytes, start, end, prefixes) === s;
}

/**
 * First byte of an entry kept as a prefix and hex digits two to a byte: PACKED_REF is followed by the prefix's
 * number in the column's prefix table, PACKED_INLINE by the prefix's length and the prefix itself (once the
 * table is full). PACKED_UUID is followed by the 16 bytes of a lowercase UUID. None of them ever starts UTF-8.
 */
const PACKED_REF = 0xff;
const PACKED_INLINE = 0xfe;
const PACKED_UUID = 0xfd;
/** Where a UUID's 36 characters have dashes, and where the two digits of each of its 16 bytes start. */
const UUID_DASHES = [8, 13, 18, 23];
const UUID_DIGITS = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
const MIN_HEX = 16;
const HEX = '0123456789abcdef';
const HEX_CODES = Array.from(HEX, (c) => c.charCodeAt(0));

/** The distinct prefixes of one column's packed entries, up to 256. */
export class PrefixTable {
  readonly values: string[] = [];
  private readonly refs = new Map<string, number>();
  /** The prefix last asked for and its number: a column's entries mostly share one prefix (`evt_`). */
  private last = '';
  private lastRef = -1;

  /** `ref` of the first `length` units of `s`, without making the prefix's string when it is the last one asked for. */
  refOf(s: string, length: number): number {
    if (this.lastRef >= 0 && this.last.length === length && s.startsWith(this.last)) return this.lastRef;
    const prefix = s.slice(0, length);
    const r = this.ref(prefix);
    if (r >= 0) (this.last = prefix), (this.lastRef = r);
    return r;
  }

  /** The prefix's number, or -1 when the table is full. */
  ref(prefix: string): number {
    let r = this.refs.get(prefix);
    if (r === undefined) {
      if (this.values.length > 0xff) return -1;
      r = this.values.push(prefix) - 1;
      this.refs.set(prefix, r);
    }
    return r;
  }
}

/**
 * Ids are mostly a short prefix and a long run of lowercase hex (`evt_` + 32 digits, UUIDs' last group,
 * hashes): such a string is written as a marker, its prefix (one byte when the prefix table has it) and the
 * digits packed two to a byte, about half its size. Returns the bytes written, or 0 when the string has no
 * such tail.
 */
function packHex(s: string, out: Uint8Array, at: number, prefixes: PrefixTable): number {
  let tail = s.length;
  while (tail > 0 && isHex(s.charCodeAt(tail - 1))) tail--;
  if ((s.length - tail) % 2 === 1) tail++;
  if (s.length - tail < MIN_HEX || tail > 255) return 0;
  for (let j = 0; j < tail; j++) if (s.charCodeAt(j) >= 0x80) return 0;
  const ref = prefixes.refOf(s, tail);
  let p = at + 2;
  if (ref >= 0) {
    out[at] = PACKED_REF;
    out[at + 1] = ref;
  } else {
    out[at] = PACKED_INLINE;
    out[at + 1] = tail;
    for (let j = 0; j < tail; j++) out[p++] = s.charCodeAt(j);
  }
  for (let j = tail; j < s.length; j += 2) out[p++] = (nibble(s.charCodeAt(j)) << 4) | nibble(s.charCodeAt(j + 1));
  return p - at;
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102);
}

/** The value of a lowercase hex digit's char code (`isHex`). */
function nibble(c: number): number {
  return c <= 57 ? c - 48 : c - 87;
}

/** The prefix of a packed entry and where its digits start. */
function packedPrefix(bytes: Uint8Array, start: number, prefixes: PrefixTable): { prefix: string; digits: number } {
  if (bytes[start] === PACKED_REF) return { prefix: prefixes.values[bytes[start + 1]], digits: start + 2 };
  const tail = bytes[start + 1];
  return { prefix: String.fromCharCode.apply(null, bytes.subarray(start + 2, start + 2 + tail) as unknown as number[]), digits: start + 2 + tail };
}

const codes: number[] = [];

function unpackHex(bytes: Uint8Array, start: number, end: number, prefixes: PrefixTable): string {
  const { prefix, digits } = packedPrefix(bytes, start, prefixes);
  codes.length = 0;
  for (let p = digits; p < end; p++) codes.push(HEX_CODES[bytes[p] >> 4], HEX_CODES[bytes[p] & 15]);
  return prefix + String.fromCharCode.apply(null, codes);
}

function packedEquals(bytes: Uint8Array, start: number, end: number, prefixes: PrefixTable, s: string): boolean {
  const ref = bytes[start] === PACKED_REF;
  const prefixLength = ref ? prefixes.values[bytes[start + 1]].length : bytes[start + 1];
  const digits = start + 2 + (ref ? 0 : prefixLength);
  if (s.length !== prefixLength + 2 * (end - digits)) return false;
  // Ids of one prefix differ in their digits, counters in the last ones: compare those first, backwards.
  for (let p = end - 1, j = s.length - 2; p >= digits; p--, j -= 2) {
    if (s.charCodeAt(j + 1) !== HEX_CODES[bytes[p] & 15] || s.charCodeAt(j) !== HEX_CODES[bytes[p] >> 4]) return false;
  }
  if (ref) return s.startsWith(prefixes.values[bytes[start + 1]]);
  for (let j = 0; j < prefixLength; j++) if (s.charCodeAt(j) !== bytes[start + 2 + j]) return false;
  return true;
}

/**
 * A lowercase UUID (Claude Code's and Gemini's message ids, lumen's run ids) as a marker and its 16 bytes, 17 in
 * all for its 36 characters (its last group alone would leave a prefix as long as the digits). Returns the bytes
 * written, or 0 for any other string (upper case included: it must read back exactly).
 */
function packUuid(s: string, out: Uint8Array, at: number): number {
  if (s.length !== 36 || s.charCodeAt(8) !== 45 || s.charCodeAt(13) !== 45 || s.charCodeAt(18) !== 45 || s.charCodeAt(23) !== 45) return 0;
  // Every group has an even number of digits, so no byte's pair of digits spans a dash.
  for (let k = 0; k < 16; k++) {
    const j = UUID_DIGITS[k];
    const a = s.charCodeAt(j);
    const b = s.charCodeAt(j + 1);
    if (!isHex(a) || !isHex(b)) return 0;
    out[at + 1 + k] = (nibble(a) << 4) | nibble(b);
  }
  out[at] = PACKED_UUID;
  return 17;
}

function unpackUuid(bytes: Uint8Array, start: number): string {
  codes.length = 0;
  for (let k = 0; k < 16; k++) {
    if (k === 4 || k === 6 || k === 8 || k === 10) codes.push(45);
    const b = bytes[start + 1 + k];
    codes.push(HEX_CODES[b >> 4], HEX_CODES[b & 15]);
  }
  return String.fromCharCode.apply(null, codes);
}

function uuidEquals(bytes: Uint8Array, start: number, end: number, s: string): boolean {
  if (end - start !== 17 || s.length !== 36) return false;
  // Compared from the end, where ids of one writer differ most.
  for (let k = 15; k >= 0; k--) {
    const j = UUID_DIGITS[k];
    const b = bytes[start + 1 + k];
    if (s.charCodeAt(j) !== HEX_CODES[b >> 4] || s.charCodeAt(j + 1) !== HEX_CODES[b & 15]) return false;
  }
  for (const d of UUID_DASHES) if (s.charCodeAt(d) !== 45) return false;
  return true;
}

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();

/** A copy of `a` in a typed array of `n` entries (n ≥ its length). */
export function grownTo<T extends Uint8Array | Uint32Array | Int32Array | Float64Array>(a: T, n: number): T {
  const next = new (a.constructor as new (n: number) => T)(n);
  next.set(a);
  return next;
}

/** A copy of `a` in a typed array at least twice as long (and at least `atLeast` entries, and 1024). */
export function grown<T extends Uint8Array | Uint32Array | Int32Array | Float64Array>(a: T, atLeast: number): T {
  let n = Math.max(1024, a.length * 2);
  while (n < atLeast) n *= 2;
  const next = new (a.constructor as new (n: number) => T)(n);
  next.set(a);
  return next;
}
