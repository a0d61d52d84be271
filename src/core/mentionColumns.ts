import type { IdMention } from './model';
import { NumberColumn } from './numberColumn';
import { decodeText, encodeText, grown, maxTextBytes, PrefixTable } from './stringColumn';
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

  /** Bytes per part (for the memory breakdown). */
  footprint(): Record<string, number> {
    return { 'mentions.start': this.start.byteSize, 'mentions.bytes': this.bytes.byteLength };
  }

  trim(n: number): void {
    this.start.trim(n);
    if (this.bytes.length > this.used) this.bytes = this.bytes.slice(0, this.used);
  }
}

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
