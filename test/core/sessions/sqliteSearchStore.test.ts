// The search index's SQLite file (src/node/sqliteSearchStore.ts): an index an older version made is emptied and made
// again, and a file that is no database is replaced, not a failure.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSqliteSearchStore } from '../../../src/node/sqliteSearchStore';
import type { StoredFile } from '../../../src/core/sessions/searchStore';
import { tempDir } from '../../helpers/tmp';

const file = (path: string): StoredFile => ({ stamp: { path, size: 1, mtimeMs: 1 }, session: path, agent: 'claude-code', sessionId: null, title: 't', startTime: null, endTime: null, error: null });

describe('the search index file', () => {
  it('empties an index of another version and makes it again', async () => {
    const at = join(tempDir('atv-sqlite-'), 'index.sqlite');
    const old = openSqliteSearchStore(at, 'old-1');
    old.putFile(file('/a.jsonl'), [{ line: 1, field: 'prompt', tool: null, failed: false, text: 'find the wombat' }]);
    assert.equal((await old.query({ text: 'wombat', quoted: false }, 10)).length, 1);
    old.close();
    const same = openSqliteSearchStore(at, 'old-1');
    assert.equal((await same.files()).length, 1, 'the same version keeps its files');
    same.close();
    const again = openSqliteSearchStore(at, 'new-1');
    assert.deepEqual(await again.files(), [], 'the old index\'s files are gone');
    assert.equal((await again.query({ text: 'wombat', quoted: false }, 10)).length, 0);
    again.putFile(file('/b.jsonl'), [{ line: 2, field: 'reply', tool: null, failed: false, text: 'the wombat is here' }]);
    assert.deepEqual((await again.query({ text: 'wombat', quoted: false }, 10)).map((h) => [h.file.stamp.path, h.line]), [['/b.jsonl', 2]]);
    again.close();
  });

  it('replaces a file that is no database', async () => {
    const at = join(tempDir('atv-sqlite-'), 'index.sqlite');
    writeFileSync(at, 'not a database, and long enough to have a header that is wrong'.repeat(100));
    const s = openSqliteSearchStore(at, 'v-1');
    assert.deepEqual(await s.files(), []);
    s.close();
  });
});
