// Search Agent Sessions… over the Agent Traces view's listing: the view's read of each file feeds the index (the
// service's watchRead), so the search's own update reads no trace, and the pick's rows come from the index.
import { strict as assert } from 'node:assert';
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
      service.dispose();
      provider.dispose();
      fake.workspaceFolders = saved;
    }
  });
});
