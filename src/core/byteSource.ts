/**
 * The bytes of a trace file as its readers see them: a plain file as it is, a gzip file decompressed as a
 * stream. Offsets are offsets in that content (for a `.gz`: in the decompressed bytes), so line numbers and
 * line offsets are the same as in the uncompressed file. Line splitting stays the indexer's; this layer only
 * hands over chunks.
 */
import { Buffer } from 'buffer';
import { fileSystem, OpenFile } from './io/fileSystem';
import { GunzipStream, platform } from './io/platform';
import { openTrace } from './io/traceHandles';
import { allZero, classifyHead, describeContent, NotATraceError } from './binaryKinds';
import { shownPath, TracePath, tracePathKey } from './tracePath';

export { NotATraceError } from './binaryKinds';

/** How a file's bytes are stored. */
export type Compression = 'gzip' | null;

/** Bytes read from the start of a file to decide what it is. */
const PROBE_BYTES = 1024;
/** Bytes read instead when the first {@link PROBE_BYTES} are all NUL: past a few zeroed 4 KiB blocks. */
const ZEROED_PROBE_BYTES = 64 * 1024;

/** A sequential reader of a file's content chunks. */
export interface ChunkSource {
  /** The next chunk, or null at the end. The buffer is the caller's until the next call. */
  next(): Promise<Buffer | null>;
  close(): Promise<void>;
  /** After the end: why the content ended before the file did (a truncated .gz), or null for a whole file. */
  endedEarly(): string | null;
}

/**
 * Says how the file is stored, from its first bytes: gzip (by magic, whatever its name) or plain. Throws
 * {@link NotATraceError} for a zip, another known binary format or a file whose first KB is not mostly text
 * (NUL bytes aside: zeroed blocks are crash damage to a text file, read line by line and flagged at their lines),
 * so no reader ever turns binary into "invalid JSON" findings.
 */
export async function probeFile(path: TracePath): Promise<Compression> {
  let head = await readRawHead(path, PROBE_BYTES);
  // A head of nothing but NUL bytes is a zeroed block (a crash): judge the file by what follows it.
  if (head.length === PROBE_BYTES && allZero(head)) head = await readRawHead(path, ZEROED_PROBE_BYTES);
  const kind = classifyHead(head);
  if (kind === 'gzip') {
    let inner = await readDecompressedHead(path, PROBE_BYTES);
    if (inner.length === PROBE_BYTES && allZero(inner)) inner = await readDecompressedHead(path, ZEROED_PROBE_BYTES);
    const innerKind = classifyHead(inner);
    if (innerKind !== 'text') throw new NotATraceError(shownPath(path), `is gzip-compressed, but holds ${describeContent(innerKind)}, not a JSONL trace`);
    return 'gzip';
  }
  if (kind !== 'text') throw new NotATraceError(shownPath(path), `is ${describeContent(kind)}, not a JSONL trace`);
  return null;
}

/** The file name a trace has once decompressed (`x.jsonl.gz` → `x.jsonl`): detection and builders see this one. */
export function contentName(name: string): string {
  return name.replace(/\.gz$/i, '');
}

/** Options of {@link openChunks}. */
export interface ChunkOptions {
  chunkSize?: number;
  startOffset?: number;
  readAhead?: boolean;
  /**
   * A plain file's read buffers, reused instead of made: two with `readAhead`, else one, each `chunkSize` long
   * (see {@link readBuffers}). A caller that reads many pieces of a file in turn passes the same ones, so each piece
   * does not leave megabytes of buffers behind for the garbage collector.
   */
  buffers?: Buffer[];
}

/** Read buffers for {@link ChunkOptions.buffers}. */
export function readBuffers(chunkSize: number, readAhead: boolean): Buffer[] {
  return readAhead ? [Buffer.allocUnsafe(chunkSize), Buffer.allocUnsafe(chunkSize)] : [Buffer.allocUnsafe(chunkSize)];
}

/** Opens a chunk reader over the file's content from `startOffset` (a content offset). */
export async function openChunks(path: TracePath, options: ChunkOptions = {}): Promise<ChunkSource> {
  const chunkSize = options.chunkSize ?? 1 << 20;
  const start = options.startOffset ?? 0;
  if ((await probeFile(path)) === 'gzip') return gunzipChunks(path, chunkSize, start);
  const readAhead = options.readAhead === true;
  const given = options.buffers;
  const fits = given !== undefined && given.length >= (readAhead ? 2 : 1) && given.every((b) => b.length === chunkSize);
  return plainChunks(path, chunkSize, start, readAhead, fits ? given : readBuffers(chunkSize, readAhead));
}

