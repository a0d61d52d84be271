import { strict as assert } from 'node:assert';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expandTraceArgs } from '../../src/core/traceFiles';
import { loadTrace } from '../../src/core/loadTrace';
import { summarize } from '../../src/core/summary';
import { runChecks } from '../../src/core/formatRules';
import { treeJson } from '../../src/cli/treeJson';
import { tempDir } from '../helpers/tmp';
import { CORPUS_ROOT } from '../helpers/corpus';

const CORPORA = { shared: CORPUS_ROOT, writers: join(__dirname, '../corpus') };

/** Everything the CLI prints for a file with --json, minus the `file` field (which names the .gz). */
async function outputs(path: string): Promise<string> {
  const model = await loadTrace(path);
  const verify = await runChecks(model, 'verify');
  const check = await runChecks(await loadTrace(path), 'check');
  const strip = <T extends { file: string }>(x: T): Omit<T, 'file'> => {
    const { file: _file, ...rest } = x;
    return rest;
  };
  // The usage explanation names each file summed by its path, which is the .gz one for the compressed copy.
  const summary = strip(summarize(model));
  summary.usage.explain.files = summary.usage.explain.files.map((f) => ({ ...f, file: f.file.replace(/\.gz$/, '') }));
  return JSON.stringify({ summary, tree: treeJson(model), verify: strip(verify), check: strip(check) }, null, 1);
}

describe('gzip-compressed traces', () => {
  let files: string[] = [];
  let root = '';
  before(async function () {
    // A copy of the whole corpus with every trace gzipped beside its original, so blob stores, sibling
    // session files and `.lumen/trace/` folders are where each format looks for them.
    const dir = tempDir('atv-gz-');
    for (const [name, src] of Object.entries(CORPORA)) cpSync(src, join(dir, name), { recursive: true });
    root = dir;
    files = await expandTraceArgs([dir]);
    for (const f of files) writeFileSync(f + '.gz', gzipSync(readFileSync(f)));
  });

  it('gives the same summary, tree, verify and check JSON as the uncompressed file, for every corpus file', async function () {
    assert.ok(files.length >= 60, `corpus has ${files.length} trace files`);
    const differ: string[] = [];
    for (const f of files) {
      const [plain, gz] = [await outputs(f), await outputs(f + '.gz')];
      if (plain !== gz) differ.push(relative(root, f));
    }
    assert.deepEqual(differ, []);
  });

  it('reads a file with gzip magic whatever its name, with the same lines', async () => {
    const dir = tempDir();
    const text = '{"id":"a","type":"run"}\nnot json\n{"id":"b","parent_id":"a","type":"step"}\n';
    const p = join(dir, 'renamed.jsonl');
    writeFileSync(p, gzipSync(text));
    const m = await loadTrace(p);
    assert.equal(m.compression, 'gzip');
    assert.deepEqual(treeJson(m).nodes.map((n) => [n.line, n.id, n.parentLine]), [[1, 'a', null], [3, 'b', 1]]);
    assert.deepEqual(m.diagnostics.map((d) => [d.rule, d.line]), [['parse/invalid-json', 2]]);
  });
});
