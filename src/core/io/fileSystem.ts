/**
 * The core's one door to files (issue 36, "One I/O seam"). Everything in `src/core` that reads, lists or
 * watches a file goes through {@link fileSystem}; no core module imports `node:fs`. Each entry point registers
 * an implementation once, before it calls the core: the CLI, the extension host and the two workers register
 * the Node one (`src/node/nodeFileSystem.ts`), the HTML report and tests that want no disk an in-memory one
 * (`memoryFileSystem.ts`). A single registration rather than a parameter: the readers are reached through
 * many layers (loader, streamed checks, format rules, blob store) and all of one process read the same disk.
 *
 * The surface is what the call sites need, no more: opening a file for positioned reads, stat and lstat
 * (size, identity and kind), real paths, listing a folder, a whole small file, and three synchronous calls for
 * the callers that must not await (row labels inside a synchronous projection, a rule's cheap stat). Errors are
 * thrown as Node's are, with a `code` (`ENOENT`, `ENOTDIR`, `ELOOP`, ...), which callers test.
 */
import { Buffer } from 'buffer';
import type { TracePath } from '../tracePath';

/** A path as the file system takes it: text, or bytes for a name that is not valid UTF-8. */
export type FsPath = TracePath;

/** What a stat says: size, identity (for change detection) and kind. Node's `Stats` is one. */
export interface FileInfo {
  readonly size: number;
  readonly mtimeMs: number;
  /** Device and inode: together they name the file, whatever path reached it. */
  readonly dev: number;
  readonly ino: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSymbolicLink(): boolean;
}

/** An open file, read at positions. */
export interface OpenFile {
  /** Reads up to `length` bytes at `position` into `buffer` at `offset`; `bytesRead` is 0 at the end. */
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  /** The same read, synchronous (for a caller inside a synchronous projection); the bytes read. */
  readSync(buffer: Uint8Array, offset: number, length: number, position: number): number;
  /** The open file's own stat (the file read, even if its name now names another). */
  stat(): Promise<FileInfo>;
  close(): Promise<void>;
}

/** How to open a file. */
export interface OpenOptions {
  /** Fail (ELOOP) when the last component is a symbolic link. */
  noFollow?: boolean;
  /** Do not block on a FIFO or device. */
  nonBlocking?: boolean;
}

/** One folder entry: its kind is the entry's own (a symbolic link is `other`, not followed). */
export interface DirEntry<N extends string | Buffer = string> {
  name: N;
  kind: 'file' | 'directory' | 'other';
}

export interface FileSystem {
  open(path: FsPath, options?: OpenOptions): Promise<OpenFile>;
  stat(path: FsPath): Promise<FileInfo>;
  lstat(path: FsPath): Promise<FileInfo>;
  realpath(path: string): Promise<string>;
  /** A folder's entries, names as text. */
  list(dir: FsPath): Promise<DirEntry[]>;
  /** A folder's entries, names as bytes (a name that is not valid UTF-8 stays openable). */
  listBytes(dir: FsPath): Promise<DirEntry<Buffer>[]>;
  readFile(path: FsPath): Promise<Buffer>;
  statSync(path: FsPath): FileInfo;
  /** Opens, reads up to `length` bytes at `position` into `buffer` at `offset`, closes; the bytes read. */
  readSync(path: FsPath, buffer: Uint8Array, offset: number, length: number, position: number): number;
  existsSync(path: FsPath): boolean;
}

let current: FileSystem | null = null;

/** Registers the file system the core reads through; an entry point calls it once, before the core reads. */
export function setFileSystem(fs: FileSystem): void {
  current = fs;
}

/** The registered file system; throws when no entry point registered one (a programming error, never input). */
export function fileSystem(): FileSystem {
  if (current === null) throw new Error('no file system is registered: the entry point must call setFileSystem (src/core/io/fileSystem.ts) first');
  return current;
}

/** Reads `length` bytes at `position` of an open file, fewer only at its end. */
export async function readFully(file: OpenFile, buffer: Uint8Array, offset: number, length: number, position: number): Promise<number> {
  let got = 0;
  for (let n = 1; got < length && n > 0; got += n) n = (await file.read(buffer, offset + got, length - got, position + got)).bytesRead;
  return got;
}

/** Reads a whole file as UTF-8 text. */
export async function readTextFile(path: FsPath): Promise<string> {
  return (await fileSystem().readFile(path)).toString('utf8');
}

/**
 * A small JSON file beside a trace read at once (a session index, a subagent's meta file): its parsed value, or null
 * when it is missing, larger than `maxBytes`, unreadable or not JSON. For a builder that asks once, synchronously.
 */
export function readSmallJsonSync(path: FsPath, maxBytes: number): unknown {
  try {
    const fs = fileSystem();
    if (!fs.existsSync(path)) return null;
    const size = fs.statSync(path).size;
    if (size > maxBytes) return null;
    const buf = new Uint8Array(size);
    const n = fs.readSync(path, buf, 0, size, 0);
    return JSON.parse(new TextDecoder().decode(buf.subarray(0, n)));
  } catch {
    return null;
  }
}

/** An error as Node's file system throws it, with `code`. */
export function fsError(code: string, message: string, path: FsPath): Error {
  const err = new Error(`${code}: ${message}, '${String(path)}'`) as Error & { code: string; path: string };
  err.code = code;
  err.path = String(path);
  return err;
}
