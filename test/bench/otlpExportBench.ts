// `agent-trace export --otlp -o` on a 100,000-event murmur trace, as a user runs it: the built CLI in its own process,
// timed from spawn to exit, with its peak RSS, next to floors measured in the same round (issue 42: the export took
// 6 s and 1.6 GB for 198 MB of JSON before it streamed).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { generateMurmurTrace } from './generateMurmur';

const EVENTS = Number(process.env.BENCH_OTLP_EVENTS ?? 100_000);
const ROUNDS = Number(process.env.OTLP_BENCH_ROUNDS ?? 2);

interface Run {
  ms: number;
  rssKB: number;
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `node ...args` in its own process: wall time from spawn to exit and peak RSS (reportMaxRss.cjs). */
function runNode(args: string[]): Run {
  const t = performance.now();
  const r = spawnSync(process.execPath, ['-r', join(__dirname, 'reportMaxRss.cjs'), ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = performance.now() - t;
  return { ms, rssKB: Number(/maxRssKB (\d+)/.exec(r.stderr)?.[1] ?? NaN), status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const sec = (ms: number): string => (ms / 1000).toFixed(2);
const mb = (kb: number): string => (kb / 1024).toFixed(0);

/**
 * Prints, per round, the wall time and peak RSS of `agent-trace export FILE --otlp -o OUT` and its ratios to two
 * floors run in the same round: reading and JSON.parse of the file (benchProcess.ts, the least any export does) and
 * `agent-trace summary FILE --json` (loading the trace in the same CLI), so a loaded machine weighs on both alike.
 */
export async function runBench(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `murmur-${EVENTS}.jsonl`);
  if (!existsSync(file)) await generateMurmurTrace(file, EVENTS);
  const out = join(dir, `murmur-${EVENTS}.otlp.json`);
  console.log(`otlp export: ${EVENTS} murmur events (${(statSync(file).size / 2 ** 20).toFixed(0)} MB); load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  for (let round = 1; round <= ROUNDS; round++) {
    const parse = runNode(['--require', 'tsx/cjs', join(__dirname, 'benchProcess.ts'), 'floor', 'parse', file]);
    const floorMs = Number(JSON.parse(parse.stdout.trim().split('\n').pop() ?? '{}').ms);
    const summary = runNode(['dist/cli.js', 'summary', file, '--json']);
    const r = runNode(['dist/cli.js', 'export', file, '--otlp', '-o', out]);
    const outMB = existsSync(out) ? statSync(out).size / 2 ** 20 : NaN;
    console.log(`  round ${round}: export --otlp ${sec(r.ms)} s wall (spawn to exit), peak RSS ${mb(r.rssKB)} MB, ${outMB.toFixed(0)} MB of OTLP/JSON, exit ${r.status}`);
    console.log(`    floors: read + JSON.parse ${sec(floorMs)} s (inside its process), peak RSS ${mb(parse.rssKB)} MB; summary --json ${sec(summary.ms)} s wall, peak RSS ${mb(summary.rssKB)} MB`);
    console.log(`    export = ${(r.ms / floorMs).toFixed(2)}× the parse floor's time, ${(r.ms / summary.ms).toFixed(2)}× summary's; peak RSS ${(r.rssKB / parse.rssKB).toFixed(2)}× the parse floor's, ${(r.rssKB / summary.rssKB).toFixed(2)}× summary's`);
  }
  rmSync(out, { force: true });
}
