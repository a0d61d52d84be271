import { Buffer } from 'buffer';
import { BlobHashMethod } from './blobReference';
import { openLocated } from './blobSafety';
import { Fnv1a64 } from '../digests';
import { FileInfo, OpenFile } from '../io/fileSystem';
import { sha256 } from '../io/platform';
import { canonicalJsonSha256OfBuffer, PythonCanonicalJsonHasher } from '../json/pythonCanonicalJson';

/** The result of rehashing one blob file. */
export type HashOutcome =
  | { kind: 'digest'; digest: string }
  /** The content cannot be hashed the way the format requires (a JSON blob that does not parse). */
  | { kind: 'invalid'; error: string }
  /** The content needs an in-memory pass larger than allowed. */
  | { kind: 'too-large'; error: string }
  /** Reading failed. */
  | { kind: 'error'; error: string };

/** Limits for {@link hashBlobFile}. */
export interface HashOptions {
  /** Bytes per read; default 1 MiB. */
  chunkSize?: number;
  /** Largest JSON blob whose keys are re-sorted in memory when they are not already sorted; default 64 MiB. */
  maxSortBytes?: number;
}

const DEFAULT_CHUNK = 1024 * 1024;
const DEFAULT_MAX_SORT = 64 * 1024 * 1024;

/** Reads a file in chunks into `sink` (one reused buffer: memory stays at one chunk whatever the size). */
async function readChunks(handle: OpenFile, chunkSize: number, sink: (chunk: Uint8Array) => boolean | void): Promise<number> {
  const buf = Buffer.allocUnsafe(chunkSize);
  let position = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buf, 0, chunkSize, position);
    if (bytesRead === 0) return position;
    position += bytesRead;
    if (sink(buf.subarray(0, bytesRead)) === false) return position;
  }
}

async function hashOpened(handle: OpenFile, size: number, method: BlobHashMethod, options: HashOptions): Promise<HashOutcome> {
  const chunk = options.chunkSize ?? DEFAULT_CHUNK;
  if (method === 'sha256-bytes') {
    const h = sha256();
    await readChunks(handle, chunk, (c) => void h.update(c));
    return { kind: 'digest', digest: h.digest('hex') };
  }
  if (method === 'fnv1a64-bytes') {
    const h = new Fnv1a64();
    await readChunks(handle, chunk, (c) => void h.update(c));
    return { kind: 'digest', digest: h.digestHex() };
  }
  const streamed = new PythonCanonicalJsonHasher();
  await readChunks(handle, chunk, (c) => streamed.update(c));
  const result = streamed.finish();
  if (result.kind === 'digest') return result;
  if (result.kind === 'invalid') return { kind: 'invalid', error: `not valid JSON: ${result.error}` };
  const maxSort = options.maxSortBytes ?? DEFAULT_MAX_SORT;
  if (size > maxSort) {
    return { kind: 'too-large', error: `its keys are not in sorted order and it is larger than ${maxSort} bytes, the limit for re-sorting in memory` };
  }
  const all = Buffer.alloc(size);
  let at = 0;
  await readChunks(handle, chunk, (c) => {
    if (at + c.length > size) return false;
    all.set(c, at);
    at += c.length;
  });
  const sorted = canonicalJsonSha256OfBuffer(all.subarray(0, at));
  return sorted.kind === 'digest' ? sorted : { kind: 'invalid', error: `not valid JSON: ${sorted.kind === 'invalid' ? sorted.error : ''}` };
}

/** Rehashes a located blob from its raw bytes with `method`, streaming. Never throws. */
export async function hashBlobFile(realPath: string, stats: FileInfo, method: BlobHashMethod, options: HashOptions = {}): Promise<HashOutcome> {
  let handle: OpenFile | null = null;
  try {
    handle = await openLocated(realPath, stats);
    return await hashOpened(handle, stats.size, method, options);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return { kind: 'error', error: err?.code ? `${err.code}: ${err.message}` : String((e as Error)?.message ?? e) };
  } finally {
    await handle?.close();
  }
}

/**
 * Rehash results per (real path, size, modification time, inode, method). Blobs are never rewritten by
 * their runtimes, so a file whose size and mtime are unchanged need not be read again; concurrent requests
 * for one blob share one read. Read errors are not cached (they may be transient).
 */
export class BlobHashCache {
  private readonly done = new Map<string, HashOutcome>();
  private readonly pending = new Map<string, Promise<HashOutcome>>();

  constructor(private readonly limit = 8192) {}

  /** The cache key of a file state. */
  static key(realPath: string, stats: FileInfo, method: BlobHashMethod): string {
    return `${method}\0${stats.size}\0${stats.mtimeMs}\0${stats.ino}\0${realPath}`;
  }

  /** The cached outcome for `key`, or the outcome of `compute()` (then cached). */
  async get(key: string, compute: () => Promise<HashOutcome>): Promise<HashOutcome> {
    const hit = this.done.get(key);
    if (hit) {
      this.done.delete(key); // keep recently used entries at the end (LRU order)
      this.done.set(key, hit);
      return hit;
    }
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight;
    const p = compute()
      .catch((e: unknown): HashOutcome => ({ kind: 'error', error: String((e as Error)?.message ?? e) }))
      .then((outcome) => {
        this.pending.delete(key);
        if (outcome.kind !== 'error') this.remember(key, outcome);
        return outcome;
      });
    this.pending.set(key, p);
    return p;
  }

  private remember(key: string, outcome: HashOutcome): void {
    this.done.set(key, outcome);
    if (this.done.size > this.limit) this.done.delete(this.done.keys().next().value!);
  }

  /** Number of cached outcomes. */
  get size(): number {
    return this.done.size;
  }

  /** Forgets everything (e.g. after the user edits blobs by hand). */
  clear(): void {
    this.done.clear();
  }
}

/** The cache used when the caller gives none. */
export const sharedBlobHashCache = new BlobHashCache();
