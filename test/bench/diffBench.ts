// `agent-trace diff` on two 100,000-event murmur traces with 1% changes, in its own process (time and peak RSS).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateMurmurTrace } from './generateMurmur';

const DIFF_EVENTS = Number(process.env.BENCH_DIFF_EVENTS ?? 100_000);

/**
 * B is A with 1% of its lines edited, spread evenly, in turn: a tool call's command changed, a tool call
 * inserted after one (a fresh event id), a tool call deleted (a leaf, so no event loses its parent).
 */
function editedCopy(a: string, b: string): { changed: number; inserted: number; deleted: number } {
  const lines = readFileSync(a, 'utf8').split('\n').filter((l) => l.length > 0);
  const out: string[] = [];
  const counts = { changed: 0, inserted: 0, deleted: 0 };
  let edits = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (i % 46 !== 23 || !line.includes('"event_type":"tool_call"')) {
      out.push(line);
      continue;
    }
    const kind = edits++ % 3;
    if (kind === 0) {
      out.push(line.replace('cat README.md', 'cat CHANGES.md'));
      counts.changed++;
    } else if (kind === 1) {
      out.push(line, line.replace(/"event_id":"evt_([0-9a-f]+)"/, (_m, hex: string) => `"event_id":"evt_${'e'.repeat(8)}${hex.slice(8)}"`));
      counts.inserted++;
    } else counts.deleted++;
  }
  writeFileSync(b, out.join('\n') + '\n');
  return counts;
}

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
  const edits = editedCopy(a, b);
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
