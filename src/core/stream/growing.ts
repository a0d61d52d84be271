/** A typed array that doubles when full. */
export class Growing<T extends Float64Array | Int32Array> {
  constructor(private data: T, private readonly make: (n: number) => T) {}
  push(i: number, v: number): void {
    if (i >= this.data.length) {
      const next = this.make(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[i] = v;
  }
  at(i: number): number {
    return this.data[i];
  }
}

/** A growing Int32Array, 1024 to start with. */
export function growingInt32(): Growing<Int32Array> {
  return new Growing(new Int32Array(1024), (k) => new Int32Array(k));
}
