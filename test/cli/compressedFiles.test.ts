import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { tempDir, tempFile } from '../helpers/tmp';
import { minimalZip, PNG_HEAD } from '../helpers/binaryFiles';
import { corpusPath } from '../helpers/corpus';
import { requireBuiltCli, runCli as cli } from '../helpers/cli';

const HARNESS = corpusPath('harness-ledger/tool-failed.jsonl');

describe('agent-trace on compressed and binary files', () => {
  before(requireBuiltCli);

  it('verifies and checks file.jsonl.gz with the exit code and JSON of the plain file', () => {
    const dir = tempDir();
    const plain = tempFile('tool-failed.jsonl', readFileSync(HARNESS), dir);
    const gz = tempFile('tool-failed.jsonl.gz', gzipSync(readFileSync(HARNESS)), dir);
    for (const cmd of ['summary', 'tree', 'verify', 'check']) {
      const [a, b] = [cli(cmd, '--json', plain), cli(cmd, '--json', gz)];
      assert.equal(b.code, a.code, cmd);
      assert.equal(b.err, '', cmd);
      const strip = (s: string) => s.split(gz).join('FILE').split(plain).join('FILE');
      assert.equal(strip(b.out), strip(a.out), cmd);
    }
    assert.match(cli('verify', gz).out, /tool-failed\.jsonl\.gz: harness-ledger: intact/);
  });

  it('finds a cut .gz at its last line: exit 1, not unreadable', () => {
    const full = gzipSync(readFileSync(HARNESS));
    const cut = tempFile('tool-failed.jsonl.gz', full.subarray(0, Math.floor(full.length * 0.6)));
    const r = cli('verify', '--json', cut);
    assert.equal(r.code, 1, r.err);
    const j = JSON.parse(r.out) as { findings: { rule: string; severity: string; line: number }[] };
    const cutAt = j.findings.find((f) => f.rule === 'parse/gzip-truncated');
    assert.ok(cutAt, JSON.stringify(j.findings));
    assert.equal(cutAt.severity, 'error');
    // The plain file has more lines than survive the cut; the finding is on the last one that does.
    const total = readFileSync(HARNESS, 'utf8').trimEnd().split('\n').length;
    assert.ok(cutAt.line > 1 && cutAt.line < total, `line ${cutAt.line} of ${total}`);
    assert.equal(JSON.parse(cli('summary', '--json', cut).out).lines, cutAt.line);
  });

  it('exits 2 with one line, no binary, for a zip, a PNG and random bytes', () => {
    const cases: [string, Buffer, string][] = [
      ['run.eval', minimalZip('header.json', Buffer.from('{"status":"success"}')), 'is a zip archive, not a JSONL trace'],
      ['image.jsonl', PNG_HEAD, 'is a PNG image, not a JSONL trace'],
      ['blob.jsonl', Buffer.from([0x7b, 0x00, 0xff, 0xfe, 0x01, 0x02, 0x0a, 0x9c]), 'is binary data, not a JSONL trace'],
    ];
    for (const [name, bytes, what] of cases) {
      const p = tempFile(name, bytes);
      for (const cmd of ['summary', 'tree', 'verify', 'check']) {
        const r = cli(cmd, p);
        assert.equal(r.code, 2, `${cmd} ${name}`);
        assert.equal(r.out, '', `${cmd} ${name}: nothing on stdout`);
        assert.equal(r.err, `agent-trace: ${p} ${what}\n`, `${cmd} ${name}`);
      }
    }
  });
});
