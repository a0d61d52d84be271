/**
 * The files a long-lived listing (the Agent Traces view's worker) follows as they grow: a session seen growing keeps
 * its reader (core/traceReader.ts) with the model of what was read, so its next growth costs the new bytes (read,
 * parsed, indexed for search) instead of the whole file. Verify and check are not run on an append: the record says
 * its verdict is pending, and the file is read whole once more when it stops growing ({@link drop}, then a listing).
 * At most {@link FOLLOWED_MAX} readers are kept, the least recently grown dropped first: each holds its model.
 */
import type { TraceReader } from '../traceReader';
import type { FileStamp } from './sessionCache';

/** Readers kept at most. */
export const FOLLOWED_MAX = 8;

/** A followed file: its reader, and the stamp of the file as the listing took it when it was last read. */
export interface Followed {
  reader: TraceReader;
  stamp: FileStamp;
}

export class SessionFollower {
  private readonly readers = new Map<string, Followed>();

  constructor(private readonly max = FOLLOWED_MAX) {}

  get(path: string): Followed | undefined {
    return this.readers.get(path);
  }

  has(path: string): boolean {
    return this.readers.has(path);
  }

  /** Keeps (or renews) a file's reader, as the most recently grown. */
  keep(path: string, followed: Followed): void {
    this.readers.delete(path);
    this.readers.set(path, followed);
    while (this.readers.size > this.max) this.readers.delete(this.readers.keys().next().value!);
  }

  /** Stops following a file (it stopped growing, or cannot be followed): its next read is whole. */
  drop(path: string): void {
    this.readers.delete(path);
  }

  /** The files followed. */
  paths(): string[] {
    return [...this.readers.keys()];
  }

  get size(): number {
    return this.readers.size;
  }
}
