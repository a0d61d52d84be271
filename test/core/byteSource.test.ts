import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { constants as zlibConstants, gunzipSync, gzipSync } from 'node:zlib';
import { classifyHead } from '../../src/core/binaryKinds';
import { NotATraceError, openChunks, probeFile, readBuffers, readRange, readText } from '../../src/core/byteSource';
import { scanLines } from '../../src/core/lineIndexer';
import { loadTrace } from '../../src/core/loadTrace';
import { tempFile } from '../helpers/tmp';
import { minimalZip, PNG_HEAD } from '../helpers/binaryFiles';


async function rejection(p: string): Promise<string> {
  try {
    await loadTrace(p);
  } catch (err) {
    assert.ok(err instanceof NotATraceError, String(err));
    return err.message;
  }
  throw new Error(`${p} was read as a trace`);
}

describe('byte source', () => {
  it('reading ahead gives the same chunks, each intact until the next is asked for, and closes mid-read', async () => {
    // Text (a binary file is refused before any chunk is read): 300,000 bytes of base64 lines.
    const content = Buffer.from(randomBytes(225_000).toString('base64').replace(/(.{99})/g, '$1\n'));
    const file = tempFile('ahead.jsonl', content);
    for (const chunkSize of [1000, 4096, 65_536, 299_999, 300_000, 1 << 20]) {
      for (const startOffset of [0, 1, 150_001]) {
        const src = await openChunks(file, { chunkSize, startOffset, readAhead: true });
        const got: Buffer[] = [];
        for (let c = await src.next(); c; c = await src.next()) {
          const copy = Buffer.from(c);
          // The read ahead (into the other buffer) finishes meanwhile: this chunk must still hold its bytes.
          await new Promise((r) => setTimeout(r, 0));
          assert.ok(c.equals(copy), `chunk ${got.length} of ${chunkSize} changed under its reader`);
          got.push(copy);
        }
        assert.ok(Buffer.concat(got).equals(content.subarray(startOffset)) && content.length > 300_000, `${chunkSize} from ${startOffset}`);
        assert.equal(await src.next(), null);
        await src.close();
      }
    }
    // Closed with a read ahead under way: no error, no unhandled rejection.
    const src = await openChunks(file, { chunkSize: 1000, readAhead: true });
    assert.equal((await src.next())!.length, 1000);
    await src.close();
    // Given buffers are read into (and reused by the next reader of another piece); buffers of another size are not.
    const buffers = readBuffers(4096, true);
    for (const [from, to] of [[0, 100_000], [100_000, 300_001]]) {
      const piece = await openChunks(file, { chunkSize: 4096, startOffset: from, readAhead: true, buffers });
      const got: Buffer[] = [];
      for (let c = await piece.next(); c && got.length * 4096 < to - from; c = await piece.next()) {
        assert.ok(buffers.some((b) => b.buffer === c!.buffer && b.byteOffset === c!.byteOffset), 'a given buffer');
        got.push(Buffer.from(c));
      }
      await piece.close();
      assert.ok(Buffer.concat(got).subarray(0, to - from).equals(content.subarray(from, to)));
    }
    const other = await openChunks(file, { chunkSize: 1000, readAhead: true, buffers });
    const c = (await other.next())!;
    assert.ok(!buffers.some((b) => b.buffer === c.buffer && b.byteOffset === c.byteOffset) && c.equals(content.subarray(0, 1000)));
    await other.close();
  });

  it('names known binary formats by their magic and calls a head that is not mostly text binary', () => {
    assert.equal(classifyHead(minimalZip('header.json', Buffer.from('{}'))), 'zip');
    assert.equal(classifyHead(PNG_HEAD), 'png');
    assert.equal(classifyHead(Buffer.from('%PDF-1.7\n')), 'pdf');
    assert.equal(classifyHead(Buffer.from('SQLite format 3\0rest')), 'sqlite');
    assert.equal(classifyHead(Buffer.from('28b52ffd0058', 'hex')), 'zstd');
    assert.equal(classifyHead(Buffer.from('BZh91AY&SY')), 'bzip2');
    assert.equal(classifyHead(Buffer.from('fd377a585a000004', 'hex')), 'xz');
    assert.equal(classifyHead(gzipSync('{}')), 'gzip');
    // NUL bytes are crash damage to a text file (a zeroed block), not a sign of binary data.
    assert.equal(classifyHead(Buffer.from('{"a":1}\n\0')), 'text');
    assert.equal(classifyHead(Buffer.concat([Buffer.alloc(900), Buffer.from('1}\n{"a":2}\n')])), 'text');
    assert.equal(classifyHead(Buffer.alloc(1024)), 'text');
    // Mostly control bytes, or bytes that are no UTF-8, are binary, NUL bytes or not.
    assert.equal(classifyHead(Buffer.from([0x7b, 0x01, 0x02, 0x03, 0x0a, 0x00, 0x00])), 'binary');
    assert.equal(classifyHead(Buffer.concat([Buffer.alloc(512), Buffer.from('c3a9fffe8081', 'hex')])), 'binary');
    assert.equal(classifyHead(Buffer.from('{"text":"café ✓"}\n')), 'text');
    assert.equal(classifyHead(Buffer.from('{"text":"BZh91AY&SY"}\n')), 'text');
    assert.equal(classifyHead(Buffer.from('')), 'text');
  });

  it('rejects a zip (an Inspect .eval), a PNG, random bytes and a gzipped zip with one line naming the file', async () => {
    const zip = tempFile('run.eval', minimalZip('header.json', Buffer.from('{"eval":{}}')));
    assert.equal(await rejection(zip), `${zip} is a zip archive, not a JSONL trace`);
    const png = tempFile('shot.jsonl', PNG_HEAD);
    assert.equal(await rejection(png), `${png} is a PNG image, not a JSONL trace`);
    const noise = Buffer.concat([Buffer.from('{"id":"a"}\n'), randomBytes(4096)]);
    noise[20] = 0; // random bytes that happen to hold no NUL in the first KB are very unlikely; make it certain
    const bin = tempFile('noise.jsonl', noise);
    assert.equal(await rejection(bin), `${bin} is binary data, not a JSONL trace`);
    const gzZip = tempFile('logs.jsonl.gz', gzipSync(minimalZip('a.json', Buffer.from('{}'))));
    assert.equal(await rejection(gzZip), `${gzZip} is gzip-compressed, but holds a zip archive, not a JSONL trace`);
  });

  it('streams gzip content: the same line spans as the plain file, ranges read at content offsets', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ id: `e${i}`, pad: 'x'.repeat(i % 97) }));
    const text = lines.join('\r\n') + '\n';
    const plain = tempFile('t.jsonl', text);
    const gz = tempFile('t.jsonl.gz', gzipSync(text));
    const spans = async (p: string) => {
      const out: string[] = [];
      await scanLines(p, (s, b) => out.push(`${s.line}:${s.offset}:${s.length}:${s.crlf}:${b?.toString()}`), { chunkSize: 4096 });
      return out;
    };
    const [a, b] = [await spans(plain), await spans(gz)];
    assert.equal(a.length, 3000);
    assert.deepEqual(b, a);
    const at = text.indexOf('"e2500"');
    assert.equal((await readRange(gz, at, 7)).toString(), '"e2500"');
    assert.equal(await readText(gz), text);
    assert.equal(await readText(gz, 100), null);
    assert.equal(await probeFile(gz), 'gzip');
    assert.equal(await probeFile(plain), null);
  });

  it('reads ranges far into a .gz from one decompressed copy, and sees the file change', async () => {
    const big = (tag: string) => Array.from({ length: 80000 }, (_, i) => JSON.stringify({ id: `${tag}${i}`, pad: 'y'.repeat(20) })).join('\n') + '\n';
    const text = big('e');
    const gz = tempFile('far.jsonl.gz', gzipSync(text));
    for (const needle of ['"e79999"', '"e40000"', '"e60000"']) {
      const at = text.indexOf(needle);
      assert.ok(at > 1 << 20);
      assert.equal((await readRange(gz, at, needle.length)).toString(), needle);
    }
    const changed = big('changed-');
    writeFileSync(gz, gzipSync(changed));
    const at = changed.indexOf('"changed-79999"');
    assert.equal((await readRange(gz, at, 15)).toString(), '"changed-79999"');
  });

  it('reports progress of a .gz against its decompressed size', async () => {
    const text = Array.from({ length: 20000 }, (_, i) => JSON.stringify({ id: `e${i}`, n: i })).join('\n') + '\n';
    const gz = tempFile('p.jsonl.gz', gzipSync(text));
    const seen: [number, number][] = [];
    await loadTrace(gz, { chunkSize: 64 * 1024, onProgress: (n, total) => seen.push([n, total]) });
    assert.ok(seen.length > 1);
    assert.deepEqual(seen[seen.length - 1], [Buffer.byteLength(text), Buffer.byteLength(text)]);
    for (const [n, total] of seen) assert.ok(n <= total, `${n} of ${total}`);
  });

  it('reads a truncated .gz up to the cut and says where it ends, as an error on its last line', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `{"id":"e${i}","r":"${randomBytes(8).toString('hex')}"}`);
    const full = gzipSync(lines.join('\n') + '\n');
    const cut = tempFile('cut.jsonl.gz', full.subarray(0, full.length - 200));
    const m = await loadTrace(cut);
    // What the cut file still decompresses to, independently of the byte source.
    const kept = gunzipSync(full.subarray(0, full.length - 200), { finishFlush: zlibConstants.Z_SYNC_FLUSH }).toString();
    const keptLines = kept.split('\n');
    assert.ok(keptLines.length > 4000 && keptLines.length < 5000, `${keptLines.length} lines survive the cut`);
    assert.equal(m.lineCount, keptLines.length);
    const last = m.diagnostics.filter((d) => d.rule === 'parse/gzip-truncated');
    assert.deepEqual(last.map((d) => [d.severity, d.line]), [['error', keptLines.length]]);
    assert.match(last[0].message, /gzip data ends early .*the file ends after line \d+, which may be cut/);
    // Every complete line before the cut is an event.
    assert.ok(m.events.size >= keptLines.length - 1);
    const corrupt = Buffer.from(full);
    corrupt.fill(0x55, 100, 400);
    await assert.rejects(loadTrace(tempFile('bad.jsonl.gz', corrupt)), /gzip data is corrupt/);
  });
});
