/**
 * Tells how a trace file changed since it was read: grown (an agent still writing), rewritten, truncated or
 * deleted. Compares the bytes at the start and just before the end of what was indexed, so a rewrite that
 * keeps the size is still noticed. vscode-free.
 */
import { open, stat } from 'node:fs/promises';

/** What a change means for the viewer. */
export type FileChange = 'unchanged' | 'appended' | 'rewritten' | 'truncated' | 'deleted';

/** The bytes and size of a file when it was read. */
export interface FileFingerprint {
  /** Bytes the model covers. */
  indexedBytes: number;
  head: Buffer;
  /** The bytes just before `indexedBytes`. */
  tail: Buffer;
}

const WINDOW = 4096;

/** Takes the fingerprint of the first `indexedBytes` bytes of a file. */
export async function fingerprintFile(path: string, indexedBytes: number): Promise<FileFingerprint> {
  const [head, tail] = await readWindows(path, indexedBytes);
  return { indexedBytes, head, tail };
}

/** Classifies the file's current state against a fingerprint. */
export async function classifyChange(path: string, fp: FileFingerprint): Promise<FileChange> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'deleted';
    throw err;
  }
  if (size < fp.indexedBytes) return 'truncated';
  const [head, tail] = await readWindows(path, fp.indexedBytes);
  if (!head.equals(fp.head) || !tail.equals(fp.tail)) return 'rewritten';
  return size > fp.indexedBytes ? 'appended' : 'unchanged';
}

async function readWindows(path: string, indexedBytes: number): Promise<[Buffer, Buffer]> {
  const handle = await open(path, 'r');
  try {
    const read = async (offset: number, length: number): Promise<Buffer> => {
      const buf = Buffer.alloc(Math.max(0, length));
      const { bytesRead } = await handle.read(buf, 0, buf.length, offset);
      return buf.subarray(0, bytesRead);
    };
    const headLen = Math.min(WINDOW, indexedBytes);
    const tailStart = Math.max(headLen, indexedBytes - WINDOW);
    return [await read(0, headLen), await read(tailStart, indexedBytes - tailStart)];
  } finally {
    await handle.close();
  }
}
