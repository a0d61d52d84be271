type Store = Int8Array | Int16Array | Int32Array | Float64Array;

const WIDTHS = [
  { make: (n: number) => new Int8Array(n), min: -0x80, max: 0x7f },
  { make: (n: number) => new Int16Array(n), min: -0x8000, max: 0x7fff },
  { make: (n: number) => new Int32Array(n), min: -0x80000000, max: 0x7fffffff },
] as const;

/** Past this share of the events held one by one, a column widens instead (a map entry costs ~50 bytes). */
const MAX_OVERFLOW_SHARE = 1 / 256;
const MIN_OVERFLOW = 64;

/**
 * The numbers of one per-event field (or null), in the narrowest typed array that gives every value back exactly:
 * no array while every value is the same (a column of nulls, or a flag no event sets, costs nothing), then Int8,
 * Int16, Int32 (values kept as differences from a base, so epoch-millisecond times fit in 32 bits), Float64. A
 * few values that do not fit (a fraction, a time far from the others, an offset past 2^31) are kept one by one
 * in a sparse map; when they are more than a small share of the events, the column widens once and drains it.
 * Most events carry no tokens, durations or sequence numbers, so those columns stay at one byte or none.
 */
/** Entries a long pass reads through {@link NumberColumn.codes} at a time, into one array it reuses. */
export const CODES_BLOCK = 1 << 16;

export class NumberColumn {
  private data: Store | null = null;
  /** Index into WIDTHS, or 3 for Float64 (NaN stands for null). */
  private width = -1;
  /** The one value every entry has while `data` is null (NaN: null). */
  private constant = NaN;
  private base = 0;
  private readonly over = new Map<number, number>();
  private seeded = false;
  /** The range of differences the current integer width holds (above the null and overflow sentinels). */
  private low = 0;
  private high = 0;
  /** Entries a read expects (see {@link reserve}): the array is made this long at once. */
  private reserved = 0;
  /** Entries set while `data` is null (they hold the constant). */
  private constantUpTo = 0;

  /**
   * @param useBase keep values as differences from the first one (times): a base only helps a column of large values
   * @param dense every entry is set, index 0 first (the event table's columns): the first value is then the
   *   constant; otherwise (entries set for some events only) an entry never set is null
   */
  constructor(private readonly useBase = false, private readonly dense = true) {}

  set(i: number, v: number | null | undefined): void {
    // Small enough to be inlined where it is called: the common cases (an integer that fits in the array, the
    // value every entry has so far), with no map and no call; anything else goes to setOther.
    const data = this.data;
    if (data !== null) {
      if (this.width < 3 && i < data.length && this.over.size === 0) {
        if (typeof v === 'number') {
          const d = v - this.base;
          if ((d | 0) === d && d > this.low && d <= this.high && (v !== 0 || 1 / v > 0) && (this.base === 0 || Number.isSafeInteger(v))) {
            data[i] = d;
            return;
          }
        } else if (v == null) {
          // Null: the width's minimum, just below `low` (most events of a column of durations or tokens have none).
          data[i] = this.low - 1;
          return;
        }
      }
    } else if (this.seeded && (typeof v === 'number' ? v === this.constant && (v !== 0 || 1 / v === 1 / this.constant) : v == null && this.constant !== this.constant)) {
      if (i >= this.constantUpTo) this.constantUpTo = i + 1;
      return;
    }
    this.setOther(i, v);
  }

  /** Everything {@link set} does not do inline: a null, an overflow, a new width, the first array, growth. */
  private setOther(i: number, v: number | null | undefined): void {
    const data = this.data;
    const x = typeof v === 'number' && Number.isFinite(v) ? v : NaN;
    if (data === null) {
      if (i >= this.constantUpTo) this.constantUpTo = i + 1;
      if (this.dense && !this.seeded) {
        this.seeded = true;
        this.constant = x;
        return;
      }
      if (Object.is(x, this.constant)) return;
      this.materialize(i + 1, x);
    }
    if (i >= this.data!.length) this.grow(i + 1);
    if (this.width === 3) {
      this.data![i] = x;
      return;
    }
    if (this.over.size > 0) this.over.delete(i);
    if (this.fits(x)) this.data![i] = this.encode(x);
    else {
      this.data![i] = WIDTHS[this.width].min + 1;
      this.over.set(i, x);
      if (this.over.size > Math.max(MIN_OVERFLOW, this.data!.length * MAX_OVERFLOW_SHARE)) this.widen();
    }
  }

