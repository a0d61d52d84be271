// Search Agent Sessions… over the Agent Traces view's listing: the view's read of each file feeds the index (the
// service's watchRead), so the search's own update reads no trace, and the pick's rows come from the index.
import { strict as assert } from 'node:assert';
import { threadId } from 'node:worker_threads';
import { fake, installFakeVscode } from '../helpers/fakeVscode';
import { layOutAgentHome } from '../helpers/agentHome';
import { tempDir } from '../helpers/tmp';
import { tracesRead } from '../helpers/readsUnder';

installFakeVscode();
/* eslint-disable @typescript-eslint/no-require-imports */
const views = require('../../src/vscode/sessions/sessionsView') as typeof import('../../src/vscode/sessions/sessionsView');
const pick = require('../../src/vscode/sessions/sessionSearchPick') as typeof import('../../src/vscode/sessions/sessionSearchPick');
const { UTC_CLOCK } = require('../../src/viewer/sessionTree') as typeof import('../../src/viewer/sessionTree');
const { agentHomeRoots } = require('../../src/core/sessions/agentHomes') as typeof import('../../src/core/sessions/agentHomes');

describe('Search Agent Sessions over the view\'s listing', function () {
  this.timeout(120_000);

  it('indexes during the view\'s read: the search\'s update reads no trace, and finds a prompt', async () => {
    const home = tempDir('atv-svc-home-');
    const storage = tempDir('atv-svc-storage-');
    layOutAgentHome(home);
    const saved = fake.workspaceFolders;
    const provider = new views.SessionsProvider(views.folderCacheStore(storage), () => agentHomeRoots(home), UTC_CLOCK, { workspaceFiles: async () => [] });
    const service = new pick.SessionSearchService(storage, () => agentHomeRoots(home));
    provider.watchRead = service.watchRead;
    try {
      await provider.refresh();
      assert.ok(provider.listing && provider.listing.read > 0);
      const reads = await tracesRead(home, () => service.update());
      assert.deepEqual(reads, []);
      const items = await service.items('"then try to read missing.txt" field:prompt');
      const hits = items.filter((i) => i.hit);
      assert.ok(hits.length >= 7, items.map((i) => i.label).join('\n'));
      assert.ok(hits.every((i) => /then try to read missing\.txt/i.test(i.label)));
    } finally {
      await service.dispose();
      provider.dispose();
      fake.workspaceFolders = saved;
    }
  });

  it('keeps its index in a worker thread: the host posts the writes and never loads SQLite; listing and search work', async () => {
    const home = tempDir('atv-svc-home-');
    const storage = tempDir('atv-svc-storage-');
    layOutAgentHome(home);
    const sqliteLoaded = () => Object.keys(require.cache).some((k) => /node-sqlite3-wasm/.test(k));
    // Other test files of a whole run load SQLite in this process themselves; alone, this file proves it is never loaded here.
    const loadedBefore = sqliteLoaded();
    const service = new pick.SessionSearchService(storage, () => agentHomeRoots(home));
    try {
      await service.update();
      const items = await service.items('"code word PLUM"');
      assert.ok(items.filter((i) => i.hit).length >= 4, items.map((i) => i.label).join('\n'));
      const bad = await service.items('status:');
      assert.equal(bad.length, 1);
      assert.match(bad[0].label, /\$\(error\)/);
      const store = (service as unknown as { index: { store: { thread?: () => Promise<number> } } }).index.store;
      assert.equal(typeof store.thread, 'function', 'the store is the worker\'s');
      const thread = await store.thread!();
      assert.notEqual(thread, threadId);
      if (!loadedBefore) assert.ok(!sqliteLoaded(), 'node-sqlite3-wasm was loaded on the host\'s thread');
    } finally {
      await service.dispose();
    }
    // Closed: its writes were kept. A new service (a new worker) finds the prompt from the file without reading a trace.
    const again = new pick.SessionSearchService(storage, () => agentHomeRoots(home));
    try {
      const reads = await tracesRead(home, () => again.update());
      assert.deepEqual(reads, []);
      assert.ok((await again.items('"code word PLUM"')).filter((i) => i.hit).length >= 4);
    } finally {
      await again.dispose();
    }
  });
});
