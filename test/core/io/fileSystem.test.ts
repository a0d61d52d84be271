import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSystem, fileSystem, readFully, setFileSystem } from '../../../src/core/io/fileSystem';
import { MemoryFileSystem } from '../../../src/core/io/memoryFileSystem';
import { loadTrace } from '../../../src/core/loadTrace';
import { nodeFileSystem } from '../../../src/node/nodeFileSystem';

const MURMUR = join(__dirname, '..', '..', 'seed-corpus', 'murmur', 'ses_39263059f28c105d1fb17c2390c192cf', 'trace.jsonl');

async function range(fs: FileSystem, path: string, offset: number, length: number): Promise<string> {
  const file = await fs.open(path);
  try {
    const buf = Buffer.alloc(length);
    return buf.subarray(0, await readFully(file, buf, 0, length, offset)).toString('utf8');
  } finally {
    await file.close();
  }
}

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? String(e);
  }
}

/** What both implementations must do alike; `write` writes (or replaces) a file the way each does. */
function commonBehaviour(name: string, make: () => { fs: FileSystem; root: string; write: (rel: string, text: string) => void }): void {
  describe(`${name}: the common contract`, () => {
    it('reads byte ranges, short at the end and empty past it', async () => {
      const { fs, root, write } = make();
      write('a.jsonl', '0123456789');
      const p = join(root, 'a.jsonl');
      assert.equal(await range(fs, p, 2, 3), '234');
      assert.equal(await range(fs, p, 8, 10), '89');
      assert.equal(await range(fs, p, 20, 4), '');
      const b = Buffer.alloc(4);
      assert.equal(fs.readSync(p, b, 1, 3, 5), 3);
      assert.equal(b.subarray(1).toString(), '567');
      assert.equal((await fs.readFile(p)).toString(), '0123456789');
    });

    it('gives size and an identity that changes when the file is replaced', async () => {
      const { fs, root, write } = make();
      write('t.jsonl', 'first\n');
      const p = join(root, 't.jsonl');
      const before = await fs.stat(p);
      assert.equal(before.size, 6);
      assert.ok(before.isFile() && !before.isDirectory() && !before.isFIFO());
      write('t.jsonl', 'other\n'); // same size, new file
      const after = await fs.stat(p);
      assert.equal(after.size, 6);
      assert.ok(after.ino !== before.ino || after.mtimeMs !== before.mtimeMs, 'identity unchanged after a rewrite');
      assert.equal(fs.statSync(p).ino, after.ino);
    });

    it('tells a folder from a regular file, lists it, and fails on a missing path with ENOENT', async () => {
      const { fs, root, write } = make();
      write('d/x.jsonl', 'x');
      write('d/sub/y.jsonl', 'y');
      const d = join(root, 'd');
      const info = await fs.stat(d);
      assert.ok(info.isDirectory() && !info.isFile());
      assert.deepEqual((await fs.list(d)).sort((a, b) => a.name.localeCompare(b.name)), [{ name: 'sub', kind: 'directory' }, { name: 'x.jsonl', kind: 'file' }]);
      assert.deepEqual((await fs.listBytes(d)).map((e) => Buffer.isBuffer(e.name)), [true, true]);
      assert.ok(fs.existsSync(d) && fs.existsSync(join(d, 'x.jsonl')) && !fs.existsSync(join(d, 'nope')));
      assert.equal(await code(fs.stat(join(d, 'nope'))), 'ENOENT');
      assert.equal(await code(fs.open(join(d, 'nope'))), 'ENOENT');
      assert.equal(await code(fs.list(join(d, 'nope'))), 'ENOENT');
      assert.equal(await code(fs.list(join(d, 'x.jsonl'))), 'ENOTDIR');
      assert.equal(await fs.realpath(join(d, 'x.jsonl')), join(d, 'x.jsonl'));
    });

    it('keeps what an open file read when the file is replaced under it', async () => {
      const { fs, root, write } = make();
      write('r.jsonl', 'old bytes');
      const p = join(root, 'r.jsonl');
      const file = await fs.open(p);
      const ino = (await file.stat()).ino;
      write('r.jsonl', 'new bytes');
      const buf = Buffer.alloc(3);
      await file.read(buf, 0, 3, 0);
      assert.equal(buf.toString(), 'old');
      assert.equal((await file.stat()).ino, ino);
      await file.close();
    });
  });
}

