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
 * Small read-only objects of some events (usage facts), stored once per distinct shape: half a million
 * inference events with the same `{ cacheRead: 0 }` then hold one object and a number each, not an object and
 * a map entry each. Past `maxShapes` distinct shapes the rest are kept one by one.
 */
export class SharedValues<T extends object> {
  private readonly refs = new Column(new Uint32Array(1024), (n) => new Uint32Array(n));
  private readonly shapes: T[] = [];
  private readonly keys = new Map<string, number>();
  private readonly single = new Map<number, T>();
  constructor(private readonly maxShapes = 4096) {}
  set(i: number, value: T): void {
    const key = JSON.stringify(value);
    let ref = this.keys.get(key);
    if (ref === undefined && this.shapes.length < this.maxShapes) {
      ref = this.shapes.push(value);
      this.keys.set(key, ref);
    }
    if (ref === undefined) this.single.set(i, value);
    else this.refs.set(i, ref);
  }
  get(i: number): T | undefined {
    const ref = i < this.refs.data.length ? this.refs.data[i] : 0;
    return ref > 0 ? this.shapes[ref - 1] : this.single.size > 0 ? this.single.get(i) : undefined;
  }
  /**
   * The shape number of index i's value (1-based; values equal by shape share one), 0 when it has none, -1
   * when it is kept on its own (past the shape limit: read it with `get`). A pass keyed by shape works out
   * each shape once.
   */
  shapeOf(i: number): number {
    const ref = i < this.refs.data.length ? this.refs.data[i] : 0;
    return ref > 0 ? ref : this.single.size > 0 && this.single.has(i) ? -1 : 0;
  }
  /** The value of a shape number from `shapeOf`. */
  shape(ref: number): T {
    return this.shapes[ref - 1];
  }
  /** Every value with its index, in index order: one walk of the refs, the few values past the shape limit merged in. */
  *entries(): IterableIterator<[number, T]> {
    const singles = [...this.single.keys()].sort((a, b) => a - b);
    const refs = this.refs.data;
    let s = 0;
    for (let i = 0; i < refs.length; i++) {
      for (; s < singles.length && singles[s] <= i; s++) yield [singles[s], this.single.get(singles[s])!];
      if (refs[i] > 0) yield [i, this.shapes[refs[i] - 1]];
    }
    for (; s < singles.length; s++) yield [singles[s], this.single.get(singles[s])!];
  }
}

const NULL_INT = -0x80000000;
const OVER_INT = -0x7fffffff;

/**
 * Numbers that are almost always small integers or absent (sequence numbers, token counts) in an Int32Array,
 * half the size of a Float64Array: a value it cannot hold exactly (a fraction, past 2^31) goes to a sparse map.
 */
export class IntColumn {
  private readonly col = new Column(new Int32Array(1024), (n) => new Int32Array(n));
  private readonly over = new Map<number, number>();
  set(i: number, v: number | null | undefined): void {
    if (typeof v !== 'number' || !Number.isFinite(v)) this.col.set(i, NULL_INT);
    else if (Number.isInteger(v) && v > OVER_INT && v <= 0x7fffffff) this.col.set(i, v);
    else {
      this.col.set(i, OVER_INT);
      this.over.set(i, v);
    }
  }
  get(i: number): number | null {
    const v = this.col.data[i];
    return v === NULL_INT ? null : v === OVER_INT ? this.over.get(i)! : v;
  }
}
