import { strict as assert } from 'node:assert';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadTrace } from '../../src/core/loadTrace';
import { openTraceReader } from '../../src/core/traceReader';
import { corpusPath, WRITER_CORPUS } from '../helpers/corpus';
import { modelDigest } from '../helpers/modelDigest';
import { tempDir, tempFile } from '../helpers/tmp';
import { generateMurmurTrace } from '../bench/generateMurmur';

/** A copy path that keeps the names detection and builders read (`ses_…/trace.jsonl`, `<run id>.jsonl`). */
function copyPath(original: string): string {
  return join(tempDir('atv-reader-'), basename(dirname(original)), basename(original));
}

/** Byte offset just after the n-th line break (n ≥ 1). */
function afterLine(bytes: Buffer, n: number): number {
  let pos = -1;
  for (let k = 0; k < n; k++) pos = bytes.indexOf(10, pos + 1);
  return pos + 1;
}

const GROWING = [
  corpusPath('lumen', '.lumen', 'trace', 'ef05f773-1151-4c7a-817e-a78bf76ed21e.jsonl'),
  corpusPath('harness-ledger', 'success-approvals.jsonl'),
  corpusPath('deepstrike', 'sdk-python', '5ce9abd6-7731-43aa-8c84-1e53d53666dd.jsonl'),
  join(WRITER_CORPUS, 'claude-code-2.1.332', 'subagent', 'projects', '-home-user-project', '87aba006-238f-4834-a6fa-3396f07d36f4.jsonl'),
  'murmur',
];

/** The corpus's murmur sessions are shorter than the detection window: a generated one (the bench's writer) is used. */
async function source(name: string): Promise<string> {
  if (name !== 'murmur') return name;
  const path = join(tempDir('atv-murmur-'), 'ses_0123456789abcdef0123456789abcdef', 'trace.jsonl');
  mkdirSync(dirname(path), { recursive: true });
  await generateMurmurTrace(path, 300);
  return path;
}