/**
 * A plain file's chunks. With `readAhead` (a whole-file read), each next chunk is read while the caller works on
 * the last: two buffers take turns, so the caller does not wait for the disk (or the thread pool) between chunks.
 * Either way a chunk is valid until the next call to `next`: the read ahead goes into the other buffer, and the
 * one after it into this one.
 */
async function plainChunks(path: TracePath, chunkSize: number, start: number, readAhead: boolean, buffers: Buffer[]): Promise<ChunkSource> {
  const handle = await openTrace(path);
  let turn = 0;
  let pos = start;
  let done = false;
  const readInto = async (b: Buffer): Promise<number> => {
    const { bytesRead } = await handle.read(b, 0, chunkSize, pos);
    pos += bytesRead;
    return bytesRead;
  };
  let ahead: Promise<number> | null = null;
  return {
    async next() {
      if (done) return null;
      const b = buffers[turn];
      const n = await (ahead ?? readInto(b));
      ahead = null;
      if (n === 0) {
        done = true;
        return null;
      }
      if (!readAhead) return b.subarray(0, n);
      turn ^= 1;
      ahead = readInto(buffers[turn]);
      // Its failure, if any, is the next call's to report; never an unhandled rejection meanwhile.
      ahead.catch(() => undefined);
      return b.subarray(0, n);
    },
    async close() {
      // A read still under way finishes before the file is closed under it.
      await ahead?.catch(() => undefined);
      await handle.close();
    },
    endedEarly: () => null,
  };
}

/**
 * Streams gunzip output; bytes before `start` are decompressed and dropped (gzip has no random access). A
 * truncated file yields everything that decompresses (the iterator hands over all output before the error), then
 * ends with {@link ChunkSource.endedEarly} set, so the lines before the cut are read and the cut is a finding;
 * corrupt data throws.
 */
function gunzipChunks(path: TracePath, chunkSize: number, start: number): ChunkSource {
  const gunzip = platform().createGunzip({ chunkSize: Math.min(chunkSize, 1 << 20) });
  void feed(path, gunzip); // errors reach the iterator below
  const it = gunzip[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let skip = start;
  let early: string | null = null;
  return {
    endedEarly: () => early,
    async next() {
      for (;;) {
        let r: IteratorResult<Buffer>;
        try {
          r = await it.next();
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'Z_BUF_ERROR') throw gzipError(path, err);
          early = 'the gzip data ends early (a truncated .gz?)';
          return null;
        }
        if (r.done) return null;
        if (skip >= r.value.length) {
          skip -= r.value.length;
          continue;
        }
        const out = skip > 0 ? r.value.subarray(skip) : r.value;
        skip = 0;
        return out;
      }
    },
    async close() {
      await it.return?.();
      gunzip.destroy();
    },
  };
}

/**
 * Writes the file's raw bytes into `gunzip` through the file system seam, waiting for it to drain, then ends it.
 * Stops when the reader destroyed it; a read error destroys it with that error, which its reader then throws.
 */
async function feed(path: TracePath, gunzip: GunzipStream): Promise<void> {
  let file: OpenFile | null = null;
  try {
    file = await openTrace(path);
    for (let pos = 0; !gunzip.destroyed;) {
      const buf = Buffer.allocUnsafe(64 * 1024);
      const { bytesRead } = await file.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      if (!gunzip.write(buf.subarray(0, bytesRead)) && !gunzip.destroyed) {
        await new Promise<void>((resolve) => {
          const done = () => {
            gunzip.off('drain', done).off('close', done);
            resolve();
          };
          gunzip.on('drain', done).on('close', done);
        });
      }
    }
    if (!gunzip.destroyed) gunzip.end();
  } catch (err) {
    gunzip.destroy(err as Error);
  } finally {
    await file?.close().catch(() => undefined);
  }
}

function gzipError(path: TracePath, err: unknown): Error {
  const e = err as NodeJS.ErrnoException;
  const out: NodeJS.ErrnoException = new Error(`the gzip data is corrupt (${e.message})`);
  out.code = 'EGZIP';
  out.path = shownPath(path);
  return out;
}

/**
 * About how many content bytes a file holds, for progress: its size, or for gzip the trailer's ISIZE (the last
 * member's uncompressed size modulo 4 GiB, so only a hint: callers keep the larger of it and what they read).
 */
export async function contentSizeHint(path: TracePath, compression: Compression, fileSize: number): Promise<number> {
  if (compression !== 'gzip' || fileSize < 18) return fileSize;
  const handle = await openTrace(path);
  try {
    const buf = Buffer.alloc(4);
    await handle.read(buf, 0, 4, fileSize - 4);
    return buf.readUInt32LE(0);
  } finally {
    await handle.close();
  }
}

