import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { detectFile, isConfidentTrace } from '../../src/core/detectFile';
import { expandTraceFiles } from '../../src/core/traceFiles';
import { tempDir, tempFile } from '../helpers/tmp';
import { minimalZip } from '../helpers/binaryFiles';
import { CORPUS_ROOT } from '../helpers/corpus';

const SHARED = CORPUS_ROOT;
const OTLP_DOC = join(SHARED, 'other/otlp/trace.json');
const HARNESS = join(SHARED, 'harness-ledger/tool-failed.jsonl');
const OTEL_JS = join(__dirname, '../corpus/otel-js-2.12.1/otlp-traces.json');

describe('trace files of a directory', () => {
  it('detects a .json OTLP export with confidence, and not package.json', async () => {
    const otlp = await detectFile(OTLP_DOC);
    assert.equal(otlp.format, 'otlp');
    assert.ok(isConfidentTrace(otlp));
    const pkg = await detectFile(join(__dirname, '../../package.json'));
    assert.equal(pkg.format, 'generic');
    assert.equal(isConfidentTrace(pkg), false);
  });

  it('takes .json files that are traces, skips the others and says why, with counts', async () => {
    const dir = tempDir();
    const put = (name: string, bytes: string | Buffer) => tempFile(name, bytes, dir);
    const want = [
      put('exports/trace.json', readFileSync(OTLP_DOC)),
      put('exports/spans.json.gz', gzipSync(readFileSync(OTEL_JS))),
      put('runs/tool-failed.jsonl', readFileSync(HARNESS)),
      put('runs/old.jsonl.gz', gzipSync(readFileSync(HARNESS))),
      put('any.ndjson', '{"id":"a"}\n'),
    ];
    put('package.json', readFileSync(join(__dirname, '../../package.json')));
    put('conf/settings.json', '{"editor.fontSize": 14}\n');
    put('conf/list.json', '[1, 2, 3]\n');
    put('export.json', minimalZip('a.json', Buffer.from('{}')));
    put('notes.md', '# notes\n');
    put('archive.tar.gz', gzipSync('x'));
    put('blobs/sha256/abc.json', '{"not":"walked"}');
    const r = await expandTraceFiles([dir]);
    assert.deepEqual(r.files, want.sort());
    assert.deepEqual(
      r.skipped.map((s) => [s.reason, s.count, s.examples.map((e) => basename(e)).sort()]),
      [
        ['json-not-trace', 3, ['list.json', 'package.json', 'settings.json']],
        ['binary', 1, ['export.json']],
        ['other-name', 2, ['archive.tar.gz', 'notes.md']],
      ],
    );
  });

  it('takes a FILE argument as given, whatever its name or content', async () => {
    const p = tempFile('package.json', '{"name":"x"}');
    const r = await expandTraceFiles([p, 'no/such/file.jsonl']);
    assert.deepEqual(r.files, [p, 'no/such/file.jsonl']);
    assert.deepEqual(r.skipped, []);
  });
});
