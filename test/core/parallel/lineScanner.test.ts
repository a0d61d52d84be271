import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runChecks } from '../../../src/core/formatRules';
import { loadTrace, LoadOptions } from '../../../src/core/loadTrace';
import { streamChecks } from '../../../src/core/stream/streamChecks';
import { expandTraceFiles } from '../../../src/core/traceFiles';
import { shownPath } from '../../../src/core/tracePath';
import { lumenFormat } from '../../../src/core/formats/lumen/module';
import type { FormatModule } from '../../../src/core/format';
import { corpusPath } from '../../helpers/corpus';
import { modelDigest } from '../../helpers/modelDigest';
import { tempDir } from '../../helpers/tmp';
import { generateLumenTrace } from '../../bench/lumenBench';
import { EDITS, rng } from '../formats/lumen/lumenEdits';


const SAMPLES = resolve(__dirname, '..', '..', '..', 'samples');

/** Runs `fn` with lumen's line scanner taken away, so every line is read with JSON.parse as before it existed. */
async function withoutScanner<T>(fn: () => Promise<T>): Promise<T> {
  const module = lumenFormat as { lineScanner?: FormatModule['lineScanner'] };
  const scanner = module.lineScanner;
  module.lineScanner = undefined;
  try {
    return await fn();
  } finally {
    module.lineScanner = scanner;
  }
}

/** Model, verify and check of one read, and the streamed verify and check (with and without workers). */
async function everything(path: string, options: LoadOptions): Promise<unknown> {
  const model = await loadTrace(path, options);
  const streamed = async (mode: 'verify' | 'check') =>
    streamChecks(path, mode, { workers: options.workers ?? 0, workerMinBytes: 0, workerHeadChunk: 256 });
  return { model: modelDigest(model), verify: await runChecks(model, 'verify'), check: await runChecks(model, 'check'), streamedVerify: await streamed('verify'), streamedCheck: await streamed('check') };
}

/** A generated lumen trace with one line in eight edited (values, layout, escapes, control characters, bytes). */
async function editedTrace(): Promise<string> {
  const dir = join(tempDir('atv-scan-'), '.lumen', 'trace');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, '0f3e6c1a-7b2d-4e59-9a41-5c8d2e7f1b30.jsonl');
  await generateLumenTrace(path, { targetBytes: 400_000 });
  const r = rng(77);
  const control = [(l: string) => l.replace('"cell":"', '"cell":"\t'), (l: string) => l.replace(/}$/, ',"message":"a\u0001b"}')];
  const lines = readFileSync(path, 'utf8').split('\n').map((l, i) => {
    if (i < 30 || l === '' || r() > 1 / 8) return l;
    const edits = [...EDITS, ...control];
    return edits[Math.floor(r() * edits.length)](l, r);
  });
  writeFileSync(path, lines.join('\n'));
  return path;
}

describe('a format\'s line scanner reads to what JSON.parse reads', function () {
  this.timeout(600_000);

  it('lumen: the same models, verify and check results in workers, on every lumen file and an edited trace', async () => {
    const { files } = await expandTraceFiles([corpusPath('lumen'), join(SAMPLES, 'lumen'), resolve(__dirname, '..', '..', 'fixtures', 'lumen')]);
    const paths = [...files.map(shownPath), await editedTrace()];
    assert.ok(paths.length > 5, `${paths.length} files`);
    for (const path of paths) {
      for (const options of [{ workers: 1, parallelMinBytes: 0, parallelHeadChunk: 256 }, { workers: 2, parallelMinBytes: 0, parallelHeadChunk: 256, parallelRoundBytes: 64 * 1024 }] as LoadOptions[]) {
        const parsed = await withoutScanner(() => everything(path, options));
        assert.deepStrictEqual(await everything(path, options), parsed, `${path}, ${options.workers} workers`);
      }
    }
  });
});
