// The search index over SQLite (src/node/sqliteSearchStore.ts) fed by the session catalog's read: on a home laid out
// from the real-writer corpus, a second start reads no trace and opens the index without reading it whole; a grown
// file is indexed again and a deleted one dropped; `sessions` then `search` read each new file once.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { layOutAgentHome, HomeFile } from '../../helpers/agentHome';
import { runCliInProcess } from '../../helpers/cliInProcess';
import { tempDir } from '../../helpers/tmp';
import { tracesRead } from '../../helpers/readsUnder';
import { agentHomeRoots } from '../../../src/core/sessions/agentHomes';
import { listSessions } from '../../../src/core/sessions/sessionCatalog';
import { SEARCH_INDEX_FILE } from '../../../src/core/sessions/sessionSearch';
import type { SessionCacheStore } from '../../../src/core/sessions/sessionCache';
import { openSearchIndex } from '../../../src/node/searchIndex';

function memoryCache(): SessionCacheStore {
  let text: string | null = null;
  return { read: async () => text, write: async (t) => void (text = t) };
}

/** Bytes read from `file` through node:fs's readSync (how node-sqlite3-wasm reads its pages) while `f` runs. */
async function bytesReadOf<T>(file: string, f: () => Promise<T>): Promise<{ result: T; bytes: number }> {
  // The module object itself (an ES namespace's bindings cannot be replaced), the one the library calls.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs: typeof import('node:fs') = require('node:fs');
  const real = fs.readSync;
  const fds = new Set<number>();
  const realOpen = fs.openSync;
  let bytes = 0;
  (fs as { openSync: unknown }).openSync = (p: fs.PathLike, ...rest: unknown[]) => {
    const fd = (realOpen as (...a: unknown[]) => number)(p, ...rest);
    if (String(p) === file) fds.add(fd);
    return fd;
  };
  (fs as { readSync: unknown }).readSync = (fd: number, ...rest: unknown[]) => {
    const n = (real as (...a: unknown[]) => number)(fd, ...rest);
    if (fds.has(fd)) bytes += n;
    return n;
  };
  try {
    const result = await f();
    return { result, bytes };
  } finally {
    fs.readSync = real;
    fs.openSync = realOpen;
  }
}

describe('search index riding the session catalog', function () {
  this.timeout(120000);
  let home: string;
  let files: HomeFile[];
  let roots: string[];

  beforeEach(() => {
    home = tempDir('atv-sidx-home-');
    files = layOutAgentHome(home);
    roots = agentHomeRoots(home);
  });

  it('indexes each file during the listing\'s read: no file is read a second time for the index', async () => {
    const index = openSearchIndex(null);
    const listingOnly = await tracesRead(home, () => listSessions({ roots, cache: memoryCache() }));
    const withIndex = await tracesRead(home, () => index.update({ roots, cache: memoryCache() }));
    // The same reads as the listing alone: the index adds none.
    assert.deepEqual([...withIndex].sort(), [...listingOnly].sort());
    const u = await index.update({ roots, cache: memoryCache() });
    assert.equal(u.readHere, 0);
    assert.ok((await index.search('PLUM')).length > 0);
    await index.close();
  });

  it('starts again from its file without reading a trace or the whole index', async () => {
    const dir = tempDir('atv-sidx-cache-');
    const cache = memoryCache();
    const first = openSearchIndex(dir);
    const built = await first.update({ roots, cache });
    assert.ok(built.read > 10 && built.readHere === 0, JSON.stringify({ read: built.read, readHere: built.readHere }));
    await first.close();
    const file = join(dir, SEARCH_INDEX_FILE);
    const size = fs.statSync(file).size;
    let hits = 0;
    const reads = await tracesRead(home, async () => {
      const { result: again, bytes } = await bytesReadOf(file, async () => {
        const x = openSearchIndex(dir);
        hits = (await x.search('"then try to read missing.txt"')).reduce((a, s) => a + s.hits.length, 0);
        return x;
      });
      assert.ok(bytes > 0 && bytes < size / 2, `${bytes} of ${size} bytes of the index read to open it and search`);
      const u = await again.update({ roots, cache });
      assert.deepEqual([u.read, u.readHere, u.discarded], [0, 0, 0]);
      await again.close();
    });
    assert.ok(hits >= 7, `${hits} hits`);
    assert.deepEqual(reads, []);
  });

  it('indexes a grown file again (its new line found, no other file read) and drops a deleted one', async () => {
    const index = openSearchIndex(null);
    const cache = memoryCache();
    await index.update({ roots, cache });
    const claude = files.find((f) => f.tool === 'claude-code' && /[0-9a-f-]{36}\.jsonl$/.test(f.path) && fs.readFileSync(f.path, 'utf8').includes('then try to read missing.txt'))!;
    const lines = fs.readFileSync(claude.path, 'utf8').split('\n').filter((l) => l !== '');
    const prompt = JSON.parse(lines.find((l) => l.includes('then try to read missing.txt') && l.includes('"type":"user"'))!);
    prompt.message.content = typeof prompt.message.content === 'string' ? 'Where is the wombatgarden?' : [{ type: 'text', text: 'Where is the wombatgarden?' }];
    prompt.uuid = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
    prompt.parentUuid = JSON.parse(lines[lines.length - 1]).uuid ?? null;
    fs.appendFileSync(claude.path, JSON.stringify(prompt) + '\n');
    const before = (await index.size()).files;
    const reads = await tracesRead(home, () => index.update({ roots, cache }));
    assert.deepEqual([...new Set(reads)], [claude.path]);
    const hits = (await index.search('wombatgarden')).flatMap((s) => s.hits);
    assert.deepEqual(hits.map((h) => [h.file, h.line, h.field]), [[claude.path, lines.length + 1, 'prompt']]);
    fs.rmSync(claude.path);
    const u = await index.update({ roots, cache });
    assert.ok(u.discarded >= 1);
    assert.ok((await index.size()).files < before);
    assert.deepEqual(await index.search('wombatgarden'), []);
    assert.ok(!(await index.search('missing.txt', { limit: 1000 })).some((s) => s.hits.some((h) => h.file === claude.path)));
    await index.close();
  });

  it('`sessions` then `search` (one cache folder) read each new file once: the search reads none', async () => {
    const cache = tempDir('atv-sidx-cli-');
    const listed = await tracesRead(home, async () => assert.equal((await runCliInProcess('sessions', '--json', '--root', home, '--cache', cache)).code, 0));
    assert.ok(listed.length > 0);
    let out = '';
    const searched = await tracesRead(home, async () => {
      const r = await runCliInProcess('search', 'PLUM', '--json', '--root', home, '--cache', cache);
      assert.equal(r.code, 0, r.err);
      out = r.out;
    });
    assert.deepEqual(searched, []);
    assert.ok((JSON.parse(out) as unknown[]).length > 0);
  });
});
