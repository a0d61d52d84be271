/**
 * Find in the content blobs a trace's events point to (prompts, responses, tool output kept beside the
 * trace): each blob file is searched once, streamed, however many events name it; the search is bounded per
 * blob and in total, reports bytes read and stops when cancelled.
 */
import type { BlobStore } from '../blobStore';

/** What a find over blobs needs of a store: where each reference's file is (a BlobStore; a report's embedded blobs). */
export type BlobLocator = Pick<BlobStore, 'locator'>;
import type { TraceModel } from '../traceModel';
import { openBlobFile } from '../blobs/blobSafety';
import { searchOpenFile, type FileMatch, type TextQuery } from './textSearch';

/** A match inside a blob an event names. */
export interface BlobHit {
  event: number;
  /** The event's field that holds the reference, e.g. `message_shas[0]`. */
  field: string;
  digest: string;
  match: FileMatch;
}

/** Options for {@link findInBlobs}. */
export interface BlobFindOptions {
  isCancelled?: () => boolean;
  /** Bytes read so far of this pass, and the total it expects to read (see {@link findInBlobs}). */
  onProgress?: (bytesRead: number, bytesTotal: number) => void;
  /** Per blob, bytes searched at most (default 256 MiB). */
  maxBlobBytes?: number;
  /** Bytes searched at most over all blobs (default 4 GiB). */
  maxTotalBytes?: number;
}

/** What {@link findInBlobs} found and how much it read. */
export interface BlobFindResult {
  hits: BlobHit[];
  blobsSearched: number;
  bytesRead: number;
  /** Blobs not searched (or not to their end) because of the bounds. */
  truncatedBlobs: number;
  cancelled: boolean;
}

/** Blobs read at once: libuv's thread pool (four threads by default) reads while this thread searches. */
const CONCURRENT_READS = 4;

/**
 * Searches every blob the model's events reference; hits come in event order, one per event and blob.
 * Blob folders are listed once (BlobStore.locator), each distinct file is opened and read once, a few at a
 * time. Progress totals are the bytes of the blobs opened so far plus, for those not yet opened, their
 * average: sizes are learnt when a file is opened, not by a call per file before.
 */
export async function findInBlobs(model: TraceModel, store: BlobLocator, query: TextQuery, options: BlobFindOptions = {}): Promise<BlobFindResult> {
  const refs = await locateRefs(model, store, options.isCancelled);
  const result: BlobFindResult = { hits: [], blobsSearched: 0, bytesRead: 0, truncatedBlobs: 0, cancelled: false };
  if (!refs) return { ...result, cancelled: true };
  const paths = [...new Set(refs.map((r) => r.path))];
  const found = new Map<string, FileMatch | null>();
  const pass = new BlobPass(paths.length, options);
  let next = 0;
  const worker = async () => {
    while (next < paths.length && !options.isCancelled?.()) {
      const path = paths[next++];
      found.set(path, await pass.search(path, query, result));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_READS, paths.length) }, worker));
  for (const r of refs) {
    const m = found.get(r.path);
    if (m) result.hits.push({ event: r.event, field: r.field, digest: r.digest, match: m });
  }
  return { ...result, cancelled: options.isCancelled?.() ?? false };
}

interface LocatedRef {
  event: number;
  field: string;
  digest: string;
  path: string;
}

/** The blob files the events name, in event order; null when cancelled. */
async function locateRefs(model: TraceModel, store: BlobLocator, isCancelled?: () => boolean): Promise<LocatedRef[] | null> {
  const t = model.events;
  const locate = store.locator();
  const refs: LocatedRef[] = [];
  for (const i of t.eventsWithHashRefs()) {
    for (const ref of t.hashRefsOf(i)) {
      if (isCancelled?.()) return null;
      const path = await locate(ref);
      if (path !== null) refs.push({ event: i, field: ref.field, digest: ref.digest, path });
    }
  }
  return refs;
}

/** The bounds and progress of one pass over the blobs. */
class BlobPass {
  private readonly perBlob: number;
  private budget: number;
  private opened = 0;
  private openedBytes = 0;

  constructor(private readonly files: number, private readonly options: BlobFindOptions) {
    this.perBlob = options.maxBlobBytes ?? 256 * 1024 * 1024;
    this.budget = options.maxTotalBytes ?? 4 * 1024 * 1024 * 1024;
  }

  /** Opens one blob and searches it within the bounds; a file that cannot be opened or read has no match. */
  async search(path: string, query: TextQuery, result: BlobFindResult): Promise<FileMatch | null> {
    let file: Awaited<ReturnType<typeof openBlobFile>>;
    try {
      file = await openBlobFile(path);
    } catch {
      return null;
    }
    try {
      // The budget is taken when a file is opened, so the blobs read at once never overdraw it together.
      const limit = Math.min(this.perBlob, this.budget, file.size);
      this.budget -= limit;
      if (limit < file.size) result.truncatedBlobs++;
      this.opened++;
      this.openedBytes += limit;
      result.blobsSearched++;
      if (limit <= 0) return null;
      return await searchOpenFile(file.handle, limit, query, {
        isCancelled: this.options.isCancelled,
        onBytes: (n) => {
          result.bytesRead += n;
          this.options.onProgress?.(result.bytesRead, this.total());
        },
      });
    } catch {
      return null;
    } finally {
      await file.handle.close();
    }
  }

  private total(): number {
    return this.openedBytes + ((this.files - this.opened) * this.openedBytes) / this.opened;
  }
}
