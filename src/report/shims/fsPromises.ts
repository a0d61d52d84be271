// node:fs/promises in the report page: reads from the in-memory files (memoryFiles.ts); nothing is written.
import { memoryFile } from '../memoryFiles';

function stats(size: number) {
  return { size, mtimeMs: 0, isFile: () => true, isDirectory: () => false, isSymbolicLink: () => false, isFIFO: () => false, dev: 0, ino: 0 };
}

export async function stat(path: string) {
  return stats(memoryFile(path).length);
}
export const lstat = stat;
export async function realpath(path: string): Promise<string> {
  memoryFile(path);
  return String(path);
}
export async function readdir(): Promise<string[]> {
  return [];
}
export async function readFile(path: string, enc?: string) {
  const b = Buffer.from(memoryFile(path));
  return enc ? b.toString(enc as BufferEncoding) : b;
}
export async function open(path: string) {
  const data = memoryFile(path);
  return {
    async read(buf: Uint8Array, off: number, len: number, pos: number) {
      const part = data.subarray(pos, Math.min(data.length, pos + len));
      buf.set(part, off);
      return { bytesRead: part.length, buffer: buf };
    },
    async stat() {
      return stats(data.length);
    },
    async close() {},
  };
}
export type FileHandle = Awaited<ReturnType<typeof open>>;
