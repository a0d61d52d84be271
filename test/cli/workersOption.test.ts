import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { generateLumenTrace } from '../bench/lumenBench';
import { tempDir } from '../helpers/tmp';

// Runs the built CLI (npm test builds before the unit suite); its worker script is dist/rangeWorker.js.
function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ['dist/cli.js', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('agent-trace --workers', function () {
  this.timeout(180_000);

  it('prints the same bytes and exit code with 0, 1 and 3 workers on a lumen trace large enough for workers', async () => {
    const dir = join(tempDir('atv-cli-workers-'), '.lumen', 'trace');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, '0f3e6c1a-7b2d-4e59-9a41-5c8d2e7f1b30.jsonl');
    // Above the 4 MiB floor under which the CLI reads on one thread.
    await generateLumenTrace(path, { targetBytes: 5 * 1024 * 1024 });
    assert.ok(existsSync('dist/rangeWorker.js'), 'dist/rangeWorker.js missing: run `npm run build` first');
    for (const args of [['summary', '--json'], ['tree', '--json'], ['verify', '--json'], ['check', '--sarif'], ['check']]) {
      const one = cli(args[0], path, ...args.slice(1), '--workers', '0');
      assert.equal(one.code, 0, `${args.join(' ')}: ${one.err}`);
      for (const w of ['1', '3', 'auto']) {
        const many = cli(args[0], path, ...args.slice(1), '--workers', w);
        assert.equal(many.code, one.code, `${args.join(' ')} --workers ${w}`);
        assert.ok(many.out === one.out, `${args.join(' ')} --workers ${w}: output differs`);
      }
    }
  });

  it('exits 2 with one line for a --workers value that is not a whole number from 0 to 256', () => {
    for (const bad of ['-1', 'two', '1.5', '999']) {
      const r = cli('summary', 'x.jsonl', '--workers', bad);
      assert.equal(r.code, 2, bad);
      assert.match(r.err.trim(), /^agent-trace: --workers needs a whole number from 0 to 256 or auto, not /, bad);
    }
  });
});