/** Reads `length` content bytes at content offset `offset` (fewer at the end of the content). */
export async function readRange(path: TracePath, offset: number, length: number): Promise<Buffer> {
  // gzip has no random access: past the first MiB, read from one decompressed copy instead of from the start.
  if (offset + length > 1 << 20 && (await probeFile(path)) === 'gzip') {
    const content = await inflatedContent(path);
    if (content) return Buffer.from(content.subarray(offset, offset + length));
  }
  const src = await openChunks(path, { startOffset: offset, chunkSize: Math.max(1024, Math.min(length, 1 << 20)) });
  const parts: Buffer[] = [];
  let got = 0;
  try {
    while (got < length) {
      const c = await src.next();
      if (!c) break;
      const take = c.subarray(0, length - got);
      parts.push(Buffer.from(take));
      got += take.length;
    }
  } finally {
    await src.close();
  }
  return Buffer.concat(parts, got);
}

/**
 * Reads several content ranges (`[offset, length]` pairs) of one file, each as {@link readRange} would, through
 * one open handle for a plain file: the diff reads its changed events' lines this way, where a read each cost two
 * opens (a probe and the read). A .gz reads each range with {@link readRange} (from its decompressed copy).
 */
export async function readRanges(path: TracePath, compression: Compression, ranges: readonly (readonly [number, number])[]): Promise<Buffer[]> {
  if (compression !== null) {
    const out: Buffer[] = [];
    for (const [offset, length] of ranges) out.push(await readRange(path, offset, length));
    return out;
  }
  const handle = await openTrace(path);
  try {
    const out: Buffer[] = [];
    for (const [offset, length] of ranges) {
      const buf = Buffer.allocUnsafe(length);
      let got = 0;
      for (let n = 1; got < length && n > 0; got += n) n = (await handle.read(buf, got, length - got, offset + got)).bytesRead;
      out.push(got < length ? buf.subarray(0, got) : buf);
    }
    return out;
  } finally {
    await handle.close();
  }
}

/** The largest decompressed .gz content kept for random reads; larger ones decompress from the start each time. */
const MAX_INFLATED_BYTES = 64 << 20;
/** One file's decompressed content, for the viewer's detail reads (one open .gz at a time is the common case). */
let inflated: { key: string; mtimeMs: number; size: number; content: Buffer } | null = null;

async function inflatedContent(path: TracePath): Promise<Buffer | null> {
  const info = await fileSystem().stat(path);
  const key = tracePathKey(path);
  if (inflated && inflated.key === key && inflated.mtimeMs === info.mtimeMs && inflated.size === info.size) return inflated.content;
  if ((await contentSizeHint(path, 'gzip', info.size)) > MAX_INFLATED_BYTES) return null;
  const content = await readAll(path, MAX_INFLATED_BYTES);
  if (content) inflated = { key, mtimeMs: info.mtimeMs, size: info.size, content };
  return content;
}

/** The whole content, or null once it grows past `maxBytes` (checked as it streams, so a gzip bomb stops at the cap). */
async function readAll(path: TracePath, maxBytes: number): Promise<Buffer | null> {
  const src = await openChunks(path);
  const parts: Buffer[] = [];
  let got = 0;
  try {
    for (let c = await src.next(); c; c = await src.next()) {
      got += c.length;
      if (got > maxBytes) return null;
      parts.push(Buffer.from(c));
    }
  } finally {
    await src.close();
  }
  return Buffer.concat(parts, got);
}

/** The first `bytes` content bytes. */
export function readHead(path: TracePath, bytes: number): Promise<Buffer> {
  return readRange(path, 0, bytes);
}

/** The whole content as UTF-8 text without a byte-order mark, or null when it is larger than `maxBytes`. */
export async function readText(path: TracePath, maxBytes = Infinity): Promise<string | null> {
  const content = await readAll(path, maxBytes);
  return content === null ? null : content.toString('utf8').replace(/^\uFEFF/, '');
}

async function readRawHead(path: TracePath, bytes: number): Promise<Buffer> {
  const handle = await openTrace(path);
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function readDecompressedHead(path: TracePath, bytes: number): Promise<Buffer> {
  const src = gunzipChunks(path, 64 * 1024, 0);
  const parts: Buffer[] = [];
  let got = 0;
  try {
    while (got < bytes) {
      const c = await src.next();
      if (!c) break;
      parts.push(Buffer.from(c.subarray(0, bytes - got)));
      got += Math.min(c.length, bytes - got);
    }
  } finally {
    await src.close();
  }
  return Buffer.concat(parts, got);
}
