import { finishHash } from './idHashIndex';
import type { IdMention } from './model';
import { NumberColumn } from './numberColumn';
import { decodeText, encodeText, grown, grownTo, maxTextBytes, PrefixTable } from './stringColumn';
import type { Interner } from './tableColumns';

/**
 * The ids each event mentions besides its own and its parent's, in one byte buffer: event i's mentions are the
 * bytes from `start(i)` to the next event's start, each a field name (its number in the table's interner) and
 * the id, both with varint lengths, so a mention costs its text and two bytes instead of an offset of four.
 * An id equal to the last one written under the same field (the task id every event of a task names) is
 * written as the distance back to that one.
 */
export class MentionColumns {
  private readonly start = new NumberColumn();
  private bytes = new Uint8Array(4096);
  private used = 0;
  private events = 0;
  private readonly prefixes = new PrefixTable();
  /** Per field number: the last id written in full under it, and where its header is. */
  private readonly lastByField = new Map<number, { id: string; at: number }>();

  constructor(private readonly strings: Interner) {}

  /** Records event i's mentions (at most 255: a longer list is cut, as a row never shows more). */
  add(i: number, mentions: readonly IdMention[] | undefined): void {
    this.start.set(i, this.used);
    this.events = i + 1;
    const count = mentions ? Math.min(255, mentions.length) : 0;
    for (let k = 0; k < count; k++) {
      const { field, id } = mentions![k];
      if (this.used + 10 + maxTextBytes(id) > this.bytes.length) this.bytes = grown(this.bytes, this.used + 10 + maxTextBytes(id));
      const ref = this.strings.id(field);
      this.used = writeVarint(this.bytes, this.used, ref);
      const last = this.lastByField.get(ref);
      const at = this.used;
      if (last !== undefined && last.id === id) {
        this.used = writeVarint(this.bytes, at, ((at - last.at) * 2) + 1);
        continue;
      }
      // The length goes before the text: written after it, once its size is known.
      const text = encodeText(id, this.bytes, at + 5, this.prefixes);
      const head = writeVarint(this.bytes, at, (text - at - 5) * 2);
      this.bytes.copyWithin(head, at + 5, text);
      this.used = head + (text - at - 5);
      this.lastByField.set(ref, { id, at });
    }
  }

  of(i: number): IdMention[] {
    const out: IdMention[] = [];
    const end = i + 1 < this.events ? this.start.raw(i + 1) : this.used;
    for (let p = this.start.raw(i); p < end;) {
      const [ref, at] = readVarint(this.bytes, p);
      const [head, text] = readVarint(this.bytes, at);
      p = (head & 1) === 1 ? text : text + head / 2;
      out.push({ field: this.strings.value(ref) ?? '', id: this.textAt(at) });
    }
    return out;
  }

  /** The id whose header is at `at`, following a repeat back to the id written in full. */
  private textAt(at: number): string {
    const [head, text] = readVarint(this.bytes, at);
    if ((head & 1) === 1) return this.textAt(at - (head - 1) / 2);
    return decodeText(this.bytes, text, text + head / 2, this.prefixes);
  }

