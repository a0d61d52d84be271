/**
 * Find in the content blobs a trace's events point to (prompts, responses, tool output kept beside the
 * trace): each blob file is searched once, streamed, however many events name it; the search is bounded per
 * blob and in total, reports bytes read and stops when cancelled.
 */
import type { BlobStore } from '../blobs';
import type { TraceModel } from '../traceModel';
import { searchFile, type FileMatch, type TextQuery } from './textSearch';

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
  /** Bytes read so far of this pass, and the total it will read at most. */
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

/** Searches every blob the model's events reference; hits come in event order, one per event and blob. */
export async function findInBlobs(model: TraceModel, store: BlobStore, query: TextQuery, options: BlobFindOptions = {}): Promise<BlobFindResult> {
  const perBlob = options.maxBlobBytes ?? 256 * 1024 * 1024;
  let budget = options.maxTotalBytes ?? 4 * 1024 * 1024 * 1024;
  const t = model.events;
  // Locate first, so progress can say how much there is to read.
  const refs: { event: number; field: string; digest: string; path: string }[] = [];
  const sizes = new Map<string, number>();
  for (const i of t.eventsWithHashRefs()) {
    for (const ref of t.hashRefsOf(i)) {
      if (options.isCancelled?.()) return { hits: [], blobsSearched: 0, bytesRead: 0, truncatedBlobs: 0, cancelled: true };
      const loc = await store.locate(ref);
      if (!loc) continue;
      refs.push({ event: i, field: ref.field, digest: ref.digest, path: loc.realPath });
      sizes.set(loc.realPath, loc.size);
    }
  }
  let total = 0;
  for (const s of sizes.values()) total += Math.min(s, perBlob);
  const result: BlobFindResult = { hits: [], blobsSearched: 0, bytesRead: 0, truncatedBlobs: 0, cancelled: false };
  const seen = new Map<string, FileMatch | null>();
  for (const r of refs) {
    if (options.isCancelled?.()) return { ...result, cancelled: true };
    let m = seen.get(r.path);
    if (m === undefined) {
      const size = sizes.get(r.path)!;
      const limit = Math.min(perBlob, budget);
      if (size > limit) result.truncatedBlobs++;
      m = limit <= 0 ? null : await searchFile(r.path, query, {
        maxBytes: limit,
        isCancelled: options.isCancelled,
        onBytes: (n) => {
          result.bytesRead += n;
          budget -= n;
          options.onProgress?.(result.bytesRead, total);
        },
      });
      result.blobsSearched++;
      seen.set(r.path, m);
    }
    if (m) result.hits.push({ event: r.event, field: r.field, digest: r.digest, match: m });
  }
  return { ...result, cancelled: options.isCancelled?.() ?? false };
}
