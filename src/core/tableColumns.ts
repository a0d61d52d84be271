import { NumberColumn } from './numberColumn';

/** Grows a typed array by doubling. */
export class Column<T extends Float64Array | Int32Array | Uint8Array | Uint16Array | Uint32Array> {
  constructor(public data: T, private readonly make: (n: number) => T) {}
  set(i: number, v: number): void {
    if (i >= this.data.length) {
      let size = Math.max(1024, this.data.length * 2);
      // A sparse column (set only for some events) may jump past twice its length.
      while (size <= i) size *= 2;
      const next = this.make(size);
      next.set(this.data);
      this.data = next;
    }
    this.data[i] = v;
  }
  /** Drops the spare capacity past the first `n` entries, unless it is at most `slack` entries. */
  trim(n: number, slack = 0): void {
    if (this.data.length > n + slack) this.data = this.data.slice(0, Math.max(1, n)) as T;
  }
  /** Room for `n` entries at once (see NumberColumn.reserve). */
  reserve(n: number): void {
    if (this.data.length >= n) return;
    const next = this.make(n);
    next.set(this.data);
    this.data = next;
  }
}

/** Interns repeated strings (kinds, models, tools, groups) as small integers. */
export class Interner {
  readonly values: string[] = [''];
  private readonly ids = new Map<string, number>([['', 0]]);
  id(value: string | null | undefined): number {
    if (value === null || value === undefined) return 0;
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.ids.set(value, id);
    }
    return id;
  }
  value(id: number): string | null {
    return id === 0 ? null : this.values[id];
  }
}


/**
 * Whether a and b have the same JSON text (the key SharedValues stores shapes by) when their keys come in the
 * same order, without making it: the same keys, and values that are equal primitives or equal JSON. False
 * where it cannot tell cheaply (NaN, a key whose value is undefined in one only): the caller then makes the key.
 */
function sameShape(a: object, b: object): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let j = 0; j < ka.length; j++) {
    if (ka[j] !== kb[j]) return false;
    const x = (a as Record<string, unknown>)[ka[j]];
    const y = (b as Record<string, unknown>)[ka[j]];
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null || JSON.stringify(x) !== JSON.stringify(y)) return false;
  }
  return true;
}

/**
 * Small read-only objects of some events (usage facts), stored once per distinct shape: half a million
 * inference events with the same `{ cacheRead: 0 }` then hold one object and a number each, not an object and
 * a map entry each. Past `maxShapes` distinct shapes the rest are kept one by one.
 */
export class SharedValues<T extends object> {
  private readonly refs = new NumberColumn(false, false);
  private readonly shapes: T[] = [];
  private readonly keys = new Map<string, number>();
  private readonly single = new Map<number, T>();
  /** One past the last index set. */
  private end = 0;
  /** The shape number last stored: a run of events with one shape skips making and looking up its key. */
  private lastRef = 0;
  constructor(private readonly maxShapes = 4096) {}
  set(i: number, value: T): void {
    if (i >= this.end) this.end = i + 1;
    if (this.lastRef > 0 && sameShape(value, this.shapes[this.lastRef - 1])) {
      this.refs.set(i, this.lastRef);
      return;
    }
    const key = JSON.stringify(value);
    let ref = this.keys.get(key);
    if (ref === undefined && this.shapes.length < this.maxShapes) {
      ref = this.shapes.push(value);
      this.keys.set(key, ref);
    }
    if (ref === undefined) this.single.set(i, value);
    else (this.refs.set(i, ref), (this.lastRef = ref));
  }
  /** Sets index i's value again (or removes it), whatever it held. */
  replace(i: number, value: T | undefined): void {
    this.refs.set(i, null);
    this.single.delete(i);
    if (value !== undefined) this.set(i, value);
  }
  get(i: number): T | undefined {
    const ref = this.refs.get(i);
    return ref !== null ? this.shapes[ref - 1] : this.single.size > 0 ? this.single.get(i) : undefined;
  }
  /** Drops the refs' spare capacity. */
  trim(): void {
    this.refs.trim(this.end);
  }
  /** Bytes of the refs (for the memory breakdown). */
  get byteSize(): number {
    return this.refs.byteSize;
  }
  /**
   * The shape number of index i's value (1-based; values equal by shape share one), 0 when it has none, -1
   * when it is kept on its own (past the shape limit: read it with `get`). A pass keyed by shape works out
   * each shape once.
   */
  shapeOf(i: number): number {
    const ref = this.refs.get(i) ?? 0;
    return ref > 0 ? ref : this.single.size > 0 && this.single.has(i) ? -1 : 0;
  }
  /** The value of a shape number from `shapeOf`. */
  shape(ref: number): T {
    return this.shapes[ref - 1];
  }
  /** Every value with its index, in index order: one walk of the refs, the few values past the shape limit merged in. */
  *entries(): IterableIterator<[number, T]> {
    const singles = [...this.single.keys()].sort((a, b) => a - b);
    let s = 0;
    for (let i = 0; i < this.end; i++) {
      for (; s < singles.length && singles[s] <= i; s++) yield [singles[s], this.single.get(singles[s])!];
      const ref = this.refs.get(i);
      if (ref !== null) yield [i, this.shapes[ref - 1]];
    }
    for (; s < singles.length; s++) yield [singles[s], this.single.get(singles[s])!];
  }
}
