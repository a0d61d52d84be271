/**
 * A 64-bit digest of text as two 32-bit FNV-1a lanes with different offsets, fed piece by piece, in JS without a
 * native call per event (sha1 through node:crypto cost more than the rest of the digest on 100k events). Two
 * lanes make a collision between two different events very unlikely; the worst it does is show a change as equal.
 */
export class TextHash {
  private h1 = 0x811c9dc5;
  private h2 = 0x050c5d1f;

  /** Starts over, so one hasher serves every event of a file without an allocation per event. */
  reset(): this {
    this.h1 = 0x811c9dc5;
    this.h2 = 0x050c5d1f;
    return this;
  }

  /** This hasher's state in `into` (a line's leaves, then each of its events' labels). */
  copyTo(into: TextHash): TextHash {
    into.h1 = this.h1;
    into.h2 = this.h2;
    return into;
  }

  /** Writes this hasher's state at slot `at` of `into` (two int32 per slot), to go on from it later. */
  saveTo(into: Int32Array, at: number): void {
    into[2 * at] = this.h1;
    into[2 * at + 1] = this.h2;
  }

  /** Takes the state {@link saveTo} wrote at slot `at` of `from`. */
  loadFrom(from: Int32Array, at: number): this {
    this.h1 = from[2 * at];
    this.h2 = from[2 * at + 1];
    return this;
  }

  /** Adds `text`'s UTF-16 code units. */
  update(text: string): this {
    let h1 = this.h1;
    let h2 = this.h2;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x01000193) ^ (h2 >>> 15);
    }
    this.h1 = h1;
    this.h2 = h2;
    return this;
  }

  /** Adds the decimal digits of a whole number ≥ 0, as `update(String(n))` does, without making the string. */
  updateUint(n: number): this {
    if (n > 0x7fffffff || n < 0 || !Number.isInteger(n)) return this.update(String(n));
    let p = 1;
    while (p <= n / 10) p *= 10;
    let h1 = this.h1;
    let h2 = this.h2;
    for (let rest = n; p >= 1; p = (p / 10) | 0) {
      const c = 48 + ((rest / p) | 0);
      rest %= p;
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x01000193) ^ (h2 >>> 15);
    }
    this.h1 = h1;
    this.h2 = h2;
    return this;
  }

  /** Adds another hasher's whole state (a leaf's digest into its line's). */
  absorb(other: TextHash): this {
    this.h1 = Math.imul(Math.imul(this.h1 ^ other.h1, 0x01000193) ^ other.h2, 0x01000193);
    this.h2 = Math.imul(Math.imul(this.h2 ^ other.h2, 0x01000193) ^ other.h1, 0x01000193) ^ (this.h2 >>> 15);
    return this;
  }

  /** Adds a number (a depth, another digest), NaN included, as its two 32-bit halves. */
  mix(n: number): this {
    const lo = Number.isNaN(n) ? 0x7ff80000 : n % 0x100000000;
    const hi = Number.isNaN(n) ? 0x7ff80000 : Math.floor(n / 0x100000000);
    this.h1 = Math.imul(Math.imul(this.h1 ^ lo, 0x01000193) ^ hi, 0x01000193);
    this.h2 = Math.imul(Math.imul(this.h2 ^ hi, 0x01000193) ^ lo, 0x01000193) ^ (this.h2 >>> 15);
    return this;
  }

  /** The digest so far as one number of 53 bits: a key that a Map compares without hashing a string. */
  value(): number {
    return (this.h1 >>> 0) * 0x200000 + (this.h2 >>> 11);
  }
}
