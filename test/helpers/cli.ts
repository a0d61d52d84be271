import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** What one run of the CLI gave. */
export interface CliRun {
  code: number | null;
  out: string;
  err: string;
}

const CLI = 'dist/cli.js';

/** Runs the built CLI (`npm test` builds before the unit suite) in its own process, from the project folder. */
export function runCli(...args: string[]): CliRun {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Fails a CLI suite at once, saying what to do, when the CLI is not built (a `before` hook). */
export function requireBuiltCli(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} missing: run \`npm run build\` first`);
}
