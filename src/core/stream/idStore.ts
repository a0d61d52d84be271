import { Buffer } from 'buffer';
import { decodeText, encodeText, grownTo, maxTextBytes, PrefixTable } from '../stringColumn';

/**
 * Distinct strings (event ids) kept as bytes in one growing buffer (packed as the event table packs them: a hex
 * id in half its length after a byte naming its prefix, other text as UTF-8), found again through an open-addressing
 * hash table of typed arrays: a few bytes over the ids' own length, where a `Map<string, number>` of a million ids
 * costs about 100 bytes each. Lookups compare the bytes, so a hash collision never merges two ids.
 */
export class IdStore {
  private bytes = Buffer.allocUnsafe(1 << 16);
  private used = 0;
  private starts = new Int32Array(1024);
  private ends = new Int32Array(1024);
  private count = 0;
  /** Slot → string number + 1 (0: empty); sized to stay at most half full. */
  private slots = new Int32Array(2048);
  private hashes = new Uint32Array(2048);
  /** Prefixes of packed hex ids: a string is written the same way every time, so equal strings have equal bytes. */
  private readonly prefixes = new PrefixTable();

  get size(): number {
    return this.count;
  }

  /** Bytes the ids take in the buffer. */
  get textBytes(): number {
    return this.used;
  }

  /**
   * Room for about `n` ids at once (their bytes as many as the ids so far took on average): a buffer doubled near
   * the end of a read holds its old and new copies at once, and each doubling of the table hashes every slot again.
   */
  reserve(n: number): void {
    if (n > this.starts.length) {
      this.starts = grownTo(this.starts, n);
      this.ends = grownTo(this.ends, n);
    }
    const bytes = this.count > 0 ? Math.ceil((this.used / this.count) * n) : 0;
    if (bytes > this.bytes.length) {
      const next = Buffer.allocUnsafe(bytes);
      this.bytes.copy(next, 0, 0, this.used);
      this.bytes = next;
    }
    while (n * 2 > this.slots.length) this.rehash();
  }

  /** The number of `id`, adding it when new; `added` tells which. */
  intern(id: string): { ref: number; added: boolean } {
    const start = this.append(id);
    const { slot, hash, ref } = this.probe(start, this.used);
    if (ref >= 0) {
      this.used = start; // already stored: take the copy back
      return { ref, added: false };
    }
    const added = this.push(start, this.used);
    this.slots[slot] = added + 1;
    this.hashes[slot] = hash;
    if (this.count * 2 > this.slots.length) this.rehash();
    return { ref: added, added: true };
  }

  /** The number of `id`, or -1 when it was never added. */
  find(id: string): number {
    const start = this.append(id);
    const { ref } = this.probe(start, this.used);
    this.used = start; // a lookup keeps nothing
    return ref;
  }

  /** The slot holding the string of bytes `start..end` (its number in `ref`), or the empty slot it would take (`ref` -1). */
  private probe(start: number, end: number): { slot: number; hash: number; ref: number } {
    const hash = fnv1a(this.bytes, start, end);
    const mask = this.slots.length - 1;
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const v = this.slots[s];
      if (v === 0) return { slot: s, hash, ref: -1 };
      if (this.hashes[s] === hash && this.equals(v - 1, start, end)) return { slot: s, hash, ref: v - 1 };
    }
  }

  /** The string of number `ref`. */
  get(ref: number): string {
    return decodeText(this.bytes, this.starts[ref], this.ends[ref], this.prefixes);
  }

  private append(id: string): number {
    const need = this.used + maxTextBytes(id);
    if (need > this.bytes.length) {
      const next = Buffer.allocUnsafe(Math.max(need, this.bytes.length * 2));
      this.bytes.copy(next, 0, 0, this.used);
      this.bytes = next;
    }
    const start = this.used;
    this.used = encodeText(id, this.bytes, start, this.prefixes);
    return start;
  }

  private push(start: number, end: number): number {
    if (this.count === this.starts.length) {
      this.starts = grow(this.starts);
      this.ends = grow(this.ends);
    }
    this.starts[this.count] = start;
    this.ends[this.count] = end;
    return this.count++;
  }

  private equals(ref: number, start: number, end: number): boolean {
    const a = this.starts[ref];
    const len = this.ends[ref] - a;
    return len === end - start && this.bytes.compare(this.bytes, start, end, a, a + len) === 0;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const hashes = new Uint32Array(slots.length);
    const mask = slots.length - 1;
    for (let s = 0; s < this.slots.length; s++) {
      const v = this.slots[s];
      if (v === 0) continue;
      let t = this.hashes[s] & mask;
      while (slots[t] !== 0) t = (t + 1) & mask;
      slots[t] = v;
      hashes[t] = this.hashes[s];
    }
    this.slots = slots;
    this.hashes = hashes;
  }
}

function grow(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const next = new Int32Array(a.length * 2);
  next.set(a);
  return next;
}

/** FNV-1a over a byte range. */
function fnv1a(b: Buffer, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ b[i], 0x01000193);
  return h >>> 0;
}
