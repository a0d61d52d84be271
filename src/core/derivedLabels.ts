import { Buffer } from 'buffer';
import { readTraceSync } from './io/traceHandles';
import type { TracePath } from './tracePath';
import type { LabelDeriver } from './lineLabels';
export type { LabelDeriver, LabelFacts } from './lineLabels';

/**
 * Reads `length` bytes at `offset` of the trace file again, or null when they cannot be read. The bytes are
 * valid until the next call.
 */
export type LineBytes = (offset: number, length: number) => Buffer | null;

const WINDOW = 256 * 1024;

/**
 * Reads line bytes of a plain (not compressed) file on demand, through a window of 256 KiB read at once, so a
 * page of neighbouring rows or a pass over every event costs a read per window, not per line. Synchronous:
 * a label is asked for inside a synchronous row projection. The file is opened per window read, so a model
 * holds no file handle (a read while a load holds the trace open goes through its handle, io/traceHandles.ts).
 * Null when the file cannot be opened.
 */
export function fileLineBytes(path: TracePath): LineBytes | null {
  let base = -1;
  let window: Buffer = Buffer.alloc(0);
  // One buffer for every window (the bytes are parsed at once, before the next read), so paging makes no garbage.
  let store: Buffer | null = null;
  const read: LineBytes = (offset, length) => {
    if (base < 0 || offset < base || offset + length > base + window.length) {
      const size = Math.max(WINDOW, length);
      try {
        if (!store || store.length < size) store = Buffer.allocUnsafeSlow(size);
        const buf = store;
        window = buf.subarray(0, readTraceSync(path, buf, 0, size, offset));
        base = offset;
      } catch {
        return null;
      }
      if (window.length < length) return null;
    }
    return window.subarray(offset - base, offset - base + length);
  };
  if (read(0, 0) === null) return null;
  // The probe's window is dropped: the first label asked for reads the bytes as they are then.
  base = -1;
  window = Buffer.alloc(0);
  store = null;
  return read;
}

/**
 * A bounded cache of labels by event index that keeps the recently used ones: two generations of at most half
 * the bound each; when the newer one is full it becomes the older one and the oldest generation is dropped, and a
 * label found in the older one moves to the newer. No step walks the entries (evicting the first key of one Map
 * walked past the holes every delete leaves, and cost a page of labels more than reading them).
 */
export class LabelCache {
  private recent = new Map<number, string>();
  private older = new Map<number, string>();
  constructor(private readonly max = 4096) {}
  get(i: number): string | undefined {
    const v = this.recent.get(i);
    if (v !== undefined) return v;
    const old = this.older.get(i);
    if (old !== undefined) this.set(i, old);
    return old;
  }
  set(i: number, label: string): void {
    this.older.delete(i);
    if (!this.recent.has(i) && this.recent.size >= this.max / 2) {
      this.older = this.recent;
      this.recent = new Map();
    }
    this.recent.set(i, label);
  }
  clear(): void {
    this.recent.clear();
    this.older.clear();
  }
  get size(): number {
    return this.recent.size + this.older.size;
  }
}

