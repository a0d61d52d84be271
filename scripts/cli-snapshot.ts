// Writes the CLI's saved outputs (summary, tree, verify, check, SARIF of every seed-corpus trace and sample; sessions
// and usage over the samples) that
// test/cli/cliSnapshot.test.ts compares in `npm test`. Run it after a change to the public JSON that is meant, and
// say in the commit which outputs changed and why.
// Usage: node --require tsx/cjs scripts/cli-snapshot.ts [OUT_DIR]   (default: test/cli/snapshots; build first)
// CLI_SNAPSHOT_ARGS adds arguments to every command (e.g. "--workers 2"); CLI_SNAPSHOT_CLI runs another build's cli.js.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LISTING_ROOT, SNAPSHOT_DIR, runSnapshotCases, snapshotCases, snapshotInputs } from '../test/helpers/cliSnapshot';

async function main(): Promise<void> {
  const out = process.argv[2] ? resolve(process.argv[2]) : SNAPSHOT_DIR;
  const files = snapshotInputs();
  const extra = (process.env.CLI_SNAPSHOT_ARGS ?? '').split(' ').filter(Boolean);
  // The per-file commands' options (--workers) are not the listing's: with extra arguments, the per-file cases only.
  const cases = snapshotCases(files).filter((c) => extra.length === 0 || c.file !== `${LISTING_ROOT}/`);
  const texts = await runSnapshotCases(cases, 2, process.env.CLI_SNAPSHOT_CLI, extra);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const c of cases) writeFileSync(join(out, c.name), texts.get(c.name)!);
  console.log(`${files.length} files, ${cases.length} outputs written to ${out}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
