import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileSystem, FsPath, OpenFile, OpenOptions, setFileSystem } from '../../../src/core/io/fileSystem';
import { MemoryFileSystem } from '../../../src/core/io/memoryFileSystem';
import { holdTrace, openTrace, readTraceSync } from '../../../src/core/io/traceHandles';
import { loadTrace } from '../../../src/core/loadTrace';
import { streamChecks } from '../../../src/core/stream/streamChecks';

const MURMUR = join(__dirname, '..', '..', 'seed-corpus', 'murmur', 'ses_39263059f28c105d1fb17c2390c192cf', 'trace.jsonl');

/** A memory file system that counts opens, async and synchronous, per path. */
class CountingFs extends MemoryFileSystem {
  opens = 0;
  override async open(path: FsPath, options?: OpenOptions): Promise<OpenFile> {
    this.opens++;
    void options;
    return super.open(path);
  }
  override readSync(path: FsPath, buffer: Uint8Array, offset: number, length: number, position: number): number {
    this.opens++;
    return super.readSync(path, buffer, offset, length, position);
  }
}

describe('one open handle per trace (src/core/io/traceHandles.ts)', () => {
  let was: ReturnType<typeof fileSystem>;
  let fs: CountingFs;
  beforeEach(() => {
    was = fileSystem();
    fs = new CountingFs();
    setFileSystem(fs);
  });
  afterEach(() => setFileSystem(was));

  it('opens a trace once for a load, a verify and a check, where each read opened it before', async () => {
    fs.write('/t/trace.jsonl', readFileSync(MURMUR));
    await loadTrace('/t/trace.jsonl');
    assert.equal(fs.opens, 1, 'load');
    fs.opens = 0;
    await streamChecks('/t/trace.jsonl', 'verify');
    assert.equal(fs.opens, 1, 'verify');
    fs.opens = 0;
    await streamChecks('/t/trace.jsonl', 'check');
    assert.equal(fs.opens, 1, 'check');
  });

  it('shares the held handle, sync reads included, and closes it when the hold ends', async () => {
    fs.write('/t/a.jsonl', 'abcdef');
    await holdTrace('/t/a.jsonl', async () => {
      const f = await openTrace('/t/a.jsonl');
      const b = Buffer.alloc(3);
      await f.read(b, 0, 3, 1);
      assert.equal(b.toString(), 'bcd');
      await f.close();
      assert.equal(readTraceSync('/t/a.jsonl', b, 0, 3, 3), 3);
      assert.equal(b.toString(), 'def');
    });
    assert.equal(fs.opens, 1);
    await (await openTrace('/t/a.jsonl')).close();
    assert.equal(fs.opens, 2, 'no handle is kept after the hold');
  });

  it('opens the file anew once the path names another file, and sees appends through the held one', async () => {
    fs.write('/t/a.jsonl', 'first');
    await holdTrace('/t/a.jsonl', async () => {
      fs.append('/t/a.jsonl', '+more');
      const b = Buffer.alloc(10);
      assert.equal(readTraceSync('/t/a.jsonl', b, 0, 10, 0), 10);
      assert.equal(b.toString(), 'first+more');
      assert.equal(fs.opens, 1);
      fs.write('/t/a.jsonl', 'second');
      const f = await openTrace('/t/a.jsonl');
      const c = Buffer.alloc(6);
      await f.read(c, 0, 6, 0);
      await f.close();
      assert.equal(c.toString(), 'second');
      assert.equal(fs.opens, 2);
    });
  });

  it('never hands out a handle whose hold ended while it was being looked up', async () => {
    // Files that fail once closed, as Node's do, and a stat that waits until the test lets it go on.
    let statGate: Promise<void> | null = null;
    class ClosingFs extends CountingFs {
      override async open(path: FsPath, options?: OpenOptions): Promise<OpenFile> {
        const f = await super.open(path, options);
        let closed = false;
        return {
          read: (...a) => (closed ? Promise.reject(new Error('file closed')) : f.read(...a)),
          readSync: (...a) => f.readSync(...a),
          stat: () => f.stat(),
          close: async () => void (closed = true),
        };
      }
      override async stat(path: FsPath) {
        if (statGate) await statGate;
        return super.stat(path);
      }
    }
    const closing = new ClosingFs();
    setFileSystem(closing);
    closing.write('/t/a.jsonl', 'abcdef');
    let endHold!: () => void;
    const held = holdTrace('/t/a.jsonl', () => new Promise<void>((r) => (endHold = r)));
    await new Promise((r) => setImmediate(r));
    let letStatGo!: () => void;
    statGate = new Promise((r) => (letStatGo = r));
    const opening = openTrace('/t/a.jsonl');
    // The hold ends while the lookup's stat is under way.
    endHold();
    await held;
    statGate = null;
    letStatGo();
    const f = await opening;
    const b = Buffer.alloc(3);
    await f.read(b, 0, 3, 0);
    assert.equal(b.toString(), 'abc');
    await f.close();
  });

  it('runs the work when the trace cannot be opened, so its own reads report why', async () => {
    await assert.rejects(loadTrace('/t/missing.jsonl'), (e: NodeJS.ErrnoException) => e.code === 'ENOENT');
    fs.write('/d/x.jsonl', 'x');
    await assert.rejects(loadTrace('/d'), (e: NodeJS.ErrnoException) => e.code === 'EISDIR');
    assert.equal(fs.opens, 0);
  });
});
