// `npm run bench` section: the figures of issue 14's table for the CLI, each benchmark in its own process,
// as ratios to floors measured in the same run (the machine is shared: ratios are what compare across runs).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { defaultWorkers } from '../../src/cli/workers';
import { generateLumenTrace } from './lumenBench';
import { generateMurmurTrace } from './generateMurmur';

const ROOT = join(__dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');

/** Wall time, CPU time (all threads) and peak RSS of one child process (CPU and RSS from GNU time, when installed). */
export interface Run {
  ms: number;
  cpuMs: number | null;
  peakMiB: number | null;
  stdout: string;
}

export function run(args: string[]): Run {
  const time = existsSync('/usr/bin/time');
  const t = performance.now();
  const r = spawnSync(time ? '/usr/bin/time' : process.execPath, time ? ['-f', '%U %S %M', process.execPath, ...args] : args, { encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = performance.now() - t;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-500)}`);
  const [user, sys, kb] = time ? r.stderr.trim().split('\n').pop()!.split(' ').map(Number) : [NaN, NaN, NaN];
  return { ms, cpuMs: Number.isFinite(user + sys) ? (user + sys) * 1000 : null, peakMiB: Number.isFinite(kb) ? kb / 1024 : null, stdout: r.stdout };
}

/** A benchmark of benchProcess.ts, timed inside its process (without Node and tsx start-up). */
export function inner(args: string[]): Run & { result: Record<string, number> & { outcome?: string } } {
  const r = run(['--expose-gc', '--require', 'tsx/cjs', join(__dirname, 'benchProcess.ts'), ...args]);
  const result = JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, number> & { outcome?: string };
  // Times from inside the process: without Node's and tsx's start-up (a CLI run pays only Node's).
  return { ...r, ms: result.ms, cpuMs: result.cpuMs ?? r.cpuMs, result };
}

const best = <R extends Run>(runs: R[]): R => runs.reduce((a, b) => (b.ms < a.ms ? b : a));
export const mib = (r: Run) => (r.peakMiB === null ? '?' : r.peakMiB.toFixed(0));
export const sec = (ms: number) => (ms / 1000).toFixed(2);
const cpuRatio = (r: Run, floor: Run) => (r.cpuMs === null || floor.cpuMs === null ? '?' : (r.cpuMs / floor.cpuMs).toFixed(2));

/**
 * Each variant `rounds` times, alternating (A B C A B C …), so a change in the machine's load falls on all of them;
 * the best run of each.
 */
export function alternating<R extends Run>(rounds: number, variants: (() => R)[]): R[] {
  const runs: R[][] = variants.map(() => []);
  for (let i = 0; i < rounds; i++) variants.forEach((v, k) => runs[k].push(v()));
  return runs.map(best);
}

async function workload(dir: string, events: number, formats: string[] | undefined): Promise<{ lumen: string; murmur: string }> {
  mkdirSync(dir, { recursive: true });
  // Lumen lines of the bench's writer average about 390 bytes.
  const lumen = join(dir, `cli-lumen-${events}-0f3e6c1a-7b2d-4e59-9a41-5c8d2e7f1b30.jsonl`);
  if (!existsSync(lumen)) await generateLumenTrace(lumen, { targetBytes: events * 390 });
  const murmur = join(dir, `murmur-${events}.jsonl`);
  if (!existsSync(murmur) && (!formats || formats.includes('murmur'))) await generateMurmurTrace(murmur, events);
  return { lumen, murmur };
}

/** Prints the table: floors, then each CLI command as a ratio to its floor, with peak RSS; then model bytes/event. */
export async function runBench(dir: string, events: number): Promise<void> {
  const rounds = Number(process.env.CLI_BENCH_ROUNDS ?? 2);
  const only = process.env.CLI_BENCH_FORMATS?.split(',');
  const { lumen, murmur } = await workload(dir, events, only);
  const workers = Number(process.env.BENCH_WORKERS ?? defaultWorkers());
  const mb = (f: string) => (statSync(f).size / 2 ** 20).toFixed(0);
  const times = <R extends Run>(f: () => R): R[] => Array.from({ length: rounds }, f);
  console.log(`cli: ${availableParallelism()} cores, --workers ${workers} (auto ${defaultWorkers()}); each figure its own process, best of ${rounds} alternating runs; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  // CLI_BENCH_FORMATS=lumen measures one workload only.
  for (const [name, file] of ([['lumen', lumen], ['murmur', murmur]] as const).filter(([n]) => !only || only.includes(n))) {
    const parse = best(times(() => inner(['floor', 'parse', file])));
    const sha = best(times(() => inner(['floor', 'sha', file])));
    console.log(`  ${name} ${mb(file)} MB: parse floor ${sec(parse.ms)} s, sha floor ${sec(sha.ms)} s (each line below: its floor measured again, alternating with it)`);
    const goals: Record<string, ['parse' | 'sha', string]> = { summary: ['parse', '≤ 1.0× parse floor, ≤ 200 MiB'], verify: ['sha', '≤ 1.0× sha floor, ≤ 150 MiB'], check: ['parse', '≤ 1.5× parse floor, ≤ 200 MiB'] };
    // The machine's speed drifts within minutes: each figure is divided by its floor measured in the same
    // alternation (floor, then each variant, `rounds` times), not by the floor measured once above.
    const floor = (kind: 'parse' | 'sha') => (): Run => inner(['floor', kind, file]);
    for (const cmd of ['summary', 'verify', 'check']) {
      const [floorName, goal] = goals[cmd];
      // One thread against range workers (1 and 2, and the count asked for), in alternating runs; murmur's
      // verify and check (whose goals are set on lumen) with one thread only.
      const counts = name === 'lumen' || cmd === 'summary' ? [...new Set([0, 1, 2, workers])] : [0];
      const [floorRun, ...runs] = alternating(rounds, [floor(floorName), ...counts.map((w) => () => run([CLI, cmd, file, '--json', '--workers', String(w)]))]);
      runs.forEach((r, k) => {
        console.log(`    agent-trace ${cmd} --workers ${counts[k]}: ${sec(r.ms)} s = ${(r.ms / floorRun.ms).toFixed(2)}× ${floorName} floor (${sec(floorRun.ms)} s), CPU ${cpuRatio(r, floorRun)}× the floor's, peak RSS ${mib(r)} MiB (goal ${goal})`);
      });
    }
    for (const mode of ['verify', 'check'] as const) {
      const [floorName] = goals[mode];
      for (const path of ['model', 'stream'] as const) {
        const [floorRun, r] = alternating(rounds, [floor(floorName), () => inner(['checks', mode, path, file])]);
        const outcome = (r as ReturnType<typeof inner>).result.outcome;
        const how = path === 'model' ? 'over the loaded model (the path before streaming; the viewer\'s)' : `streamed (${outcome ?? '?'})`;
        console.log(`    ${mode} ${how}: ${sec(r.ms)} s = ${(r.ms / floorRun.ms).toFixed(2)}× ${floorName} floor (${sec(floorRun.ms)} s), peak RSS ${mib(r)} MiB`);
      }
    }
    const model = inner(['model', file, String(workers)]);
    console.log(`    model retained after GC: ${model.result.bytesPerEvent.toFixed(0)} B/event over ${model.result.events} events (goal ≤ 100), load peak RSS ${mib(model)} MiB`);
  }
}
