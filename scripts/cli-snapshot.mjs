// Writes the CLI's JSON output (summary, tree, verify, check, SARIF) for every corpus file and sample into a
// folder, one file per command and input, so two builds can be compared byte for byte (`diff -r A B`).
// Usage: node scripts/cli-snapshot.mjs OUT_DIR [ROOT…]   (roots default to ../shared/corpus and samples)
// CLI_SNAPSHOT_ARGS adds arguments to every command (e.g. "--workers 2"); CLI_SNAPSHOT_CLI runs another build's cli.js.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [out, ...given] = process.argv.slice(2);
if (!out) {
  console.error('usage: node scripts/cli-snapshot.mjs OUT_DIR [ROOT…]');
  process.exit(2);
}
const roots = given.length ? given : [join(root, '..', 'shared', 'corpus'), join(root, 'samples')];
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) {
      if (name !== 'blobs' && name !== 'sha256') walk(p);
    } else if (/\.(jsonl|ndjson|json)$/.test(name)) files.push(p);
  }
};
for (const r of roots) walk(r);
const cli = process.env.CLI_SNAPSHOT_CLI ?? join(root, 'dist', 'cli.js');
const extra = (process.env.CLI_SNAPSHOT_ARGS ?? '').split(' ').filter(Boolean);
const commands = [
  ['summary', '--json'],
  ['tree', '--json'],
  ['verify', '--json'],
  ['check', '--json'],
  ['check', '--sarif'],
];
let n = 0;
for (const file of files) {
  const rel = relative(join(root, '..'), file).replace(/[\\/]/g, '__');
  for (const [cmd, flag] of commands) {
    const r = spawnSync(process.execPath, [cli, cmd, file, flag, ...extra], { encoding: 'utf8', maxBuffer: 1 << 30 });
    const dest = join(out, `${rel}.${cmd}${flag}.txt`);
    mkdirSync(dirname(dest), { recursive: true });
    writeFileSync(dest, `exit ${r.status}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
    n++;
  }
}
console.log(`${files.length} files, ${n} outputs written to ${out}`);
