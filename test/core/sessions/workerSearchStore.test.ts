// The extension's search store in a worker thread (src/node/workerSearchStore.ts): writes are posted and kept in the
// order they were made, a read sees every write posted before it, a batch that throws posts none of its writes, and a
// store the worker cannot open fails its reads with a message instead of hanging.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { WorkerSearchStore } from '../../../src/node/workerSearchStore';
import type { StoredFile } from '../../../src/core/sessions/searchStore';
import { tempDir } from '../../helpers/tmp';

const file = (path: string, title: string): StoredFile => ({
  stamp: { path, size: 1, mtimeMs: 1 }, session: path, agent: 'claude-code', sessionId: null, title, startTime: '2026-01-01T00:00:00Z', endTime: null, error: null,
});

describe('the search store in a worker thread', function () {
  this.timeout(60_000);

  it('keeps writes in order, answers reads after them, and drops a batch that threw', async () => {
    const store = new WorkerSearchStore(null, 'test-1');
    try {
      store.putFile(file('/a.jsonl', 'A'), [{ line: 3, field: 'prompt', tool: null, failed: false, text: 'find the wombat' }]);
      store.putFile(file('/b.jsonl', 'B'), [{ line: 1, field: 'tool-output', tool: 'Bash', failed: true, text: 'wombat not found' }]);
      assert.throws(() => store.batch(() => {
        store.removeFile('/a.jsonl');
        throw new Error('stop');
      }), /stop/);
      store.batch(() => store.setFile(file('/b.jsonl', 'B again')));
      const hits = await store.query({ text: 'wombat', quoted: false }, 10);
      assert.deepEqual(hits.map((h) => [h.file.stamp.path, h.line, h.field, h.file.title]).sort(), [['/a.jsonl', 3, 'prompt', 'A'], ['/b.jsonl', 1, 'tool-output', 'B again']]);
      assert.deepEqual(await store.tools(), ['Bash']);
      assert.deepEqual((await store.size()).files, 2);
      assert.equal(store.failedWrites, 0);
    } finally {
      await store.close();
    }
  });

  it('fails its reads with a message when the index cannot be opened', async () => {
    const dir = tempDir('atv-wstore-');
    // A folder where the database file should be: SQLite cannot open it, nor can it be removed as a damaged file.
    const where = join(dir, 'index.sqlite');
    fs.mkdirSync(join(where, 'inside'), { recursive: true });
    const store = new WorkerSearchStore(where, 'test-1');
    try {
      await assert.rejects(store.files(), /search index could not be opened/);
    } finally {
      await store.close().catch(() => undefined);
    }
  });
});
