// `npm run bench` section (issue 41 d): the peak memory of `check --json` and `verify --json` on a trace where
// every line has a finding (a parent that is not in the trace), as a ratio to the same command on a trace of the
// same size without findings (the floor), both measured in this run. Prints figures, asserts nothing.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CLI } from './cliBench';

/** A generic trace of `lines` steps; `dangling`: each names a parent that is not in the trace (one finding a line). */
export async function generateFindingsTrace(path: string, lines: number, dangling: boolean): Promise<void> {
  const out = createWriteStream(path);
  let buf = '';
  for (let i = 0; i < lines; i++) {
    const parent = dangling ? `gone${i}` : i === 0 ? null : `e${i - 1}`;
    buf += JSON.stringify({ type: 'step', id: `e${i}`, parent_id: parent, timestamp: new Date(1767261600000 + i * 1000).toISOString() }) + '\n';
    if (buf.length >= 1 << 20) {
      if (!out.write(buf)) await new Promise<void>((r) => out.once('drain', () => r()));
      buf = '';
    }
  }
  await new Promise<void>((r) => out.end(buf, () => r()));
}

/** Peak RSS (MiB, from GNU time) and wall time of one CLI run, its output discarded. */
function peak(args: string[]): { mib: number | null; ms: number } {
  const time = existsSync('/usr/bin/time');
  const t = performance.now();
  const r = spawnSync(time ? '/usr/bin/time' : process.execPath, time ? ['-f', '%M', process.execPath, CLI, ...args] : [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - t;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-500)}`);
  const kb = time ? Number(r.stderr.trim().split('\n').pop()) : NaN;
  return { mib: Number.isFinite(kb) ? kb / 1024 : null, ms };
}

export async function runBench(dir: string, events: number): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const lines = Math.max(1000, events);
  const withFindings = join(dir, `findings-${lines}.jsonl`);
  const floorFile = join(dir, `findings-floor-${lines}.jsonl`);
  if (!existsSync(withFindings)) await generateFindingsTrace(withFindings, lines, true);
  if (!existsSync(floorFile)) await generateFindingsTrace(floorFile, lines, false);
  console.log(`findings: ${lines} lines, one finding each (tree/dangling-parent) against the same size without`);
  for (const args of [['check', '--json'], ['verify', '--json'], ['check']]) {
    const floor = peak([...args, floorFile]);
    const full = peak([...args, withFindings]);
    const ratio = floor.mib && full.mib ? (full.mib / floor.mib).toFixed(2) : '?';
    console.log(`  ${args.join(' ').padEnd(14)} peak RSS ${full.mib?.toFixed(0) ?? '?'} MiB, floor ${floor.mib?.toFixed(0) ?? '?'} MiB: ${ratio}× the floor; ${(full.ms / 1000).toFixed(1)} s (floor ${(floor.ms / 1000).toFixed(1)} s)`);
  }
}