describe('file system seam (src/core/io)', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  commonBehaviour('memory', () => {
    const fs = new MemoryFileSystem();
    return { fs, root: '/mem', write: (rel, text) => fs.write(join('/mem', rel), text) };
  });

  commonBehaviour('node', () => {
    const root = mkdtempSync(join(tmpdir(), 'atv-io-'));
    dirs.push(root);
    // Written beside, then renamed over: a rewrite as editors and runtimes do it, which gives a new inode.
    const write = (rel: string, text: string) => {
      const p = join(root, rel);
      mkdirSync(join(p, '..'), { recursive: true });
      writeFileSync(`${p}.tmp`, text);
      renameSync(`${p}.tmp`, p);
    };
    return { fs: nodeFileSystem, root, write };
  });

  describe('memory only', () => {
    it('keeps the identity on an append and moves the mtime', async () => {
      const fs = new MemoryFileSystem();
      fs.write('/a/t.jsonl', '{"a":1}\n');
      const before = await fs.stat('/a/t.jsonl');
      fs.append('/a/t.jsonl', '{"a":2}\n');
      const after = await fs.stat('/a/t.jsonl');
      assert.equal(after.ino, before.ino);
      assert.ok(after.mtimeMs > before.mtimeMs);
      assert.equal(after.size, 16);
      fs.remove('/a/t.jsonl');
      assert.ok(!fs.existsSync('/a/t.jsonl') && !fs.existsSync('/a'));
    });

    it('runs the core loader over a trace in memory, with the events it gives on disk', async () => {
      const disk = await loadTrace(MURMUR);
      const mem = new MemoryFileSystem();
      mem.write('/report/trace.jsonl', readFileSync(MURMUR));
      const was = fileSystem();
      setFileSystem(mem);
      try {
        const model = await loadTrace('/report/trace.jsonl');
        assert.equal(model.format, disk.format);
        assert.equal(model.events.size, disk.events.size);
        assert.deepEqual(model.diagnostics.map((d) => d.rule), disk.diagnostics.map((d) => d.rule));
      } finally {
        setFileSystem(was);
      }
    });
  });

  describe('node only', () => {
    it('says a FIFO is not a regular file, and opens it without blocking when asked', async function () {
      const root = mkdtempSync(join(tmpdir(), 'atv-io-'));
      dirs.push(root);
      const fifo = join(root, 'pipe.jsonl');
      try {
        execFileSync('mkfifo', [fifo]);
      } catch {
        this.skip(); // no mkfifo (Windows)
      }
      const info = await nodeFileSystem.stat(fifo);
      assert.ok(info.isFIFO() && !info.isFile() && !info.isDirectory());
      assert.deepEqual(await nodeFileSystem.list(root), [{ name: 'pipe.jsonl', kind: 'other' }]);
      const file = await nodeFileSystem.open(fifo, { nonBlocking: true });
      assert.ok((await file.stat()).isFIFO());
      await file.close();
    });

    it('refuses a symbolic link as the last component with noFollow, and lstat sees the link', async function () {
      const root = mkdtempSync(join(tmpdir(), 'atv-io-'));
      dirs.push(root);
      writeFileSync(join(root, 'real.json'), '{}');
      try {
        symlinkSync(join(root, 'real.json'), join(root, 'link.json'));
      } catch {
        this.skip(); // no symbolic links without privileges (Windows)
      }
      assert.ok((await nodeFileSystem.lstat(join(root, 'link.json'))).isSymbolicLink());
      assert.ok((await nodeFileSystem.stat(join(root, 'link.json'))).isFile());
      assert.equal(await code(nodeFileSystem.open(join(root, 'link.json'), { noFollow: true })), 'ELOOP');
      assert.deepEqual((await nodeFileSystem.list(root)).map((e) => e.kind).sort(), ['file', 'other']);
    });
  });
});
