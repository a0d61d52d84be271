import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { loadTrace } from '../../src/core/loadTrace';
import { tempDir, tempFile } from '../helpers/tmp';
import { runCliInProcess as runCli } from '../helpers/cliInProcess';

/** Real traces, one event a line: a lumen run, a murmur session, a Claude Code session. */
const REAL = [
  'samples/lumen/.lumen/trace/58176a1a-9fa5-4945-a4b8-3fa6c7c2f5b6.jsonl',
  'samples/murmur/ses_583584f8e94410c93669237ac44d5d21/trace.jsonl',
  'samples/claude-code/921f39d1-40c5-4a48-826b-c8319e0f40bc.jsonl',
];
const BLOCK = 4096;

/** The 1-based numbers of the lines of `bytes` (split on `\n`) that the byte range [from, to) touches. */
function touched(bytes: Buffer, from: number, to: number): { untouched: number; total: number } {
  let start = 0;
  let untouched = 0;
  let total = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(10, start);
    if (end < 0) end = bytes.length;
    total++;
    if (end < from || start >= to) untouched++;
    start = end + 1;
  }
  return { untouched, total };
}

describe('crash-damaged input: a zeroed block loses only its lines', () => {
  for (const src of REAL) {
    for (const where of ['start', 'middle', 'end'] as const) {
      it(`${src.split('/')[1]}: a zeroed 4 KiB block at the ${where} shows every line outside it and flags the damaged line`, async () => {
        const b = readFileSync(src);
        const at = where === 'start' ? 0 : where === 'middle' ? Math.floor(b.length / 2 / BLOCK) * BLOCK : b.length - BLOCK;
        const damaged = Buffer.from(b);
        damaged.fill(0, at, at + BLOCK);
        const file = tempFile(src.split('/').pop()!, damaged);
        const model = await loadTrace(file);
        const { untouched } = touched(b, at, at + BLOCK);
        assert.equal(model.events.size, untouched, 'every line outside the block is an event');
        // The block's lines run together into one line (NUL is no line break): that line is flagged, and only it.
        const zeroed = model.diagnostics.filter((d) => d.rule === 'parse/zeroed-bytes');
        assert.equal(zeroed.length, 1, JSON.stringify(model.diagnostics));
        assert.deepEqual(model.malformed.map((m) => m.line), [zeroed[0].line]);
        assert.match(zeroed[0].message, /zeroed bytes? \(NUL\).*as a crash leaves them/);
        for (const cmd of ['summary', 'tree', 'verify', 'check']) {
          const r = await runCli(cmd, '--json', file);
          assert.ok(r.code === 0 || r.code === 1, `${cmd} exit ${r.code}: ${r.err}`);
          assert.doesNotMatch(r.err, /binary data/);
        }
        const v = await runCli('verify', file);
        assert.equal(v.code, 1, v.out);
        assert.match(v.out, new RegExp(`line ${zeroed[0].line}: error parse/zeroed-bytes`));
        if (where === 'end') assert.match(v.out, /broken at line \d+ \(\d+ errors?\); the file lost its end/);
      });
    }
  }

  it('a finished lumen run whose last 4 KiB were zeroed does not verify: an error, not a torn tail', async () => {
    const b = readFileSync(REAL[0]);
    const damaged = Buffer.from(b);
    damaged.fill(0, b.length - BLOCK);
    const file = tempFile('run.jsonl', damaged);
    const r = await runCli('verify', '--json', file);
    assert.equal(r.code, 1, r.out);
    const j = JSON.parse(r.out) as { ok: boolean; findings: { rule: string; severity: string; line: number; message: string }[] };
    assert.equal(j.ok, false);
    assert.ok(!j.findings.some((f) => f.rule === 'parse/torn-tail'), JSON.stringify(j.findings));
    const z = j.findings.find((f) => f.rule === 'parse/zeroed-bytes');
    assert.ok(z && z.severity === 'error' && /lost its end/.test(z.message), JSON.stringify(j.findings));
  });

  it('a zeroed tail after the last newline (its own line) is an error too', async () => {
    const b = readFileSync(REAL[0]);
    const file = tempFile('run.jsonl', Buffer.concat([b, Buffer.alloc(BLOCK)]));
    const r = await runCli('verify', file);
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /error parse\/zeroed-bytes: The file ends in 4096 zeroed bytes \(NUL\), as a crash leaves them: the file lost its end/);
    assert.match(r.out, /the file lost its end \(zeroed by a crash\)/);
  });

  it('a torn tail without NUL bytes is still a write in progress (a warning)', async () => {
    const b = readFileSync(REAL[0]);
    const file = tempFile('run.jsonl', b.subarray(0, b.length - 40));
    const r = await runCli('verify', '--json', file);
    const j = JSON.parse(r.out) as { findings: { rule: string }[] };
    assert.ok(j.findings.some((f) => f.rule === 'parse/torn-tail'));
    assert.ok(!j.findings.some((f) => f.rule === 'parse/zeroed-bytes'));
  });

  it('one NUL byte in the first KB opens the trace with that line flagged, in a .gz too', async () => {
    const b = Buffer.from(readFileSync(REAL[1]));
    b[100] = 0;
    const dir = tempDir();
    for (const file of [tempFile('trace.jsonl', b, dir), tempFile('trace.jsonl.gz', gzipSync(b), dir)]) {
      const r = await runCli('summary', '--json', file);
      assert.equal(r.err, '');
      const model = await loadTrace(file);
      assert.equal(model.events.size, 22);
      const z = model.diagnostics.filter((d) => d.rule === 'parse/zeroed-bytes');
      assert.deepEqual(z.map((d) => d.line), [1]);
      assert.match(z[0].message, /1 zeroed byte \(NUL\) at byte 100 of the line/);
    }
  });

  it('still refuses what is not text: a file mostly of control bytes, random bytes after a zeroed block', async () => {
    const control = tempFile('ctl.jsonl', Buffer.from(Array.from({ length: 2048 }, (_, i) => (i % 7) + 1)));
    const r = await runCli('summary', control);
    assert.equal(r.code, 2);
    assert.match(r.err, /is binary data, not a JSONL trace/);
    const noise = Buffer.alloc(8192);
    for (let i = BLOCK; i < noise.length; i++) noise[i] = (i * 7919) % 251;
    const zeroedThenNoise = tempFile('noise.jsonl', noise);
    const n = await runCli('summary', zeroedThenNoise);
    assert.equal(n.code, 2, n.out);
    assert.match(n.err, /is binary data, not a JSONL trace/);
  });
});
