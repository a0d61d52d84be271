import { strict as assert } from 'node:assert';
import { scanLines, LineSpan, readSpan } from '../../src/core/lineIndexer';
import { tempFile } from '../helpers/tmp';
import { isUtf8 } from 'node:buffer';
import { lineByteFindings } from '../../src/core/lineFindings';

async function scanAll(content: string | Buffer, opts: { chunkSize?: number; maxLineBytes?: number } = {}) {
  const path = tempFile('t.jsonl', content);
  const lines: { span: LineSpan; text: string | null }[] = [];
  const result = await scanLines(path, (span, bytes) => lines.push({ span, text: bytes ? bytes.toString('utf8') : null }), opts);
  return { path, lines, result };
}

describe('line indexer', () => {
  it('indexes LF lines with byte offsets and lengths', async () => {
    const { lines, result } = await scanAll('{"a":1}\n{"b":22}\n');
    assert.equal(result.lines, 2);
    assert.deepEqual(lines.map((l) => [l.span.line, l.span.offset, l.span.length, l.span.terminated]), [[1, 0, 7, true], [2, 8, 8, true]]);
    assert.equal(lines[1].text, '{"b":22}');
  });

  it('strips CR of CRLF lines and flags them', async () => {
    const { lines } = await scanAll('{"a":1}\r\n{"b":2}\r\n');
    assert.deepEqual(lines.map((l) => [l.text, l.span.crlf, l.span.length, l.span.offset]), [['{"a":1}', true, 7, 0], ['{"b":2}', true, 7, 9]]);
  });

  it('skips a UTF-8 BOM and starts line 1 after it', async () => {
    const { lines, result } = await scanAll(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}\n')]));
    assert.equal(result.bom, true);
    assert.equal(lines[0].span.offset, 3);
    assert.equal(lines[0].text, '{"a":1}');
  });

  it('reports a last line without newline as not terminated', async () => {
    const { lines } = await scanAll('{"a":1}\n{"b":');
    assert.equal(lines.length, 2);
    assert.equal(lines[1].span.terminated, false);
    assert.equal(lines[1].text, '{"b":');
  });

  it('keeps line numbers across blank lines and tiny chunks, and multi-byte characters split between chunks', async () => {
    const content = '{"a":"é😀"}\n\n\n{"b":"ü"}\n';
    const { lines } = await scanAll(content, { chunkSize: 3 });
    assert.deepEqual(lines.map((l) => [l.span.line, l.text]), [[1, '{"a":"é😀"}'], [2, ''], [3, ''], [4, '{"b":"ü"}']]);
    assert.equal(lines[3].span.offset, Buffer.byteLength('{"a":"é😀"}\n\n\n'));
  });

  it('indexes an over-long line without handing over its bytes', async () => {
    const long = '{"x":"' + 'a'.repeat(5000) + '"}';
    const { lines } = await scanAll(`{"a":1}\n${long}\n{"b":2}\n`, { maxLineBytes: 1000, chunkSize: 512 });
    assert.equal(lines[1].text, null);
    assert.equal(lines[1].span.length, long.length);
    assert.equal(lines[2].text, '{"b":2}');
    assert.equal(lines[2].span.line, 3);
  });

  it('re-reads one line exactly from its span', async () => {
    const { path, lines } = await scanAll('{"a":1}\n{"b":"xyz"}\n');
    assert.equal((await readSpan(path, lines[1].span.offset, lines[1].span.length)).toString(), '{"b":"xyz"}');
  });

  it('reads only what was appended when given a start offset', async () => {
    const { path } = await scanAll('{"a":1}\n{"b":2}\n');
    const seen: number[] = [];
    await scanLines(path, (span) => seen.push(span.line), { startOffset: 8, startLine: 2 });
    assert.deepEqual(seen, [2]);
  });

  it('stops when cancelled', async () => {
    const { path } = await scanAll('{"a":1}\n'.repeat(1000));
    let n = 0;
    const r = await scanLines(path, () => n++, { chunkSize: 64, isCancelled: () => n > 10 });
    assert.equal(r.cancelled, true);
    assert.ok(n < 1000);
  });

  it('says a line is valid UTF-8 only when it is, checked once per chunk: split characters, bad bytes, CR, CRLF, long lines', async () => {
    // A deterministic mix: ASCII, two- to four-byte characters, lone continuation bytes, truncated sequences,
    // overlong forms, CR, CRLF and long lines, so lines and characters fall across every chunk boundary.
    let x = 99;
    const next = (n: number) => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) % n);
    const pieces = [Buffer.from('{"a":1}'), Buffer.from('é'), Buffer.from('😀'), Buffer.from('中文'), Buffer.from([0x80]), Buffer.from([0xe2, 0x82]), Buffer.from([0xc0, 0xaf]), Buffer.from([0xff]), Buffer.from('x'.repeat(700))];
    const breaks = ['\n', '\n', '\n', '\r\n', '\r'];
    const parts: Buffer[] = [];
    for (let i = 0; i < 3000; i++) {
      parts.push(pieces[next(pieces.length)]);
      if (next(3) === 0) parts.push(Buffer.from(breaks[next(breaks.length)]));
    }
    const content = Buffer.concat(parts);
    const path = tempFile('utf8.jsonl', content);
    for (const chunkSize of [7, 64, 1000, 4096, 1 << 20]) {
      let said = 0;
      let valid = 0;
      await scanLines(path, (span, bytes, utf8) => {
        if (bytes === null) return;
        if (isUtf8(bytes)) valid++;
        if (utf8) {
          said++;
          assert.ok(isUtf8(bytes), `line ${span.line} (chunks of ${chunkSize}) said valid`);
        }
        // The findings are the ones the line's own check gives.
        assert.deepEqual(lineByteFindings(span, bytes, utf8), lineByteFindings(span, bytes, false), `line ${span.line}`);
      }, { chunkSize, maxLineBytes: 1 << 20 });
      assert.ok(valid > 100 && said <= valid, `${valid} valid lines, ${said} known without their own check`);
    }
    // All valid: in one chunk, every line but the last (unterminated) one is known valid.
    const clean = Buffer.from(Array.from({ length: 500 }, (_, i) => `{"i":${i},"s":"é😀中"}`).join('\n') + '\n{"end":1}');
    const seen: boolean[] = [];
    await scanLines(tempFile('clean.jsonl', clean), (_span, _bytes, utf8) => seen.push(utf8));
    assert.deepEqual([seen.length, seen.filter((u) => u).length], [501, 500]);
  });
});

