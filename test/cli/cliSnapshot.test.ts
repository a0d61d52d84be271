import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LISTING_ROOT, PROJECT_ROOT, SNAPSHOT_DIR, firstDifference, runSnapshotCases, snapshotCases, snapshotInputs } from '../helpers/cliSnapshot';

// The CLI's JSON output, SARIF, exit codes and format names are a public contract that users' CI relies on: every
// seed-corpus trace and sample is run through summary, tree, verify and check (JSON and SARIF) with the built CLI, and
// each output must equal its saved copy in test/cli/snapshots byte for byte. A change that is meant is saved again
// with `node --require tsx/cjs scripts/cli-snapshot.ts` and named in its commit.
describe('CLI contract: saved outputs of summary, tree, verify and check', function () {
  this.timeout(600_000);
  const files = snapshotInputs();
  const cases = snapshotCases(files);
  let texts: Map<string, string>;

  before(async function () {
    if (!existsSync(join(PROJECT_ROOT, 'dist', 'cli.js'))) throw new Error('dist/cli.js is missing: run `npm run build` first (npm test does)');
    texts = await runSnapshotCases(cases, 2);
  });

  it('has a saved output for every case and none left over', () => {
    assert.ok(files.length >= 60, `expected the seed corpus and samples, found ${files.length} inputs`);
    const saved = readdirSync(SNAPSHOT_DIR).sort();
    assert.deepEqual(saved, cases.map((c) => c.name).sort());
  });

  for (const file of [...files, `${LISTING_ROOT}/`]) {
    it(file === `${LISTING_ROOT}/` ? `sessions and usage of ${file}` : file, () => {
      const wrong: string[] = [];
      for (const c of cases.filter((k) => k.file === file)) {
        const saved = readFileSync(join(SNAPSHOT_DIR, c.name), 'utf8');
        const now = texts.get(c.name)!;
        if (saved !== now) wrong.push(`${c.args.slice(0, 3).join(' ')}: ${firstDifference(saved, now)}`);
      }
      assert.deepEqual(wrong, [], `the CLI's output changed for ${file}`);
    });
  }
});
