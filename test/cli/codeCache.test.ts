// `agent-trace` loads its bundle with V8's code cache (src/cli/launch.ts): the output and exit code are the same
// with and without it, the data is written once and used after, damaged data is refused and written again, and a
// cache directory that others can write to is never used.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Module = require('node:module');
import { cacheDir } from '../../src/cli/launch';
import { corpusPath } from '../helpers/corpus';
import { tempDir } from '../helpers/tmp';

const SAMPLE = 'samples/claude-code/921f39d1-40c5-4a48-826b-c8319e0f40bc.jsonl';
const TAMPERED = corpusPath('lumen/negative/ef05f773-1151-4c7a-817e-a78bf76ed21e.tampered-latency.jsonl');

function cli(args: string[], dir: string, cache = 'debug') {
  const r = spawnSync(process.execPath, ['dist/cli.js', ...args], { encoding: 'utf8', env: { ...process.env, AGENT_TRACE_CACHE_DIR: dir, AGENT_TRACE_CODE_CACHE: cache } });
  const said = r.stderr.split('\n').filter((l) => l.startsWith('agent-trace code cache: ')).map((l) => l.slice('agent-trace code cache: '.length).replace(/ \(.*\)$/, ''));
  return { code: r.status, out: r.stdout, said };
}

const caches = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.v8cache')) : []);
const posix = process.platform !== 'win32';
/** Node 22 and later have a compile cache of their own, which the entry uses instead of its own data files. */
const nodeCache = typeof (Module as unknown as { enableCompileCache?: unknown }).enableCompileCache === 'function';

describe('CLI: the bundle loads with V8\'s code cache', function () {
  this.timeout(60_000);
  before(function () {
    if (!existsSync('dist/cli.js') || !existsSync('dist/cliMain.js')) throw new Error('dist/ missing: run `npm run build` first');
  });

  it('writes the data on the first run, uses it on the next, with the same output and exit codes as without', () => {
    const dir = join(tempDir('atv-cache-'), 'cache');
    const plain = cli(['summary', SAMPLE, '--json'], dir, '0');
    assert.deepEqual([plain.said, caches(dir)], [[], []], 'off: nothing said, nothing written');
    const first = cli(['summary', SAMPLE, '--json'], dir);
    if (nodeCache) {
      assert.deepEqual([first.said, first.out], [['Node\'s compile cache'], plain.out]);
      return;
    }
    assert.deepEqual(first.said, ['none yet', 'written']);
    assert.equal(first.out, plain.out);
    assert.equal(caches(dir).length, 1);
    if (posix) {
      assert.equal(statSync(dir).mode & 0o777, 0o700, 'a private directory');
      assert.equal(statSync(join(dir, caches(dir)[0])).mode & 0o777, 0o600);
    }
    const second = cli(['summary', SAMPLE, '--json'], dir);
    assert.deepEqual([second.said, second.out], [['used'], plain.out]);
    // A finding's exit code passes through (1), as does a usage error (2).
    const verify = [cli(['verify', TAMPERED], dir), cli(['verify', TAMPERED], dir, '0')];
    assert.deepEqual(verify.map((r) => r.code), [1, 1]);
    assert.equal(verify[0].out, verify[1].out);
    assert.deepEqual([cli(['nope'], dir).code, cli(['nope'], dir, '0').code], [2, 2]);
  });

  it('refuses damaged data, writes it again, and keeps only the newest bundle\'s data for this Node', function () {
    if (nodeCache) this.skip();
    const dir = join(tempDir('atv-cache-'), 'cache');
    cli(['summary', SAMPLE, '--json'], dir);
    const [name] = caches(dir);
    writeFileSync(join(dir, name), Buffer.alloc(4096, 7));
    const stale = `cli-1-2-${process.version}-${process.arch}.v8cache`;
    const other = `cli-1-2-v0.0.1-${process.arch}.v8cache`;
    writeFileSync(join(dir, stale), 'old');
    writeFileSync(join(dir, other), 'another Node');
    const r = cli(['summary', SAMPLE, '--json'], dir);
    assert.deepEqual(r.said, ['refused by V8', 'written']);
    assert.equal(r.out, cli(['summary', SAMPLE, '--json'], dir, '0').out);
    assert.deepEqual(caches(dir).sort(), [name, other].sort());
    assert.deepEqual(cli(['summary', SAMPLE, '--json'], dir).said, ['used']);
  });

  it('never uses a cache directory that others can write to', function () {
    if (!posix) this.skip();
    const dir = join(tempDir('atv-cache-'), 'shared');
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    const r = cli(['summary', SAMPLE, '--json'], dir);
    assert.deepEqual([r.said, caches(dir)], [['no private cache directory'], []]);
    assert.equal(r.out, cli(['summary', SAMPLE, '--json'], dir, '0').out);
    assert.equal(cacheDir({ AGENT_TRACE_CACHE_DIR: dir }), null);
    assert.equal(cacheDir({ AGENT_TRACE_CACHE_DIR: join(dir, '..', 'private') }), join(dir, '..', 'private'));
  });
});
