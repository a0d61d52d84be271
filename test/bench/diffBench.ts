// `agent-trace diff` on two 100,000-event murmur traces with 1% changes, as a user runs it: the built CLI in its own
// process, timed from spawn to exit (start-up and writing the JSON included), with its peak RSS.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { editedMurmurCopy, generateMurmurTrace } from './generateMurmur';

const DIFF_EVENTS = Number(process.env.BENCH_DIFF_EVENTS ?? 100_000);
const ROUNDS = Number(process.env.DIFF_BENCH_ROUNDS ?? 3);

interface CliRun {
  ms: number;
  cpuMs: number;
  rssKB: number;
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node ...args` in its own process: wall time from spawn to exit, CPU time (all threads) and peak RSS. */
function runNode(args: string[]): CliRun {
  const t = performance.now();
  const r = spawnSync(process.execPath, ['-r', join(__dirname, 'reportMaxRss.cjs'), ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = performance.now() - t;
  const rssKB = Number(/maxRssKB (\d+)/.exec(r.stderr)?.[1] ?? NaN);
  const cpuMs = Number(/cpuMs (\d+)/.exec(r.stderr)?.[1] ?? NaN);
  return { ms, cpuMs, rssKB, status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const runCli = (args: string[]): CliRun => runNode(['dist/cli.js', ...args]);

/** The least any diff must do: read both files in 1 MiB chunks and JSON.parse every line (benchProcess.ts, own process). */
function parseFloor(a: string, b: string): CliRun {
  return runNode(['--require', 'tsx/cjs', join(__dirname, 'benchProcess.ts'), 'floor', 'parse', a, b]);
}

/** Milliseconds the floor spent inside its process (without Node and tsx start-up), from its JSON line. */
const innerMs = (r: CliRun): number => Number(JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}').ms);

const sec = (ms: number): string => (ms / 1000).toFixed(2);
const mb = (kb: number): string => (kb / 1024).toFixed(0);

/**
 * Prints, for each of `DIFF_BENCH_ROUNDS` rounds, the wall time, CPU time and peak RSS of `agent-trace diff A B --json`
 * against the targets (≤ 5 s, ≤ 500 MB), next to two floors measured in the same round: reading and JSON.parse of
 * both files (the least a diff does), and `agent-trace summary` of A and of B (loading both runs); floors and diff
 * alternate, so a loaded machine weighs on both alike and the ratios still compare.
 */
export async function runBench(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const a = join(dir, `murmur-${DIFF_EVENTS}.jsonl`);
  if (!existsSync(a)) await generateMurmurTrace(a, DIFF_EVENTS);
  const b = join(dir, `murmur-${DIFF_EVENTS}-edited.jsonl`);
  const edits = editedMurmurCopy(a, b);
  console.log(`diff: ${DIFF_EVENTS} murmur events each (${(statSync(a).size / 2 ** 20).toFixed(0)} MB), B edited: ${edits.changed} changed, ${edits.inserted} inserted, ${edits.deleted} deleted; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const walls: number[] = [];
  let last: CliRun | null = null;
  for (let round = 1; round <= ROUNDS; round++) {
    const parse = parseFloor(a, b);
    const sumA = runCli(['summary', a, '--json']);
    const sumB = runCli(['summary', b, '--json']);
    const r = runCli(['diff', a, b, '--json']);
    last = r;
    walls.push(r.ms);
    const floorMs = innerMs(parse);
    const summaryMs = sumA.ms + sumB.ms;
    console.log(`  round ${round}: agent-trace diff --json ${sec(r.ms)} s wall (spawn to exit), ${sec(r.cpuMs)} s CPU, peak RSS ${mb(r.rssKB)} MB, exit ${r.status}`);
    console.log(`    floors: read + JSON.parse of A and B ${sec(floorMs)} s (inside its process; ${sec(parse.ms)} s with Node and tsx start-up), summary A + summary B ${sec(summaryMs)} s wall`);
    console.log(`    diff = ${(r.ms / floorMs).toFixed(2)}× the parse floor, ${(r.ms / summaryMs).toFixed(2)}× the summary floor`);
  }
  const summary = last?.status === 1 ? JSON.parse(last.stdout).summary : null;
  console.log(`  diff wall over ${ROUNDS} rounds: worst ${sec(Math.max(...walls))} s, best ${sec(Math.min(...walls))} s (target ≤ 5 s, ≤ 500 MB); load average now ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  console.log(`  found: ${summary ? `${summary.changed} changed, ${summary.inserted} inserted, ${summary.deleted} deleted, ${summary.equal} equal` : last?.stderr.trim()}`);
}
