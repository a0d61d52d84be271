import { isAbsolute, join, relative, pathSep } from '../io/paths';
import { FileInfo, fileSystem, OpenFile } from '../io/fileSystem';

/**
 * File-system guards for blob access. A trace is hostile input: its references may try to reach files
 * outside the blob roots through `..`, absolute names or symbolic links. Names are validated before they get
 * here (see blobReference.ts); this module makes sure the file finally opened really lies inside a root's
 * real path, is a regular file, and is the same file that was checked.
 */

/** A directory blobs are looked up in. */
export interface BlobRoot {
  /** The root as configured or derived (for messages). */
  path: string;
  /** Its real path (symbolic links resolved); containment is checked against this. */
  realPath: string;
  /** Where the root came from. */
  source: 'beside-trace' | 'agentledger-runtime' | 'trace-folder' | 'setting';
  /**
   * Set when a derived root (not one the user configured) is a symbolic link leading out of the folder that
   * holds it: the real path it leads to. Nothing in such a root is read.
   */
  outside?: string;
}

/** Where a blob name led inside one root. */
export type Located =
  | { kind: 'found'; path: string; realPath: string; stats: FileInfo }
  | { kind: 'escape'; path: string; target: string }
  /**
   * `what` it is instead, for messages: `a FIFO (named pipe)`, `a directory`, `a special file`, `a symbolic link
   * loop` or `a symbolic link to nothing`. The name is taken but the blob's content is not there.
   */
  | { kind: 'not-file'; path: string; what: string }
  | { kind: 'error'; path: string; error: string };

/** True when `child` is `parent` or lies below it (both absolute, normalized). */
export function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && rel.split(pathSep())[0] !== '..');
}

/** The real path of an existing directory, or null. */
export async function realDirectory(path: string): Promise<string | null> {
  try {
    const real = await fileSystem().realpath(path);
    return (await fileSystem().stat(real)).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

function errorText(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err?.code ? `${err.code}: ${err.message}` : String(e);
}

/**
 * Looks `rel` up inside `root`. Returns null when nothing is there; otherwise what was found. A name that is
 * itself absolute or climbs out is refused before touching the disk (defence in depth: callers pass names
 * built from validated digests only).
 */
export async function locateInRoot(root: BlobRoot, rel: string): Promise<Located | null> {
  const path = join(root.realPath, rel);
  if (isAbsolute(rel) || rel.split(/[/\\]/).includes('..') || !isInside(path, root.realPath)) {
    return { kind: 'escape', path, target: rel };
  }
  try {
    await fileSystem().lstat(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    return { kind: 'error', path, error: errorText(e) };
  }
  let real: string;
  try {
    real = await fileSystem().realpath(path);
  } catch (e) {
    // The name is in the store but leads to no file: not a blob, and not an absent one either (issue 41: a store
    // must not pass verification because a link took the blob's place).
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'not-file', path, what: 'a symbolic link to nothing' };
    if (code === 'ELOOP') return { kind: 'not-file', path, what: 'a symbolic link loop' };
    return { kind: 'error', path, error: errorText(e) };
  }
  if (!isInside(real, root.realPath)) return { kind: 'escape', path, target: real };
  try {
    const stats = await fileSystem().stat(real);
    if (!stats.isFile()) return { kind: 'not-file', path, what: notFileWhat(stats) };
    return { kind: 'found', path, realPath: real, stats };
  } catch (e) {
    return { kind: 'error', path, error: errorText(e) };
  }
}

/** What a file that is not a regular file is, for messages. */
export function notFileWhat(stats: FileInfo): string {
  return stats.isFIFO() ? 'a FIFO (named pipe)' : stats.isDirectory() ? 'a directory' : 'a special file';
}

const OPEN_FLAGS = { noFollow: true, nonBlocking: true };

/**
 * Opens a located blob for reading. The real path is opened without following a final symbolic link and
 * without blocking (a FIFO swapped in must not hang the reader), and the opened file must be the regular
 * file that was checked (same device and inode), so a swap between check and open is refused.
 */
export async function openLocated(realPath: string, checked: FileInfo): Promise<OpenFile> {
  // Never open what stat did not call a regular file (a FIFO or a device is not opened at all).
  if (!checked.isFile()) throw new Error(`${realPath}: ${notFileWhat(checked)}, not a regular file; it is not read`);
  const handle = await fileSystem().open(realPath, OPEN_FLAGS);
  try {
    const now = await handle.stat();
    if (!now.isFile()) throw new Error(`${realPath}: not a regular file`);
    if (now.dev !== checked.dev || now.ino !== checked.ino) throw new Error(`${realPath}: the file changed while it was being opened`);
    return handle;
  } catch (e) {
    await handle.close();
    throw e;
  }
}

/**
 * Opens a blob file found by a folder listing (find): without following a final symbolic link or blocking,
 * and only if it is a regular file; gives its size as the opened file reports it.
 */
export async function openBlobFile(realPath: string): Promise<{ handle: OpenFile; size: number }> {
  const checked = await fileSystem().lstat(realPath);
  if (!checked.isFile()) throw new Error(`${realPath}: ${checked.isSymbolicLink() ? 'a symbolic link' : notFileWhat(checked)}, not a regular file; it is not read`);
  const handle = await fileSystem().open(realPath, OPEN_FLAGS);
  try {
    const now = await handle.stat();
    if (!now.isFile()) throw new Error(`${realPath}: not a regular file`);
    if (now.dev !== checked.dev || now.ino !== checked.ino) throw new Error(`${realPath}: the file changed while it was being opened`);
    return { handle, size: now.size };
  } catch (e) {
    await handle.close();
    throw e;
  }
}
