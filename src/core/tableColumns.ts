/** Grows a typed array by doubling. */
export class Column<T extends Float64Array | Int32Array | Uint8Array | Uint16Array | Uint32Array> {
  constructor(public data: T, private readonly make: (n: number) => T) {}
  set(i: number, v: number): void {
    if (i >= this.data.length) {
      const next = this.make(Math.max(1024, this.data.length * 2));
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

