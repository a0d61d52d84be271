import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runChecks } from '../../../src/core/formatRules';
import { loadTrace, LoadOptions } from '../../../src/core/loadTrace';
import { expandTraceFiles } from '../../../src/core/traceFiles';
import { shownPath } from '../../../src/core/tracePath';
import { CORPUS_ROOT, WRITER_CORPUS } from '../../helpers/corpus';
import { modelDigest } from '../../helpers/modelDigest';
import { tempDir, tempFile } from '../../helpers/tmp';
import { generateLumenTrace } from '../../bench/lumenBench';
import { planPieces } from '../../../src/core/parallel/parallelRead';

const SAMPLES = resolve(__dirname, '..', '..', '..', 'samples');

/** Workers on every file, however small, with a tiny head, so most lines of a corpus file go through them. */
const PARALLEL = (workers: number): LoadOptions => ({ workers, parallelMinBytes: 0, parallelHeadChunk: 256 });

/** Model, verify and check results of one read, as plain data. */
async function everything(path: string, options: LoadOptions): Promise<unknown> {
  const model = await loadTrace(path, options);
  const verify = await runChecks(model, 'verify');
  const check = await runChecks(model, 'check');
  return { model: modelDigest(model), verify, check };
}

describe('reading on worker threads gives the model of one thread', function () {
  this.timeout(300_000);

  it('on every corpus file and sample: events, parents, findings, verify and check results', async () => {
    const { files } = await expandTraceFiles([CORPUS_ROOT, WRITER_CORPUS, SAMPLES]);
    assert.ok(files.length > 60, `${files.length} files`);
    for (const file of files) {
      const path = shownPath(file);
      const one = await everything(path, { workers: 0 });
      assert.deepStrictEqual(await everything(path, PARALLEL(1)), one, `${path}: 1 worker`);
      assert.deepStrictEqual(await everything(path, PARALLEL(3)), one, `${path}: 3 workers`);
    }
  });

  it('on a lumen trace with CRLF and lone-CR breaks, blank, torn, non-object and invalid-UTF-8 lines and a BOM', async () => {
    const dir = join(tempDir('atv-par-'), '.lumen', 'trace');
    const clean = join(dir, '0f3e6c1a-7b2d-4e59-9a41-5c8d2e7f1b30.jsonl');
    require('node:fs').mkdirSync(dir, { recursive: true });
    await generateLumenTrace(clean, { targetBytes: 200_000 });
    const lines = readFileSync(clean, 'latin1').split('\n');
    const damaged = lines.map((l, i) => {
      if (i === 40) return l + '\r';
      if (i === 90) return '';
      if (i === 130) return l.slice(0, 50);
      if (i === 170) return '[1,2,3]';
      if (i === 210) return l.replace('"cell"', '"c\xff\xfell"');
      if (i === 250) return l + '\r' + lines[i];
      if (i === 300) return '"just a string"';
      return l;
    });
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(damaged.join('\n'), 'latin1')]);
    const path = tempFile('0f3e6c1a-7b2d-4e59-9a41-5c8d2e7f1b30.jsonl', bytes, dir);
    const one = await everything(path, { workers: 0 });
    const digest = (one as { model: { diagnostics: { rule: string }[] } }).model;
    // The damage is seen (so the comparison below compares something).
    for (const rule of ['parse/bom', 'parse/invalid-json', 'parse/invalid-utf8', 'parse/lone-cr']) assert.ok(digest.diagnostics.some((d) => d.rule === rule), rule);
    for (const workers of [1, 2, 4]) assert.deepStrictEqual(await everything(path, PARALLEL(workers)), one, `${workers} workers`);
    // The default head (16 KiB) and the default size floor: the same.
    assert.deepStrictEqual(await everything(path, { workers: 2, parallelMinBytes: 0 }), one);
  });

  it('reads a format chosen with --format (no detection head) in workers from the first byte', async () => {
    const dir = join(tempDir('atv-par-'), '.lumen', 'trace');
    require('node:fs').mkdirSync(dir, { recursive: true });
    const path = join(dir, '0f3e6c1a-7b2d-4e59-9a41-5c8d2e7f1b30.jsonl');
    await generateLumenTrace(path, { targetBytes: 100_000 });
    const one = await everything(path, { workers: 0, format: 'lumen' });
    assert.deepStrictEqual(await everything(path, { ...PARALLEL(2), format: 'lumen' }), one);
  });

  it('splits a read into rounds of pieces, this thread first, each cut after a line feed, shares as asked', async () => {
    const dir = join(tempDir('atv-par-'), '.lumen', 'trace');
    require('node:fs').mkdirSync(dir, { recursive: true });
    const path = join(dir, '0f3e6c1a-7b2d-4e59-9a41-5c8d2e7f1b30.jsonl');
    await generateLumenTrace(path, { targetBytes: 2_000_000 });
    const bytes = readFileSync(path);
    const start = bytes.indexOf(10) + 1;
    for (const [workers, share] of [[1, 0.4], [2, 0.2], [3, 0], [1, 0.9]]) {
      const pieces = await planPieces(path, start, bytes.length, workers, share, 200_000);
      // Contiguous, cut after line feeds, in rounds of this thread's piece then each worker's.
      assert.equal(pieces[0].start, start);
      assert.equal(pieces[pieces.length - 1].end, bytes.length);
      pieces.forEach((p, i) => {
        assert.ok(p.end > p.start);
        if (i > 0) assert.equal(p.start, pieces[i - 1].end);
        assert.equal(bytes[p.start - 1], 10, `piece ${i} starts after a line feed`);
        const order = share > 0 ? [-1, ...Array.from({ length: workers }, (_, k) => k)] : Array.from({ length: workers }, (_, k) => k);
        assert.equal(p.worker, order[i % order.length], `piece ${i} of ${workers} workers, share ${share}`);
      });
      assert.equal(pieces.length, 10 * (workers + (share > 0 ? 1 : 0)));
      const mine = pieces.filter((p) => p.worker < 0).reduce((n, p) => n + p.end - p.start, 0);
      assert.ok(Math.abs(mine / (bytes.length - start) - share) < 0.02, `share ${share}: ${mine}`);
    }
    // Many rounds, 1 and 2 workers: the model of one thread.
    const one = await everything(path, { workers: 0 });
    for (const workers of [1, 2]) assert.deepStrictEqual(await everything(path, { ...PARALLEL(workers), parallelRoundBytes: 150_000 }), one, `${workers} workers, rounds of 150 kB`);
  });
});
