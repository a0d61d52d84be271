// `agent-trace diff` on two 100,000-event murmur traces with 1% changes, in its own process (time and peak RSS).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { editedMurmurCopy, generateMurmurTrace } from './generateMurmur';

const DIFF_EVENTS = Number(process.env.BENCH_DIFF_EVENTS ?? 100_000);

/** Runs the built CLI in its own process: wall time, CPU time (all threads) and peak RSS. */
function runCli(args: string[]): { ms: number; cpuMs: number; rssKB: number; status: number | null; stdout: string; stderr: string } {
  const t = performance.now();
  const r = spawnSync(process.execPath, ['-r', join(__dirname, 'reportMaxRss.cjs'), 'dist/cli.js', ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = performance.now() - t;
  const rssKB = Number(/maxRssKB (\d+)/.exec(r.stderr)?.[1] ?? NaN);
  const cpuMs = Number(/cpuMs (\d+)/.exec(r.stderr)?.[1] ?? NaN);
  return { ms, cpuMs, rssKB, status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Prints wall time, CPU time and peak RSS of `agent-trace diff A B --json` against the targets (≤ 5 s, ≤ 500 MB),
 * and as a ratio to a floor measured in the same run: `agent-trace summary` of A and of B (loading both runs),
 * so a loaded machine's figures still compare.
 */
export async function runBench(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const a = join(dir, `murmur-${DIFF_EVENTS}.jsonl`);
  if (!existsSync(a)) await generateMurmurTrace(a, DIFF_EVENTS);
  const b = join(dir, `murmur-${DIFF_EVENTS}-edited.jsonl`);
  const edits = editedMurmurCopy(a, b);
  const floorA = runCli(['summary', a, '--json']);
  const floorB = runCli(['summary', b, '--json']);
  const r = runCli(['diff', a, b, '--json']);
  const summary = r.status === 1 ? JSON.parse(r.stdout).summary : null;
  const floorCpu = floorA.cpuMs + floorB.cpuMs;
  console.log(`diff: ${DIFF_EVENTS} murmur events each (${(statSync(a).size / 2 ** 20).toFixed(0)} MB), B edited: ${edits.changed} changed, ${edits.inserted} inserted, ${edits.deleted} deleted`);
  console.log(`  floor, agent-trace summary A + summary B (own processes): ${((floorA.ms + floorB.ms) / 1000).toFixed(2)} s wall, ${(floorCpu / 1000).toFixed(2)} s CPU`);
  console.log(`  agent-trace diff --json (own process): ${(r.ms / 1000).toFixed(2)} s wall, ${(r.cpuMs / 1000).toFixed(2)} s CPU (target ≤ 5 s; ${(r.cpuMs / floorCpu).toFixed(2)}× the floor's CPU), peak RSS ${(r.rssKB / 1024).toFixed(0)} MB (target ≤ 500 MB), exit ${r.status}`);
  console.log(`  found: ${summary ? `${summary.changed} changed, ${summary.inserted} inserted, ${summary.deleted} deleted, ${summary.equal} equal` : r.stderr.trim()}`);
}
