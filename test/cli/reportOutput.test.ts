import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { reportOutput } from '../../src/cli/reportCommand';
import { requireBuiltCli, runCli } from '../helpers/cli';

const SAMPLE = 'samples/claude-code/921f39d1-40c5-4a48-826b-c8319e0f40bc.jsonl';

describe('agent-trace report: where the page goes without -o (issue 42)', function () {
  this.timeout(120000);
  let dir: string;
  before(() => {
    requireBuiltCli();
    dir = mkdtempSync(join(tmpdir(), 'atv-report-out-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('names <trace>.html beside the trace at a terminal, stdout when redirected, and keeps -o', () => {
    assert.equal(reportOutput(undefined, 'runs/a.jsonl', true), join('runs', 'a.html'));
    assert.equal(reportOutput(undefined, 'runs/a.jsonl.gz', true), join('runs', 'a.html'));
    assert.equal(reportOutput(undefined, 'runs/export.json', true), join('runs', 'export.html'));
    assert.equal(reportOutput(undefined, 'runs/trace', true), join('runs', 'trace.html'));
    assert.equal(reportOutput(undefined, 'runs/a.jsonl', false), null, 'a pipe or a redirect gets the HTML, as before');
    assert.equal(reportOutput('-', 'runs/a.jsonl', true), null);
    assert.equal(reportOutput('out/r.html', 'runs/a.jsonl', true), 'out/r.html');
  });

  it('writes the page beside the trace when run at a terminal, saying where, and nothing to stdout', function () {
    const probe = spawnSync('script', ['--version'], { encoding: 'utf8' });
    if (probe.status !== 0) this.skip();
    const trace = join(dir, 'session.jsonl');
    copyFileSync(SAMPLE, trace);
    // `script` gives the CLI a terminal for its stdout, as a user's shell does.
    const r = spawnSync('script', ['-qec', `${JSON.stringify(process.execPath)} ${JSON.stringify(resolve('dist/cli.js'))} report ${JSON.stringify(trace)}`, '/dev/null'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const page = join(dir, 'session.html');
    assert.ok(existsSync(page), `no ${page}: ${r.stdout.slice(0, 300)}`);
    assert.match(readFileSync(page, 'utf8'), /^<!DOCTYPE html>/);
    assert.match(r.stdout, /Wrote .*session\.html/);
    assert.doesNotMatch(r.stdout, /<!DOCTYPE html>/, 'no HTML in the terminal');
  });

  it('still writes the HTML to stdout when it is piped, and to stdout with -o -', () => {
    for (const args of [[SAMPLE], [SAMPLE, '-o', '-']]) {
      const r = runCli('report', ...args);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /^<!DOCTYPE html>/);
    }
  });
});
