import { strict as assert } from 'node:assert';
import { appendFileSync, readFileSync, renameSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CHANGE_WINDOW, changeOf, ChangeSource, fingerprintOf } from '../../src/core/fileChange';
import { openTraceReader } from '../../src/core/traceReader';
import { classifyChange, fingerprintFile } from '../../src/viewer/fileChange';
import { tempDir, tempFile } from '../helpers/tmp';

const SAMPLE = resolve('test/fixtures/viewer/sample.jsonl');

/** A file held in memory; `bytes` null once it is deleted. */
function memory(initial: string): ChangeSource & { bytes: Buffer | null } {
  const file = {
    bytes: Buffer.from(initial) as Buffer | null,
    size: async () => file.bytes?.length ?? null,
    read: async (offset: number, length: number) => Buffer.from(file.bytes!.subarray(offset, offset + length)),
  };
  return file;
}

/** `count` lines of about 60 bytes each. */
const lines = (count: number, from = 0) => Array.from({ length: count }, (_, i) => `{"id":"e${from + i}","text":"${'x'.repeat(40)}"}\n`).join('');

describe('file changes: the one detector', () => {
  it('tells appends, rewrites, truncation and deletion apart (a file on disk, as the viewer reads it)', async () => {
    const file = tempFile('t.jsonl', readFileSync(SAMPLE));
    const size = readFileSync(file).length;
    const fp = await fingerprintFile(file, size);
    assert.equal(await classifyChange(file, fp), 'unchanged');
    appendFileSync(file, '{"type":"x"}\n');
    assert.equal(await classifyChange(file, fp), 'appended');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('session_start', 'session_START'));
    assert.equal(await classifyChange(file, fp), 'rewritten', 'same size, other bytes at the start');
    writeFileSync(file, text.slice(0, size - 20) + 'X'.repeat(20) + text.slice(size));
    assert.equal(await classifyChange(file, fp), 'rewritten', 'other bytes just before the indexed end');
    truncateSync(file, 100);
    assert.equal(await classifyChange(file, fp), 'truncated');
    const moved = join(tempDir(), 'gone.jsonl');
    renameSync(file, moved);
    assert.equal(await classifyChange(file, fp), 'deleted');
    unlinkSync(moved);
  });

  it('compares a window of 4 KiB at each end: a rewrite 1 KiB in from either end is not an append', async () => {
    const text = lines(200);
    assert.ok(text.length > 3 * CHANGE_WINDOW);
    for (const at of [1024, text.length - 1024]) {
      const file = memory(text);
      const fp = await fingerprintOf(file, text.length);
      file.bytes = Buffer.from(text.slice(0, at) + 'Y' + text.slice(at + 1) + lines(5, 200));
      assert.equal(await changeOf(file, fp), 'rewritten', `a byte changed at ${at}`);
    }
    // Beyond both windows only a whole read would see it: the price of reading two windows per check.
    const file = memory(text);
    const fp = await fingerprintOf(file, text.length);
    const mid = text.length >> 1;
    file.bytes = Buffer.from(text.slice(0, mid) + 'Y' + text.slice(mid + 1) + lines(5, 200));
    assert.equal(await changeOf(file, fp), 'appended');
  });

  it('fingerprints a file shorter than the window on its bytes once, head and tail alike', async () => {
    const file = memory('{"id":"a"}\n');
    const fp = await fingerprintOf(file, 11);
    assert.deepEqual([fp.head.toString(), fp.tail.toString()], ['{"id":"a"}\n', '{"id":"a"}\n']);
    assert.equal(await changeOf(file, fp), 'unchanged');
    file.bytes = Buffer.from('{"id":"b"}\n{"id":"c"}\n');
    assert.equal(await changeOf(file, fp), 'rewritten');
    file.bytes = null;
    assert.equal(await changeOf(file, fp), 'deleted');
  });

  it('is what the trace reader asks before it reads an append: a rewrite 1 KiB in says needs-full-read', async () => {
    const text = lines(200);
    const path = tempFile('events.jsonl', text);
    const reader = await openTraceReader(path);
    writeFileSync(path, text.slice(0, 1024) + 'Y' + text.slice(1025) + lines(5, 200));
    assert.deepEqual(await reader.append(), { kind: 'needs-full-read', reason: 'the file was rewritten' });
  });
});
