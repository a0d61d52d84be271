/**
 * The core's file system seam (`src/core/io/fileSystem.ts`) over Node's `fs`: what the CLI, the extension host
 * and the workers register. The only place the core's reads reach `node:fs`.
 */
import { closeSync, constants, existsSync, openSync, readSync, statSync } from 'node:fs';
import { lstat, open, readdir, readFile, realpath, stat } from 'node:fs/promises';
import type { Dirent } from 'node:fs';
import { DirEntry, FileSystem, FsPath, OpenFile, OpenOptions, setFileSystem } from '../core/io/fileSystem';

function kindOf(e: Dirent | Dirent<Buffer>): DirEntry['kind'] {
  return e.isDirectory() ? 'directory' : e.isFile() ? 'file' : 'other';
}

function flagsOf(options: OpenOptions | undefined): number {
  let flags = constants.O_RDONLY;
  if (options?.noFollow) flags |= constants.O_NOFOLLOW ?? 0;
  if (options?.nonBlocking) flags |= constants.O_NONBLOCK ?? 0;
  return flags;
}

export const nodeFileSystem: FileSystem = {
  async open(path: FsPath, options?: OpenOptions): Promise<OpenFile> {
    const handle = await open(path, options?.noFollow || options?.nonBlocking ? flagsOf(options) : 'r');
    return {
      read: (buffer, offset, length, position) => handle.read(buffer, offset, length, position),
      readSync: (buffer, offset, length, position) => readSync(handle.fd, buffer, offset, length, position),
      stat: () => handle.stat(),
      close: () => handle.close(),
    };
  },
  stat: (path) => stat(path),
  lstat: (path) => lstat(path),
  realpath: (path) => realpath(path),
  list: async (dir) => (await readdir(dir, { withFileTypes: true })).map((e) => ({ name: e.name, kind: kindOf(e) })),
  listBytes: async (dir) => (await readdir(dir, { withFileTypes: true, encoding: 'buffer' })).map((e) => ({ name: e.name, kind: kindOf(e) })),
  readFile: (path) => readFile(path),
  statSync: (path) => statSync(path),
  readSync(path, buffer, offset, length, position) {
    const fd = openSync(path, 'r');
    try {
      return readSync(fd, buffer, offset, length, position);
    } finally {
      closeSync(fd);
    }
  },
  existsSync: (path) => existsSync(path),
};

/** Registers {@link nodeFileSystem} as the core's file system. */
export function useNodeFileSystem(): void {
  setFileSystem(nodeFileSystem);
}
