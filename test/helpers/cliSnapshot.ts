import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The CLI's public output, saved: `summary --json`, `tree --json`, `verify --json`, `check --json` and
 * `check --sarif` of every trace in the seed corpus and the samples, with each command's exit code and stderr.
 * The saved copies (`test/cli/snapshots/`) are compared in `npm test` (test/cli/cliSnapshot.test.ts), so a change
 * to the JSON, an exit code or a format name fails a test; `scripts/cli-snapshot.ts` writes them again.
 */

export const PROJECT_ROOT = join(__dirname, '..', '..');
export const SNAPSHOT_DIR = join(PROJECT_ROOT, 'test', 'cli', 'snapshots');
/** Where the inputs come from, relative to the project root (the CLI is run from there, so paths print relative). */
export const SNAPSHOT_ROOTS = ['test/seed-corpus', 'samples'];
export const SNAPSHOT_COMMANDS: readonly (readonly [string, string])[] = [
  ['summary', '--json'],
  ['tree', '--json'],
  ['verify', '--json'],
  ['check', '--json'],
  ['check', '--sarif'],
];

/** Trace files under the roots (JSONL, NDJSON, JSON; blob folders skipped), relative to the project root, sorted. */
export function snapshotInputs(roots: readonly string[] = SNAPSHOT_ROOTS): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(PROJECT_ROOT, dir)).sort()) {
      const p = `${dir}/${name}`;
      if (statSync(join(PROJECT_ROOT, p)).isDirectory()) {
        if (name !== 'blobs' && name !== 'sha256') walk(p);
      } else if (/\.(jsonl|ndjson|json)$/.test(name)) files.push(p);
    }
  };
  for (const r of roots) walk(r);
  return files;
}

export interface SnapshotCase {
  /** The saved file's name: the input's path with `/` as `__`, then the command and flag. */
  name: string;
  file: string;
  args: string[];
}

export function snapshotCases(files: readonly string[] = snapshotInputs()): SnapshotCase[] {
  return [
    ...files.flatMap((file) =>
      SNAPSHOT_COMMANDS.map(([cmd, flag]) => ({ name: `${file.split('/').join('__')}.${cmd}${flag}.txt`, file, args: [cmd, file, flag] })),
    ),
    ...listingCases(),
  ];
}

/** The folder the listing commands' saved outputs list (every format's sessions the samples hold). */
export const LISTING_ROOT = 'samples';

/**
 * `sessions --json`, `usage --json` and `search error --json` over {@link LISTING_ROOT} (no cache, so a run reads and writes nothing
 * else): the listing's JSON is a contract too. Their `file` is the folder, which no input is.
 */
export function listingCases(): SnapshotCase[] {
  const listing = (name: string, args: string[]): SnapshotCase => ({ name: `listing__${LISTING_ROOT}.${name}.txt`, file: `${LISTING_ROOT}/`, args: [...args, '--json', '--no-cache', '--root', LISTING_ROOT] });
  return [
    listing('sessions--json', ['sessions']), listing('usage--by-agent--json', ['usage', '--by', 'agent']), listing('usage--by-model--json', ['usage', '--by', 'model']),
    listing('search-error--json', ['search', 'error']),
  ];
}

/** Runs one case with the built CLI from the project root; the text saved for it. */
export function runSnapshotCase(c: SnapshotCase, cli = join(PROJECT_ROOT, 'dist', 'cli.js'), extra: readonly string[] = []): Promise<string> {
  return new Promise((resolve, reject) => {
    // The code cache is left off so a run never depends on (or writes) the user's cache directory.
    const child = spawn(process.execPath, [cli, ...c.args, ...extra], { cwd: PROJECT_ROOT, env: { ...process.env, AGENT_TRACE_CODE_CACHE: '0', NO_COLOR: '1' } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => resolve(withoutRoot(`exit ${code}\n--- stdout\n${Buffer.concat(out).toString('utf8')}\n--- stderr\n${Buffer.concat(err).toString('utf8')}`)));
  });
}

/**
 * The text with the project's own folder written as `<project>`: SARIF names files by absolute `file://` URI (and
 * messages may name a blob's path), so the saved outputs would otherwise hold the folder of the clone that wrote them.
 */
export function withoutRoot(text: string): string {
  const root = PROJECT_ROOT.split(sep).join('/');
  const forms = [pathToFileURL(PROJECT_ROOT).href, root, JSON.stringify(root).slice(1, -1), PROJECT_ROOT];
  let out = text;
  for (const f of [...new Set(forms)].sort((a, b) => b.length - a.length)) out = out.split(f).join('<project>');
  return out;
}

/** Runs every case, `parallel` at a time, in the given order; the texts by case name. */
export async function runSnapshotCases(cases: readonly SnapshotCase[], parallel = 2, cli?: string, extra: readonly string[] = []): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < cases.length) {
      const c = cases[next++];
      out.set(c.name, await runSnapshotCase(c, cli, extra));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, parallel) }, worker));
  return out;
}

/** A short account of how two texts differ: the first differing line of each, with its number. */
export function firstDifference(saved: string, now: string): string {
  const a = saved.split('\n');
  const b = now.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `line ${i + 1}: saved ${JSON.stringify((a[i] ?? '<end>').slice(0, 200))}, now ${JSON.stringify((b[i] ?? '<end>').slice(0, 200))}`;
  }
  return 'no difference';
}

export function relativeToRoot(p: string): string {
  return relative(PROJECT_ROOT, p).split(sep).join('/');
}