  get(i: number): number | null {
    const d = this.data;
    if (d === null) return Number.isNaN(this.constant) ? null : this.constant;
    if (i >= d.length) return null;
    const v = d[i];
    if (this.width === 3) return Number.isNaN(v) ? null : v;
    // `low` is the width's minimum + 1 (see setRange): the null sentinel is below it, the overflow one at it.
    const min = this.low - 1;
    return v === min ? null : v === this.low ? this.over.get(i)! : v + this.base;
  }

  /**
   * The different values of entries `[0, n)` other than null and `skip`, in the order they first appear, at most
   * `max` of them: what a loop of {@link get} with a Set gives, read from the array itself (a column of small
   * integers, as the event table's string ids, is marked in a byte per value instead of a Set).
   */
  distinct(n: number, max: number, skip = NaN): number[] {
    const out: number[] = [];
    const d = this.data;
    if (max <= 0 || n <= 0) return out;
    if (d === null) {
      const c = this.constant;
      if (!Number.isNaN(c) && c !== skip) out.push(c);
      return out;
    }
    if (this.width >= 2 || this.over.size > 0) {
      const seen = new Set<number>();
      for (let i = 0; i < n && out.length < max; i++) {
        const v = this.get(i);
        if (v === null || v === skip || seen.has(v)) continue;
        seen.add(v);
        out.push(v);
      }
      return out;
    }
    // Int8 or Int16 codes, no overflow: a code is the value less the base, below `low` is null.
    const min = WIDTHS[this.width].min;
    const seen = new Uint8Array(WIDTHS[this.width].max - min + 1);
    const end = Math.min(n, d.length);
    const nullCode = this.low - 1;
    const base = this.base;
    for (let i = 0; i < end && out.length < max; i++) {
      const code = d[i];
      if (code === nullCode || seen[code - min] === 1) continue;
      seen[code - min] = 1;
      const v = code + base;
      if (v !== skip) out.push(v);
    }
    return out;
  }

  /**
   * Entries `[from, from + n)` as 32-bit integers, `nullAs` for null: what a loop of {@link get} gives, read from
   * the array itself, for passes over a column of small integers (the event table's string numbers, categories,
   * statuses) that would otherwise decode every entry on its own. Values outside 32-bit integers are cut as
   * Int32Array cuts them; such columns are read with {@link get}. `out`: an array of at least `n` entries to fill
   * instead (a Uint8Array for a column of codes below 256, a quarter of the memory, which cuts values as it does;
   * or one block reused along a pass, which then holds no array as long as the column).
   */
  codes<A extends Int32Array | Uint8Array = Int32Array>(n: number, nullAs = -1, out: A = new Int32Array(Math.max(0, n)) as A, from = 0): A {
    const d = this.data;
    if (d === null) {
      const c = this.constant;
      out.fill(Number.isNaN(c) ? nullAs : c, 0, n);
      return out;
    }
    // Entries [from, to) are in the array; out[k] is entry from + k.
    const to = Math.max(from, Math.min(from + n, d.length));
    const m = to - from;
    if (this.width < 3 && this.over.size === 0) {
      const nullCode = this.low - 1;
      const base = this.base;
      if (out instanceof Int32Array) {
        // Widened natively, then one loop over the Int32Array alone (a loop over the column's own array, of any
        // of three element types, runs slower by several times).
        out.set(d.subarray(from, to));
        for (let k = 0; k < m; k++) {
          const v = out[k];
          if (v === nullCode) out[k] = nullAs;
          else if (base !== 0) out[k] = v + base;
        }
      } else {
        // A narrower array cuts the null code too: each entry is read from the column's own array.
        for (let k = 0; k < m; k++) {
          const v = d[from + k];
          out[k] = v === nullCode ? nullAs : v + base;
        }
      }
    } else {
      for (let k = 0; k < m; k++) {
        const v = this.get(from + k);
        out[k] = v === null ? nullAs : v;
      }
    }
    if (m < n) out.fill(nullAs, Math.max(0, m), n);
    return out;
  }

