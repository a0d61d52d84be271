import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, tempFile } from '../helpers/tmp';
import { corpusPath } from '../helpers/corpus';
import { requireBuiltCli, runCli as cli } from '../helpers/cli';

const OTLP_DOC = corpusPath('other/otlp/trace.json');

describe('agent-trace verify|check DIR with .json files', () => {
  let dir = '';
  before(function () {
    requireBuiltCli();
    dir = tempDir();
    tempFile('otel/trace.json', readFileSync(OTLP_DOC), dir);
    tempFile('package.json', '{"name":"x","version":"1.0.0"}\n', dir);
    tempFile('tsconfig.json', '{"compilerOptions":{}}\n', dir);
    tempFile('README.md', '# x\n', dir);
  });

  it('verifies the .json trace and says, one line per reason, what it skipped', () => {
    const r = cli('verify', dir);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /otel\/trace\.json: otlp: intact/);
    assert.doesNotMatch(r.out, /package\.json:/);
    const skipped = r.out.split('\n').filter((l) => l.startsWith('skipped'));
    assert.deepEqual(skipped.map((l) => l.replace(/ \(.*$/, '')), [
      'skipped 2 files: .json files that no trace format recognises with confidence',
      'skipped 1 file: files not named as traces: not .jsonl, .ndjson, .json or one of those gzipped',
    ]);
  });

  it('keeps --json an array of per-file objects on stdout and says the skipped files on stderr', () => {
    for (const cmd of ['verify', 'check']) {
      const r = cli(cmd, '--json', dir);
      assert.equal(r.code, 0, `${cmd}: ${r.err}`);
      const j = JSON.parse(r.out);
      assert.ok(Array.isArray(j));
      assert.deepEqual(j.map((o: { format: string; file: string }) => [o.format, o.file]), [['otlp', join(dir, 'otel/trace.json')]]);
      assert.deepEqual(Object.keys(j[0]), ['format', 'ok', 'checked', 'findings', 'file']);
      assert.match(r.err, /^skipped 2 files: \.json files that no trace format recognises with confidence \(.*package\.json/m);
    }
    const sarif = cli('check', '--sarif', dir);
    assert.equal(JSON.parse(sarif.out).version, '2.1.0');
    assert.match(sarif.err, /^skipped 2 files/m);
  });

  it('exits 2 naming what it skipped when a directory holds no trace', () => {
    const empty = tempDir();
    tempFile('package.json', '{"name":"x"}\n', empty);
    const r = cli('verify', empty);
    assert.equal(r.code, 2);
    assert.equal(r.out, '');
    assert.match(r.err, /^skipped 1 file: \.json files that no trace format recognises with confidence \(.*package\.json\)\nagent-trace: .*: no trace files found\n$/);
  });
});
