/** A 32-bit lane of a string's hash: the slot it goes in and a quick reject before the id itself is compared. */
export type IdHash = (id: string) => number;

/** FNV-1a over the string's UTF-16 units. */
export const fnv1aId: IdHash = (id) => {
  let h = 0x811c9dc5;
  for (let j = 0; j < id.length; j++) h = Math.imul(h ^ id.charCodeAt(j), 0x01000193);
  return finishHash(h);
};

/** The final mix of an FNV-1a state, so the low bits that pick a slot depend on every unit hashed. */
export function finishHash(h: number): number {
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return (h ^ (h >>> 12)) >>> 0;
}

/**
 * Event ids → index of the first event that has each id, in typed arrays: open addressing over an Int32Array
 * of event indices (+1; 0 is empty), the slot picked by the id's hash. Replaces a `Map<string, number>`, which
 * cost about 40 bytes an entry plus the key string; here an entry costs 4 bytes a slot at a load of at most one
 * half. The hash is not kept: each probe compares the stored id's bytes (`isId`, which rejects a different id at
 * its first differing byte without making a string), so a collision never mixes two ids; growing hashes the
 * stored ids again (`keyOf`).
 */
export class IdHashIndex<K = string> {
  private slots = new Int32Array(1024);
  private mask = 1023;
  private count = 0;
  /** Events whose id an earlier event already had, in file order. */
  readonly duplicates: number[] = [];

  /**
   * `K`: how a probe names its id (the id itself by default; an entry of MentionColumns in the tool-call
   * pairing's case). `keyOf` gives a stored event's key back, for hashing it again when the table grows.
   */
  constructor(private readonly isId: (event: number, id: K) => boolean, private readonly keyOf: (event: number) => K, private readonly hash: (id: K) => number = fnv1aId as unknown as (id: K) => number) {}

  /** Number of distinct ids. */
  get size(): number {
    return this.count;
  }

  /** Bytes of the slots (for the memory breakdown). */
  get byteSize(): number {
    return this.slots.byteLength;
  }

  /** Index of the first event with this id, or undefined. */
  get(id: K): number | undefined {
    return this.getHashed(this.hash(id), id);
  }

  /** `get` with the id's hash already made (a caller that probes and then inserts hashes once). */
  getHashed(h: number, id: K): number | undefined {
    for (let s = h & this.mask; ; s = (s + 1) & this.mask) {
      const e = this.slots[s];
      if (e === 0) return undefined;
      if (this.isId(e - 1, id)) return e - 1;
    }
  }

  /**
   * Adds event `event` under `id` unless an earlier event has that id (then records it as a duplicate); returns
   * the first event with the id: `event` itself, or the earlier one.
   */
  insert(event: number, id: K): number {
    return this.insertHashed(this.hash(id), event, id);
  }

  /** `insert` with the id's hash already made. */
  insertHashed(h: number, event: number, id: K): number {
    let s = h & this.mask;
    for (; ; s = (s + 1) & this.mask) {
      const e = this.slots[s];
      if (e === 0) break;
      if (this.isId(e - 1, id)) {
        this.duplicates.push(event);
        return e - 1;
      }
    }
    this.slots[s] = event + 1;
    if (++this.count * 2 > this.slots.length) this.grow();
    return event;
  }

  /**
   * Room for `n` ids at a load of at most one half, made at once: growing step by step hashes every stored id
   * again at each doubling (from its bytes, `keyOf`), which costs more than the inserts themselves.
   */
  reserve(n: number): void {
    let size = this.slots.length;
    while (n * 2 > size) size *= 2;
    if (size > this.slots.length) this.resize(size);
  }

  private grow(): void {
    this.resize(this.slots.length * 2);
  }

  private resize(size: number): void {
    const old = this.slots;
    this.slots = new Int32Array(size);
    this.mask = this.slots.length - 1;
    for (let o = 0; o < old.length; o++) {
      if (old[o] === 0) continue;
      let s = this.hash(this.keyOf(old[o] - 1)) & this.mask;
      while (this.slots[s] !== 0) s = (s + 1) & this.mask;
      this.slots[s] = old[o];
    }
  }
}