  /**
   * Entries read without objects (the tool-call pairing): an entry is named by the position of its field number
   * in the buffer. Event i's entries run from `firstEntry(i)`, each to `nextEntry(k)`, until `endOf(i)`.
   */
  firstEntry(i: number): number {
    return this.start.raw(i);
  }
  /** Where event i's entries end. */
  endOf(i: number): number {
    return i + 1 < this.events ? this.start.raw(i + 1) : this.used;
  }
  /** The entry after entry k. */
  nextEntry(k: number): number {
    const head = this.varint(this.skip(k));
    return (head & 1) === 1 ? this.at : this.at + head / 2;
  }
  /** Entry k's field (an interned string: the same object for every entry of that field). */
  fieldAt(k: number): string {
    return this.strings.value(this.varint(k)) ?? '';
  }
  /** The event that owns entry k (a binary search: entries are in event order). */
  eventAt(k: number): number {
    let lo = 0;
    let hi = this.events - 1;
    // The last event that starts at or before k: an event without entries starts where the next one does.
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.start.raw(mid) <= k) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
  /**
   * Entry k's id, the string `of` gives for it, made without the mention object. A repeated id (the task id every
   * event of a task names) is decoded once: its entries point at one text, and the last decodes are kept by where
   * that text is.
   */
  idAt(k: number): string {
    const n = this.idText(k);
    const from = this.at;
    const c = from & (HASH_CACHE - 1);
    if (this.decodedAt[c] === from) return this.decoded[c];
    this.decodedAt[c] = from;
    return (this.decoded[c] = decodeText(this.bytes, from, from + n, this.prefixes));
  }
  /** The field number of the entry {@link readEntry} read last. */
  entryField = 0;
  /** The id hash of the entry {@link readEntry} read last ({@link idHashAt}), -1 for an empty id. */
  entryHash = -1;
  /**
   * Reads entry k in one pass (its field number and id hash into `entryField` and `entryHash`) and returns the
   * entry after it (the tool-call pairing reads every call's entries: each number is decoded once, not once per question).
   */
  readEntry(k: number): number {
    this.entryField = this.varint(k);
    let p = this.at;
    let head = this.varint(p);
    const next = (head & 1) === 1 ? this.at : this.at + head / 2;
    // A repeat is followed back to the id written in full (as idText does).
    while ((head & 1) === 1) {
      p -= (head - 1) / 2;
      head = this.varint(p);
    }
    this.entryHash = head === 0 ? -1 : this.hashText(head / 2);
    return next;
  }
  /** Whether entry k's id is empty. */
  emptyAt(k: number): boolean {
    return this.idText(k) === 0;
  }
  /** A 32-bit hash of entry k's id, from its stored bytes (equal ids are stored as equal bytes). */
  idHashAt(k: number): number {
    return this.hashText(this.idText(k));
  }
  /** The hash of the `n` bytes of id text at `at` (where `idText` left it). */
  private hashText(n: number): number {
    const from = this.at;
    // A repeated id (the task id every event of a task names) is hashed once: its entries point at one text.
    const c = from & (HASH_CACHE - 1);
    if (this.hashedAt[c] === from) return this.hashed[c];
    const bytes = this.bytes;
    let h = 0x811c9dc5;
    for (let p = from; p < from + n; p++) h = Math.imul(h ^ bytes[p], 0x01000193);
    this.hashedAt[c] = from;
    return (this.hashed[c] = finishHash(h));
  }
  /** Whether entries a and b hold the same id, compared byte for byte. */
  sameIdAt(a: number, b: number): boolean {
    const na = this.idText(a);
    const pa = this.at;
    if (this.idText(b) !== na) return false;
    const pb = this.at;
    if (pa === pb) return true;
    for (let j = 0; j < na; j++) if (this.bytes[pa + j] !== this.bytes[pb + j]) return false;
    return true;
  }

  /** The last ids decoded by `idAt`, by where their text is (direct-mapped like the hashes; -1: empty). */
  private readonly decodedAt = new Float64Array(HASH_CACHE).fill(-1);
  private readonly decoded: string[] = new Array<string>(HASH_CACHE).fill('');
  /** The last hashes made, by where their text is (a small direct-mapped cache; -1: empty). */
  private readonly hashedAt = new Float64Array(HASH_CACHE).fill(-1);
  private readonly hashed = new Uint32Array(HASH_CACHE);

  // Entry reading without allocation (these run once per mention in the tool-call pairing): a read leaves the
  // position after it in `at`.
  private at = 0;
  /** The LEB128 number at `p`; `at` is set past it. */
  private varint(p: number): number {
    const bytes = this.bytes;
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = bytes[p++];
      v += (b & 0x7f) * scale;
      if (b < 0x80) {
        this.at = p;
        return v;
      }
      scale *= 0x80;
    }
  }
  /** Where entry k's id header is (past its field number). */
  private skip(k: number): number {
    this.varint(k);
    return this.at;
  }
  /** Entry k's id text length; `at` is set to where the text is (a repeat followed back to the id written in full). */
  private idText(k: number): number {
    let p = this.skip(k);
    for (;;) {
      const head = this.varint(p);
      if ((head & 1) === 0) return head / 2;
      p -= (head - 1) / 2;
    }
  }

  /** Bytes per part (for the memory breakdown). */
  footprint(): Record<string, number> {
    return { 'mentions.start': this.start.byteSize, 'mentions.bytes': this.bytes.byteLength };
  }

  /** Drops the spare capacity past `n` events (unless at most `slack` events' worth, see NumberColumn.trim). */
  trim(n: number, slack = 0): void {
    this.start.trim(n, slack);
    if (this.bytes.length > this.used + Math.ceil((this.used / Math.max(1, this.events)) * slack)) this.bytes = this.bytes.slice(0, this.used);
  }

  /** Room for about `n` events: their starts, and as many bytes as the events so far took on average. */
  reserve(n: number): void {
    this.start.reserve(n);
    const bytes = this.events > 0 ? Math.ceil((this.used / this.events) * n) : 0;
    if (bytes > this.bytes.length) this.bytes = grownTo(this.bytes, bytes);
  }
}

/** Slots of the id hash cache (a power of two). */
const HASH_CACHE = 64;

/** Writes `v` (a non-negative integer) as LEB128 at `at`; returns the position after it. */
function writeVarint(out: Uint8Array, at: number, v: number): number {
  while (v >= 0x80) {
    out[at++] = (v % 0x80) | 0x80;
    v = Math.floor(v / 0x80);
  }
  out[at++] = v;
  return at;
}

/** The LEB128 number at `at`, and the position after it. */
function readVarint(bytes: Uint8Array, at: number): [number, number] {
  let v = 0;
  let scale = 1;
  for (;;) {
    const b = bytes[at++];
    v += (b & 0x7f) * scale;
    if (b < 0x80) return [v, at];
    scale *= 0x80;
  }
}
