// The rows of Search Agent Sessions…: the hits of a real search over a home laid out from the real-writer corpus,
// grouped under one separator per session, newest first, each hit naming its line and what it is.
import { strict as assert } from 'node:assert';
import { layOutAgentHome } from '../helpers/agentHome';
import { tempDir } from '../helpers/tmp';
import { agentHomeRoots } from '../../src/core/sessions/agentHomes';
import { openSearchIndex } from '../../src/node/searchIndex';
import { searchPickRows } from '../../src/viewer/sessionSearchPicks';

describe('Search Agent Sessions rows', function () {
  this.timeout(120_000);

  it('groups the hits under a separator per session, in the search\'s order, each with its line and field', async () => {
    const home = tempDir('atv-pick-home-');
    layOutAgentHome(home);
    const index = openSearchIndex(null);
    await index.update({ roots: agentHomeRoots(home) });
    const sessions = await index.search('"code word PLUM"', { limit: 50 });
    await index.close();
    assert.ok(sessions.length >= 4, `${sessions.length} sessions`);
    const rows = searchPickRows(sessions);
    const separators = rows.filter((r) => r.separator);
    assert.equal(separators.length, sessions.length);
    assert.equal(rows.length, sessions.length + sessions.reduce((a, s) => a + s.hits.length, 0));
    let k = -1;
    for (const r of rows) {
      if (r.separator) {
        const s = sessions[++k];
        assert.ok(r.label.startsWith(`${s.agent} · `) && r.label.endsWith(s.title ?? ''), r.label);
        continue;
      }
      assert.ok(sessions[k].hits.includes(r.hit), 'a hit under its own session');
      assert.match(r.label.toLowerCase(), /code word plum/);
      assert.match(r.description, new RegExp(`(prompt|reply|tool input|tool output|record) · (.+ )?line ${r.hit.line}$`));
      assert.equal(r.detail, r.hit.file);
    }
    const times = sessions.map((s) => s.endTime ?? s.startTime ?? '');
    assert.deepEqual(times, [...times].sort().reverse(), 'newest session first');
  });
});
