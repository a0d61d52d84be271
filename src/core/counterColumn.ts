import { NumberColumn } from './numberColumn';

/**
 * A per-event number that usually counts up with the events (a sequence number): kept as its difference from
 * the event's index in a {@link NumberColumn}, so a counter that follows the events is one constant and costs
 * no array at all (a million events' `seq` was a 4 MB Int32Array). A value whose difference is not exact (not a
 * safe integer, or -0) is kept as it is, apart.
 */
export class CounterColumn {
  private readonly delta = new NumberColumn();
  private readonly apart = new Map<number, number>();

  set(i: number, v: number | null | undefined): void {
    if (this.apart.size > 0) this.apart.delete(i);
    if (typeof v !== 'number' || !Number.isFinite(v)) return this.delta.set(i, null);
    const d = v - i;
    if (Number.isSafeInteger(v) && Number.isSafeInteger(d) && !Object.is(v, -0)) return this.delta.set(i, d);
    this.delta.set(i, null);
    this.apart.set(i, v);
  }

  get(i: number): number | null {
    const d = this.delta.get(i);
    if (d !== null) return d + i;
    return this.apart.size > 0 ? this.apart.get(i) ?? null : null;
  }

  trim(n: number, slack = 0): void {
    this.delta.trim(n, slack);
  }

  reserve(n: number): void {
    this.delta.reserve(n);
  }

  /** Bytes of the array, and 48 an entry kept apart (for the memory breakdown). */
  get byteSize(): number {
    return this.delta.byteSize + this.apart.size * 48;
  }
}
