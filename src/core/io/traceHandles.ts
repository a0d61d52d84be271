/**
 * One open handle per trace file while an operation on it runs. A check, verify or load reads a trace several
 * times (the binary probe, the multi-line document test, the byte-order mark, the scan, a fallback load, the
 * checks' re-read); each used to open the file anew. {@link holdTrace} opens it once for the whole operation and
 * {@link openTrace} hands that handle to every read inside, as long as the path still names the same file (same
 * device and inode, by a stat, which opens nothing): reading through it is then what a fresh open would read,
 * appended bytes included. A path that now names another file (a rewrite by rename) gets a fresh open.
 */
import { tracePathKey } from '../tracePath';
import { FileInfo, fileSystem, FileSystem, FsPath, OpenFile } from './fileSystem';

interface Held {
  file: OpenFile;
  info: FileInfo;
  refs: number;
  key: string;
}

const held = new Map<string, Held>();

function release(h: Held): Promise<void> {
  if (--h.refs > 0) return Promise.resolve();
  if (held.get(h.key) === h) held.delete(h.key);
  return h.file.close();
}

function borrowed(h: Held): OpenFile {
  h.refs++;
  let closed = false;
  return {
    read: (buffer, offset, length, position) => h.file.read(buffer, offset, length, position),
    readSync: (buffer, offset, length, position) => h.file.readSync(buffer, offset, length, position),
    stat: () => h.file.stat(),
    close: () => {
      if (closed) return Promise.resolve();
      closed = true;
      return release(h);
    },
  };
}

async function sameFile(h: Held, path: FsPath): Promise<boolean> {
  try {
    const now = await fileSystem().stat(path);
    return now.dev === h.info.dev && now.ino === h.info.ino;
  } catch {
    return false;
  }
}

/**
 * Reads synchronously through the handle {@link holdTrace} keeps for `path` (when the path still names that
 * file), else opens, reads and closes as {@link FileSystem.readSync} does; the bytes read.
 */
export function readTraceSync(path: FsPath, buffer: Uint8Array, offset: number, length: number, position: number): number {
  const h = held.get(tracePathKey(path));
  if (h) {
    let same = false;
    try {
      const now = fileSystem().statSync(path);
      same = now.dev === h.info.dev && now.ino === h.info.ino;
    } catch {
      // gone: the read below says so
    }
    if (same) return h.file.readSync(buffer, offset, length, position);
  }
  return fileSystem().readSync(path, buffer, offset, length, position);
}

/** Opens a trace file for reading: the handle {@link holdTrace} keeps for it when the path still names that file. */
export async function openTrace(path: FsPath): Promise<OpenFile> {
  const key = tracePathKey(path);
  const h = held.get(key);
  // Still held after the stat: the operation holding it may have ended meanwhile, closing the handle.
  if (h && (await sameFile(h, path)) && held.get(key) === h) return borrowed(h);
  return fileSystem().open(path);
}

/**
 * Runs `work` with the trace held open: reads through {@link openTrace} inside it share one handle. When the file
 * cannot be opened, `work` runs anyway (its own reads then report why, as they did).
 */
export async function holdTrace<T>(path: FsPath, work: () => Promise<T>): Promise<T> {
  const key = tracePathKey(path);
  let h = held.get(key);
  let mine: OpenFile | null = null;
  if (h && (await sameFile(h, path)) && held.get(key) === h) {
    mine = borrowed(h);
  } else {
    // A stat before the open: a FIFO or a folder is never opened here (an open of a FIFO would wait for a writer).
    const info = await fileSystem().stat(path).catch(() => null);
    if (!info?.isFile()) return work();
    let file: OpenFile;
    try {
      file = await fileSystem().open(path);
    } catch {
      return work(); // its own reads say why
    }
    const opened = await file.stat().catch(() => null);
    if (!opened || opened.dev !== info.dev || opened.ino !== info.ino) {
      await file.close();
      return work(); // replaced between the stat and the open: no sharing this time
    }
    h = { file, info: opened, refs: 0, key };
    held.set(key, h);
    mine = borrowed(h);
  }
  try {
    return await work();
  } finally {
    await mine.close();
  }
}
