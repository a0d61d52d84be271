import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusFiles, fuzzRun, loadSources } from './fuzzRun';
import { MUTATION_NAMES } from './mutators';

// A short seeded run of the fuzz suite (`npm run fuzz` runs 100,000 lines in a bounded child process).
describe('fuzz: mutated corpus and real-writer files through every command (issue 19)', () => {
  it('2,000 mutated lines: no crash, every broken line reported at its line, no valid line called malformed', async function () {
    this.timeout(120_000);
    const dir = mkdtempSync(join(tmpdir(), 'fuzz-'));
    try {
      const sources = await loadSources(corpusFiles());
      assert.ok(sources.length >= 50, `corpus files: ${sources.length}`);
      const t = await fuzzRun(sources, { seed: 19, targetLines: 2000, dir });
      assert.deepEqual(t.crashes, []);
      assert.deepEqual(t.missed, []);
      assert.deepEqual(t.falseMalformed, []);
      assert.deepEqual(t.chainMissed, []);
      assert.deepEqual(t.refused, [], 'no file with a valid line is refused whole');
      assert.ok(t.lines >= 2000);
      assert.ok(Object.keys(t.byMutation).length >= MUTATION_NAMES.length - 2, `mutations used: ${Object.keys(t.byMutation).join(', ')}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
