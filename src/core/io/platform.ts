/**
 * The core's door to what its platform provides besides files: the OS's paths, SHA-256, UTF-8 validation,
 * gunzip, the CPU count and worker threads. No core module imports a Node built-in; it asks {@link platform}.
 * Like the file system (`fileSystem.ts`), the implementation is registered once per process by the entry point,
 * before it calls the core: the CLI, the extension host and the workers register the Node one
 * (`src/node/nodePlatform.ts`: `node:path`, native hashing and UTF-8 validation, `node:zlib`, `node:os`,
 * `node:worker_threads`), the HTML report's page its own (`src/report/platform/reportPlatform.ts`: POSIX paths,
 * a SHA-256 in TypeScript, no gzip, no workers).
 *
 * Bytes stay Node's `Buffer`, imported from the package name `buffer`: Node resolves that name to its own module,
 * and the report's browser bundle to the npm package `buffer`, so the core's byte code runs unchanged in both.
 *
 * Hashing and validation are synchronous, as the core's line checks and readers call them.
 */

/** The path functions the core uses, with the meaning `node:path` gives them on the platform's OS. */
export interface PathApi {
  readonly sep: string;
  basename(path: string, suffix?: string): string;
  dirname(path: string): string;
  extname(path: string): string;
  join(...paths: string[]): string;
  resolve(...paths: string[]): string;
  relative(from: string, to: string): string;
  isAbsolute(path: string): boolean;
}

/** An incremental SHA-256 (Node's `Hash` is one): text is hashed as its UTF-8 bytes; digested once. */
export interface Hash {
  update(data: string | Uint8Array): Hash;
  digest(encoding: 'hex'): string;
}

/**
 * A gunzip stream, as much of Node's `zlib.Gunzip` as the byte reader (`../byteSource.ts`) uses: raw bytes are
 * written in, decompressed chunks come out of its async iterator; a truncated input ends it with a `Z_BUF_ERROR`.
 */
export interface GunzipStream extends AsyncIterable<Uint8Array> {
  readonly destroyed: boolean;
  /** False when the caller should wait for `drain` before writing more. */
  write(chunk: Uint8Array): boolean;
  end(): void;
  destroy(error?: Error): void;
  on(event: 'drain' | 'close', listener: () => void): GunzipStream;
  off(event: 'drain' | 'close', listener: () => void): GunzipStream;
}

/** A worker thread the core started; its messages are what the worker's body posts. */
export interface WorkerThread {
  onMessage(listener: (message: unknown) => void): void;
  onError(listener: (error: Error) => void): void;
  terminate(): Promise<void>;
}

/** The workers the core starts, by the name of their entry (`src/node/<name>.ts`, bundled as `dist/<name>.js`). */
export type WorkerEntry = 'rangeWorker';

export interface WorkerOptions {
  /** The worker's young generation, in MB (V8's default when absent). */
  maxYoungGenerationSizeMb?: number;
}

export interface Platform {
  readonly path: PathApi;
  /** Whether the file system's names fold case by default (macOS, Windows): a name a listing lacks may still open. */
  readonly foldsCase: boolean;
  /** A new incremental SHA-256. */
  sha256(): Hash;
  /** Lowercase hex SHA-256 of a text's UTF-8 bytes or of bytes, in one call (no Hash object per line). */
  sha256Hex(data: string | Uint8Array): string;
  /** Whether the bytes are well-formed UTF-8. */
  isUtf8(bytes: Uint8Array): boolean;
  /** A gunzip stream; throws where gzip cannot be read (the report, which embeds decompressed content). */
  createGunzip(options: { chunkSize: number }): GunzipStream;
  /** How many threads can run at once (CPU cores); 1 where workers cannot be started. */
  parallelism(): number;
  /** Starts a worker thread running `entry` with `data`; throws where workers cannot be started. */
  startWorker(entry: WorkerEntry, data: unknown, options?: WorkerOptions): WorkerThread;
}

let current: Platform | null = null;

/** Registers the platform the core runs on; an entry point calls it once, before the core runs. */
export function setPlatform(p: Platform): void {
  current = p;
}

/** The registered platform; throws when no entry point registered one (a programming error, never input). */
export function platform(): Platform {
  if (current === null) throw new Error('no platform is registered: the entry point must call setPlatform (src/core/io/platform.ts) first');
  return current;
}

/** A new incremental SHA-256 of the registered platform. */
export function sha256(): Hash {
  return platform().sha256();
}

/** Lowercase hex SHA-256 of a text's UTF-8 bytes or of bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return platform().sha256Hex(data);
}

/** Whether the bytes are well-formed UTF-8. */
export function isUtf8(bytes: Uint8Array): boolean {
  return platform().isUtf8(bytes);
}
