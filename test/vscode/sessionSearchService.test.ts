// Search Agent Sessions… over the Agent Traces view's listing, both in the sessions worker: the view's read of each
// file feeds the index, so the search's own update reads no trace, and the pick's rows come from the index. The
// extension host's thread reads no trace and never loads SQLite.
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
const { SessionsWorker } = require('../../src/node/workerSessions') as typeof import('../../src/node/workerSessions');
const { UTC_CLOCK } = require('../../src/viewer/sessionTree') as typeof import('../../src/viewer/sessionTree');
const { agentHomeRoots } = require('../../src/core/sessions/agentHomes') as typeof import('../../src/core/sessions/agentHomes');

describe('Search Agent Sessions over the view\'s listing', function () {
  this.timeout(120_000);

  it('indexes during the view\'s read: the search\'s update reads no trace, and finds a prompt', async () => {
    const home = tempDir('atv-svc-home-');
    const storage = tempDir('atv-svc-storage-');
    layOutAgentHome(home);
    const saved = fake.workspaceFolders;
    const worker = new SessionsWorker(storage);
    const provider = new views.SessionsProvider(worker, () => agentHomeRoots(home), UTC_CLOCK, { workspaceFiles: async () => [] });
    const service = new pick.SessionSearchService(worker, () => agentHomeRoots(home));
    try {
      await provider.refresh();
      assert.ok(provider.listing && provider.listing.read > 0);
      // The index's update after the view's listing: every file was indexed as the listing read it.
      const update = await worker.updateIndex(agentHomeRoots(home));
      assert.equal(update.readHere, 0, 'the index read no file itself');
      assert.ok(update.fromIndex > 0, 'every file from the index');
      await service.update();
      const items = await service.items('"then try to read missing.txt" field:prompt');
      const hits = items.filter((i) => i.hit);
      assert.ok(hits.length >= 7, items.map((i) => i.label).join('\n'));
      assert.ok(hits.every((i) => /then try to read missing\.txt/i.test(i.label)));
    } finally {
      await worker.close();
      provider.dispose();
      fake.workspaceFolders = saved;
    }
  });

  it('lists and indexes in a worker thread: the host reads no trace and never loads SQLite; a bad query says why; a second start reads nothing', async () => {
    const home = tempDir('atv-svc-home-');
    const storage = tempDir('atv-svc-storage-');
    layOutAgentHome(home);
    const sqliteLoaded = () => Object.keys(require.cache).some((k) => /node-sqlite3-wasm/.test(k));
    // Other test files of a whole run load SQLite in this process themselves; alone, this file proves it is never loaded here.
    const loadedBefore = sqliteLoaded();
    const worker = new SessionsWorker(storage);
    const service = new pick.SessionSearchService(worker, () => agentHomeRoots(home));
    try {
      const provider = new views.SessionsProvider(worker, () => agentHomeRoots(home), UTC_CLOCK, { workspaceFiles: async () => [] });
      // Nothing under the home is opened on this thread while the view lists and the index is brought up to date.
      const reads = await tracesRead(home, async () => {
        await provider.refresh();
        await service.update();
      });
      provider.dispose();
      assert.ok(provider.listing!.read > 0, 'the worker read the files');
      assert.deepEqual(reads, [], 'the host read trace files');
      const items = await service.items('"code word PLUM"');
      assert.ok(items.filter((i) => i.hit).length >= 4, items.map((i) => i.label).join('\n'));
      const bad = await service.items('status:');
      assert.equal(bad.length, 1);
      assert.match(bad[0].label, /\$\(error\) column \d+: /);
      assert.notEqual(await worker.threadId(), threadId);
      if (!loadedBefore) assert.ok(!sqliteLoaded(), 'node-sqlite3-wasm was loaded on the host\'s thread');
    } finally {
      await worker.close();
    }
    // Closed: its writes were kept. A new worker lists from the cache and finds the prompt without reading a trace.
    const again = new SessionsWorker(storage);
    try {
      const listing = await again.list({ roots: agentHomeRoots(home) });
      assert.equal(listing.read, 0);
      const update = await again.updateIndex(agentHomeRoots(home));
      assert.equal(update.readHere, 0);
      assert.ok((await new pick.SessionSearchService(again, () => agentHomeRoots(home)).items('"code word PLUM"')).filter((i) => i.hit).length >= 4);
    } finally {
      await again.close();
    }
  });
});