describe('openTraceReader: following a growing trace', () => {
  for (const name of GROWING) {
    it(`reads ${name === 'murmur' ? 'a murmur trace' : basename(name)} written in pieces (torn lines included) as one read of the whole file`, async () => {
      const original = await source(name);
      const all = readFileSync(original);
      const path = copyPath(original);
      const first = afterLine(all, 22);
      // Cuts: mid-line (a torn tail), just before a line break, on a line start, the end.
      const secondLine = afterLine(all, 24);
      const cuts = [first + 7, secondLine - 1, secondLine, Math.floor((secondLine + all.length) / 2), all.length].filter((c, k, a) => c <= all.length && (k === 0 || c > a[k - 1]));
      tempFile(basename(path), all.subarray(0, first), dirname(path));
      const reader = await openTraceReader(path);
      let written = first;
      for (const cut of cuts) {
        const before = reader.model.events.size;
        appendFileSync(path, all.subarray(written, cut));
        written = cut;
        const r = await reader.append();
        assert.ok(r.kind === 'appended' || r.kind === 'unchanged', r.kind === 'needs-full-read' ? r.reason : '');
        if (r.kind === 'appended') assert.equal(r.firstNewEvent, before);
      }
      assert.deepStrictEqual(modelDigest(reader.model), modelDigest(await loadTrace(path)));
    });
  }

  it('follows a lumen trace first read on worker threads: appends continue the same builder', async () => {
    const original = GROWING[0];
    const all = readFileSync(original);
    const path = copyPath(original);
    const first = afterLine(all, 40) + 11;
    tempFile(basename(path), all.subarray(0, first), dirname(path));
    const reader = await openTraceReader(path, { workers: 2, parallelMinBytes: 0, parallelHeadChunk: 256 });
    appendFileSync(path, all.subarray(first));
    assert.equal((await reader.append()).kind, 'appended');
    assert.deepStrictEqual(modelDigest(reader.model), modelDigest(await loadTrace(path)));
  });

  it('reads a torn last line once when its writer completes it: the torn-tail finding goes, one event comes', async () => {
    const path = tempFile('events.jsonl', Array.from({ length: 25 }, (_, i) => `{"id":"e${i}","parent_id":${i ? `"e${i - 1}"` : 'null'}}\n`).join('') + '{"id":"e25","par');
    const reader = await openTraceReader(path);
    assert.equal(reader.model.events.size, 25);
    assert.deepEqual(reader.model.diagnostics.map((d) => [d.rule, d.line]), [['parse/torn-tail', 26]]);
    appendFileSync(path, 'ent_id":"e24"}\n');
    const r = await reader.append();
    assert.equal(r.kind, 'appended');
    assert.equal(reader.model.events.size, 26);
    assert.deepEqual(reader.model.diagnostics, []);
    assert.equal(reader.model.events.parent(25), 24);
    assert.equal(reader.model.malformed.length, 0);
    assert.deepStrictEqual(modelDigest(reader.model), modelDigest(await loadTrace(path)));
  });

  it('says unchanged when nothing was written, and needs-full-read after a truncation or a rewrite', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `{"id":"e${i}"}\n`).join('');
    const path = tempFile('events.jsonl', lines);
    const reader = await openTraceReader(path);
    assert.equal((await reader.append()).kind, 'unchanged');
    writeFileSync(path, lines.replace('"e3"', '"x3"'));
    const rewritten = await reader.append();
    assert.deepEqual(rewritten, { kind: 'needs-full-read', reason: 'the file was rewritten' });
    const again = await openTraceReader(path);
    writeFileSync(path, lines.slice(0, 40));
    assert.deepEqual(await again.append(), { kind: 'needs-full-read', reason: 'the file was truncated' });
    // Once the file is not what was read, later appends say so too (the kept state is stale).
    appendFileSync(path, lines);
    assert.equal((await again.append()).kind, 'needs-full-read');
  });

  it('says needs-full-read when a complete last line without a line break is written on', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `{"id":"e${i}"}`).join('\n');
    const path = tempFile('events.jsonl', lines);
    const reader = await openTraceReader(path);
    assert.equal(reader.model.events.size, 30);
    appendFileSync(path, '{"id":"glued"}\n');
    assert.deepEqual(await reader.append(), { kind: 'needs-full-read', reason: 'the last line, already read, was written on' });
  });

  it('says needs-full-read for a gzip trace and for a file too short to be sure of its format', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `{"id":"e${i}"}\n`).join('');
    const gz = await openTraceReader(tempFile('events.jsonl.gz', gzipSync(lines)));
    assert.deepEqual(await gz.append(), { kind: 'needs-full-read', reason: 'a compressed trace is read again whole' });
    const short = await openTraceReader(tempFile('events.jsonl', '{"id":"a"}\n'));
    assert.equal((await short.append()).kind, 'needs-full-read');
  });
});

describe('loadTrace early pages', () => {
  it('hands over a partial model of the first events once, in the same pass, and the full model after', async () => {
    const original = corpusPath('lumen', '.lumen', 'trace', 'ef05f773-1151-4c7a-817e-a78bf76ed21e.jsonl');
    const early: { size: number; partial: boolean; roots: number; kinds: string[] }[] = [];
    const full = await loadTrace(original, {
      chunkSize: 4096, earlyBytes: 8000,
      onEarlyModel: (m) => early.push({ size: m.events.size, partial: m.partial, roots: m.tree.roots.length, kinds: Array.from({ length: m.events.size }, (_, i) => m.events.kindOf(i)) }),
    });
    assert.equal(early.length, 1);
    assert.equal(early[0].partial, true);
    assert.ok(early[0].size > 0 && early[0].size < full.events.size, `${early[0].size} of ${full.events.size}`);
    assert.deepEqual(early[0].kinds, Array.from({ length: early[0].size }, (_, i) => full.events.kindOf(i)));
    assert.equal(early[0].roots, 1);
    assert.deepStrictEqual(modelDigest(full), modelDigest(await loadTrace(original)));
  });
});
