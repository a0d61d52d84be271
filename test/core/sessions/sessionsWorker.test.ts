// The extension's sessions worker (src/node/workerSessions.ts): a listing and a search run in the worker thread; a
// worker that dies (a crash, out of memory on a huge file) fails the calls it held with why, and the next call starts
// a new one, which lists from the cache the dead one wrote; once closed, calls fail with a message, not a hang.
import { strict as assert } from 'node:assert';
import type { Worker } from 'node:worker_threads';
import { layOutAgentHome } from '../../helpers/agentHome';
import { tempDir } from '../../helpers/tmp';
import { agentHomeRoots } from '../../../src/core/sessions/agentHomes';
import { SessionsWorker } from '../../../src/node/workerSessions';

describe('the sessions worker', function () {
  this.timeout(120_000);

  it('starts again after its thread dies, lists from the cache, and refuses calls once closed', async () => {
    const home = tempDir('atv-sw-home-');
    layOutAgentHome(home);
    const roots = agentHomeRoots(home);
    const w = new SessionsWorker(tempDir('atv-sw-storage-'));
    const thread = () => (w as unknown as { worker: Worker | null }).worker;
    const first = await w.list({ roots });
    assert.ok(first.records.length > 10 && first.read > 0);
    const before = await w.threadId();
    // Dies while a listing is under way: that call fails with why.
    const held = w.list({ roots: [], files: first.records.map((r) => r.stamp.path) });
    await thread()!.terminate();
    await assert.rejects(held, /the sessions worker ended/);
    // The next call starts a new thread; the cache the first one wrote is used.
    const again = await w.list({ roots });
    assert.notEqual(await w.threadId(), before);
    assert.equal(again.read, 0);
    assert.equal(again.records.length, first.records.length);
    assert.ok((await w.search('"code word PLUM"', 50)).length > 0, 'the index too');
    await w.close();
    await assert.rejects(w.list({ roots }), /closed/);
  });
});
