/**
 * A file system in memory, for the HTML report (the trace's bytes and nothing else) and for tests. Files are
 * bytes under a path; a folder exists while a file lies below it. Each write gives the file a new identity
 * (inode and mtime), as a rewrite on disk does. No symbolic links: a real path is the path itself.
 */
import { Buffer } from 'buffer';
import { DirEntry, FileInfo, FileSystem, FsPath, fsError, OpenFile } from './fileSystem';

interface Entry {
  bytes: Uint8Array;
  ino: number;
  mtimeMs: number;
}

function key(path: FsPath): string {
  const text = typeof path === 'string' ? path : path.toString('utf8');
  return text.replace(/\\/g, '/').replace(/\/+$/, '') || '/';
}

function fileInfo(size: number, ino: number, mtimeMs: number, kind: 'file' | 'directory'): FileInfo {
  return {
    size, mtimeMs, dev: 1, ino,
    isFile: () => kind === 'file',
    isDirectory: () => kind === 'directory',
    isFIFO: () => false,
    isSymbolicLink: () => false,
  };
}

export class MemoryFileSystem implements FileSystem {
  private readonly files = new Map<string, Entry>();
  private nextIno = 1;
  private clock = 0;

  /** Writes (or rewrites) a file: a new identity, as on disk. */
  write(path: FsPath, bytes: Uint8Array | string): void {
    const data = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
    this.files.set(key(path), { bytes: data, ino: this.nextIno++, mtimeMs: ++this.clock });
  }

  /** Appends to a file (same identity, a later mtime), creating it if needed. */
  append(path: FsPath, bytes: Uint8Array | string): void {
    const e = this.files.get(key(path));
    if (!e) return this.write(path, bytes);
    const more = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
    const joined = new Uint8Array(e.bytes.length + more.length);
    joined.set(e.bytes, 0);
    joined.set(more, e.bytes.length);
    e.bytes = joined;
    e.mtimeMs = ++this.clock;
  }

  remove(path: FsPath): void {
    this.files.delete(key(path));
  }

  private isDir(k: string): boolean {
    const prefix = k === '/' ? '/' : `${k}/`;
    for (const f of this.files.keys()) if (f.startsWith(prefix)) return true;
    return false;
  }

  private file(path: FsPath, op: string): Entry {
    const k = key(path);
    const e = this.files.get(k);
    if (e) return e;
    if (this.isDir(k)) throw fsError('EISDIR', `illegal operation on a directory, ${op}`, path);
    throw fsError('ENOENT', `no such file or directory, ${op}`, path);
  }

  private info(path: FsPath): FileInfo {
    const k = key(path);
    const e = this.files.get(k);
    if (e) return fileInfo(e.bytes.length, e.ino, e.mtimeMs, 'file');
    if (this.isDir(k)) return fileInfo(0, 0, 0, 'directory');
    throw fsError('ENOENT', 'no such file or directory, stat', path);
  }

  async open(path: FsPath): Promise<OpenFile> {
    // The open file keeps its entry: it sees appends, and keeps a file that a write replaced, as a descriptor does.
    const e = this.file(path, 'open');
    const readSync = (buffer: Uint8Array, offset: number, length: number, position: number): number => {
      const part = e.bytes.subarray(Math.min(position, e.bytes.length), Math.min(e.bytes.length, position + length));
      buffer.set(part, offset);
      return part.length;
    };
    return {
      read: async (buffer, offset, length, position) => ({ bytesRead: readSync(buffer, offset, length, position) }),
      readSync,
      stat: async () => fileInfo(e.bytes.length, e.ino, e.mtimeMs, 'file'),
      close: async () => undefined,
    };
  }

  async stat(path: FsPath): Promise<FileInfo> {
    return this.info(path);
  }

  async lstat(path: FsPath): Promise<FileInfo> {
    return this.info(path);
  }

  async realpath(path: string): Promise<string> {
    this.info(path);
    return path;
  }

  private entries(dir: FsPath): DirEntry[] {
    const k = key(dir);
    if (this.files.has(k)) throw fsError('ENOTDIR', 'not a directory, scandir', dir);
    if (!this.isDir(k)) throw fsError('ENOENT', 'no such file or directory, scandir', dir);
    const prefix = k === '/' ? '/' : `${k}/`;
    const out = new Map<string, DirEntry['kind']>();
    for (const f of this.files.keys()) {
      if (!f.startsWith(prefix)) continue;
      const rest = f.slice(prefix.length);
      const cut = rest.indexOf('/');
      out.set(cut < 0 ? rest : rest.slice(0, cut), cut < 0 ? 'file' : 'directory');
    }
    return [...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, kind]) => ({ name, kind }));
  }

  async list(dir: FsPath): Promise<DirEntry[]> {
    return this.entries(dir);
  }

  async listBytes(dir: FsPath): Promise<DirEntry<Buffer>[]> {
    return this.entries(dir).map((e) => ({ name: Buffer.from(e.name, 'utf8'), kind: e.kind }));
  }

  async readFile(path: FsPath): Promise<Buffer> {
    return Buffer.from(this.file(path, 'open').bytes);
  }

  statSync(path: FsPath): FileInfo {
    return this.info(path);
  }

  readSync(path: FsPath, buffer: Uint8Array, offset: number, length: number, position: number): number {
    const bytes = this.file(path, 'open').bytes;
    const part = bytes.subarray(Math.min(position, bytes.length), Math.min(bytes.length, position + length));
    buffer.set(part, offset);
    return part.length;
  }

  existsSync(path: FsPath): boolean {
    const k = key(path);
    return this.files.has(k) || this.isDir(k);
  }
}
