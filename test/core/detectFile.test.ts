import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { detectFile } from '../../src/core/detectFile';
import { sampleBaseOf } from '../../src/core/jsonlReading';
import { loadTrace } from '../../src/core/loadTrace';
import { TraceBlobs } from '../../src/viewer/blobResolver';
import { CORPUS_ROOT, corpusPath, traceFilesUnder, WRITER_CORPUS } from '../helpers/corpus';
import { tempDir, tempFile } from '../helpers/tmp';

/** The one sniffer: a file's format is what loading it says, asked by the loader, the directory walk and the blob callers alike. */
describe('detectFile: the one sniffer of a file', () => {
  const files = [...traceFilesUnder(CORPUS_ROOT), ...traceFilesUnder(WRITER_CORPUS), ...traceFilesUnder(resolve('samples'))];

  it(`detects every corpus and sample file (${files.length}) as loading it does`, async () => {
    assert.ok(files.length > 100);
    for (const f of files) assert.deepEqual(await detectFile(f), (await loadTrace(f)).detection, f);
  });

  it('names a file once for every detection: a .gz by its content name, Windows separators as /', () => {
    assert.deepEqual(sampleBaseOf('runs/ses_1/trace.jsonl.gz'), { fileName: 'trace.jsonl', path: 'runs/ses_1/trace.jsonl' });
    assert.deepEqual(sampleBaseOf('C:\\runs\\a.jsonl').path, 'C:/runs/a.jsonl');
  });

  it('sees a trace whose first line is longer than 64 KiB, and a gzip trace, as the viewer does', async () => {
    const lines = readFileSync(corpusPath('harness-ledger', 'tool-failed.jsonl'), 'utf8').split('\n');
    const first = JSON.parse(lines[0]) as Record<string, unknown>;
    const long = [JSON.stringify({ ...first, note: 'x'.repeat(80 * 1024) }), ...lines.slice(1)].join('\n');
    const dir = tempDir();
    for (const f of [tempFile('long.jsonl', long, dir), tempFile('t.jsonl.gz', gzipSync(long), dir)]) {
      const loaded = (await loadTrace(f)).detection;
      assert.equal(loaded.format, 'harness-ledger');
      assert.deepEqual(await detectFile(f), loaded, f);
    }
  });

  it('gives the blob resolver the format when the trace is not open', async () => {
    const trace = join(CORPUS_ROOT, 'murmur');
    const blobs = new TraceBlobs(() => ({ extraRoots: [], workspaceFolders: [] }));
    const file = traceFilesUnder(trace).find((f) => f.endsWith('trace.jsonl'))!;
    const { store } = await blobs.resolve(file, undefined, '0'.repeat(64), 'sha256');
    assert.ok(store.roots.length > 0, 'a murmur store: the format was detected as murmur');
  });
});
