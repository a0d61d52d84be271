// The built bundles ship SQLite's WebAssembly (node-sqlite3-wasm loads it from the folder of the script that bundles
// it): the CLI copied alone, with no node_modules near it, keeps and answers a search index; the extension's bundle
// has the file beside it and in its package.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { layOutAgentHome } from '../helpers/agentHome';
import { requireBuiltCli } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';
import { SEARCH_INDEX_FILE } from '../../src/core/sessions/sessionSearch';

const WASM = 'node-sqlite3-wasm.wasm';

describe('the search index from the built bundles', function () {
  this.timeout(120000);
  before(requireBuiltCli);

  it('the CLI bundle, copied to a folder of its own, builds the index and searches it', () => {
    const bin = tempDir('atv-bundle-');
    for (const f of ['cli.js', 'cliMain.js', WASM]) copyFileSync(join('dist', f), join(bin, f));
    const home = tempDir('atv-bundle-home-');
    layOutAgentHome(home);
    const cache = tempDir('atv-bundle-cache-');
    const run = () => spawnSync(process.execPath, [join(bin, 'cli.js'), 'search', '"code word PLUM"', '--json', '--root', home, '--cache', cache], { encoding: 'utf8', cwd: bin });
    const first = run();
    assert.equal(first.status, 0, first.stderr);
    const hits = JSON.parse(first.stdout) as { snippet: string }[];
    assert.ok(hits.length >= 4 && hits.every((h) => /code word plum/i.test(h.snippet)), first.stdout);
    assert.ok(statSync(join(cache, SEARCH_INDEX_FILE)).size > 0);
    // The second run opens the index the first one made.
    const second = run();
    assert.equal(second.status, 0, second.stderr);
    assert.deepEqual(JSON.parse(second.stdout), hits);
  });

  it('the extension\'s sessions worker bundles SQLite, not the host\'s bundle; its WebAssembly is beside it, and the package keeps both', () => {
    assert.ok(existsSync(join('dist', WASM)));
    assert.ok(readFileSync('dist/sessionsWorker.js', 'utf8').includes(WASM), 'sessionsWorker.js bundles node-sqlite3-wasm');
    assert.ok(!readFileSync('dist/extension.js', 'utf8').includes(WASM), 'extension.js bundles node-sqlite3-wasm: SQLite would run on the host\'s thread');
    const kept = readFileSync('.vscodeignore', 'utf8').split('\n');
    assert.ok(kept.includes(`!dist/${WASM}`) && kept.includes('!dist/sessionsWorker.js'));
  });
});