  /** The value as a number, NaN for null (no allocation of a null check in hot loops). */
  raw(i: number): number {
    const v = this.get(i);
    return v === null ? NaN : v;
  }

  /** Bytes of the typed array (for the memory breakdown); the sparse map is counted as 48 bytes an entry. */
  get byteSize(): number {
    return (this.data?.byteLength ?? 0) + this.over.size * 48;
  }

  /**
   * Drops the spare capacity past the first `n` entries (a finished read), unless it is at most `slack`
   * entries: a copy of a large column costs a moment of twice its memory, a little spare room costs little.
   */
  trim(n: number, slack = 0): void {
    if (this.data && this.data.length > n + slack) this.data = this.data.slice(0, Math.max(n, 1)) as Store;
  }

  /**
   * Room for `n` entries: a read that knows about how many events to expect makes its arrays that long once,
   * instead of doubling them (each doubling copies, and the last one leaves up to half the array spare).
   */
  reserve(n: number): void {
    if (n <= this.reserved) return;
    this.reserved = n;
    if (this.data !== null && this.data.length < n) this.resize(n, true);
  }

  /** First value that differs from the constant: an array of the narrowest width that holds both. */
  private materialize(n: number, x: number): void {
    const c = this.constant;
    const known = Number.isNaN(c) ? x : c;
    this.base = this.useBase && Number.isSafeInteger(known) ? known : 0;
    this.width = 0;
    while (this.width < 3 && !(this.fits(c) && this.fits(x))) this.width++;
    this.setRange();
    this.data = this.make(Math.max(1024, n, this.reserved));
    // Entries past the ones set so far are written before they are read when every entry is set (dense): room
    // reserved ahead is then left untouched (no memory is used for it until it is written).
    this.data.fill(this.encode(c), 0, this.dense ? Math.max(n, this.constantUpTo) : this.data.length);
  }

  private setRange(): void {
    this.low = this.width < 3 ? WIDTHS[this.width].min + 1 : 0;
    this.high = this.width < 3 ? WIDTHS[this.width].max : 0;
  }

  /** Whether the current width holds `x` exactly (-0 only as a Float64). */
  private fits(x: number): boolean {
    if (Number.isNaN(x) || this.width === 3) return true;
    const d = x - this.base;
    // Safe integers only: their difference from the (integer) base is exact, and so is adding it back.
    return Number.isSafeInteger(x) && d > WIDTHS[this.width].min + 1 && d <= WIDTHS[this.width].max && !Object.is(x, -0);
  }

  /** What the array holds for `x`, which fits: the null sentinel (the type's minimum) or the difference from the base. */
  private encode(x: number): number {
    if (this.width === 3) return x;
    return Number.isNaN(x) ? WIDTHS[this.width].min : x - this.base;
  }

  private make(n: number): Store {
    return this.width === 3 ? new Float64Array(n) : WIDTHS[this.width].make(n);
  }

  private grow(atLeast: number): void {
    let size = Math.max(1024, this.data!.length * 2);
    // Set only for some events (usage refs), a column may jump past twice its length.
    while (size < atLeast) size *= 2;
    this.resize(size);
  }

  private resize(size: number, reserving = false): void {
    const next = this.make(size);
    next.set(this.data as never);
    // Entries not written yet read as null; room reserved for a dense column is written before it is read.
    if (!reserving || !this.dense) next.fill(this.encode(NaN), this.data!.length);
    this.data = next;
  }

  /** Moves every value to the next width that holds the values kept one by one, and empties the map. */
  private widen(): void {
    const old = this.data!;
    const values = Array.from({ length: old.length }, (_, k) => this.raw(k));
    this.over.clear();
    this.width++;
    while (this.width < 3 && !values.every((v) => this.fits(v))) this.width++;
    this.setRange();
    this.data = this.make(old.length);
    for (let k = 0; k < values.length; k++) this.data[k] = this.encode(values[k]);
  }
}
