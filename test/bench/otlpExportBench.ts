// `agent-trace export --otlp -o` as a user runs it: the built CLI in its own process, timed from spawn to exit, with
// its peak RSS and CPU time, next to floors measured in the same round (issue 42: the export took 6 s and 1.6 GB for
// 198 MB of JSON before it streamed, then 13 s and 498 MB at 100k events while each batch was serialized, parsed
// back and stringified again).
//
// Options (environment):
//   BENCH_OTLP_EVENTS=N          murmur events of the main file (default 100000; 1000000 is the goal's figure: a
//                                1M-event export within a few hundred MiB peak RSS, a small multiple of summary's
//                                time; npm run bench stays at the default so it stays quick)
//   BENCH_OTLP_SOURCE_EVENTS=N   events of the OTLP source (a murmur file exported to OTLP, then exported again,
//                                its source attributes kept; default 20000: our OTLP reader holds the whole
//                                document, 3+ GB for the 300 MB of a 100k export)
//   BENCH_OTLP_CONTENT=0         leave out the --include-content run (its transcript walk reads every block's line
//                                on its own: minutes at 1M events)
//   OTLP_BENCH_ROUNDS=N          rounds (default 2)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { generateMurmurTrace } from './generateMurmur';

const EVENTS = Number(process.env.BENCH_OTLP_EVENTS ?? 100_000);
const SOURCE_EVENTS = Number(process.env.BENCH_OTLP_SOURCE_EVENTS ?? 20_000);
const ROUNDS = Number(process.env.OTLP_BENCH_ROUNDS ?? 2);
const CONTENT = process.env.BENCH_OTLP_CONTENT !== '0';

interface Run {
  ms: number;
  rssKB: number;
  cpuMs: number;
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `node ...args` in its own process: wall time from spawn to exit, peak RSS and CPU time (reportMaxRss.cjs). */
function runNode(args: string[]): Run {
  const t = performance.now();
  const r = spawnSync(process.execPath, ['-r', join(__dirname, 'reportMaxRss.cjs'), ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = performance.now() - t;
  return { ms, rssKB: Number(/maxRssKB (\d+)/.exec(r.stderr)?.[1] ?? NaN), cpuMs: Number(/cpuMs (\d+)/.exec(r.stderr)?.[1] ?? NaN), status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const sec = (ms: number): string => (ms / 1000).toFixed(2);
const mb = (kb: number): string => (kb / 1024).toFixed(0);
const x = (a: number, b: number): string => `${(a / b).toFixed(2)}×`;

/** One export's line and its ratios to summary of the same file (and the parse floor, when measured). */
function report(label: string, r: Run, out: string, summary: Run, parse?: { ms: number; rssKB: number }): void {
  const outMB = existsSync(out) ? statSync(out).size / 2 ** 20 : NaN;
  console.log(`    ${label}: ${sec(r.ms)} s wall (spawn to exit), ${sec(r.cpuMs)} s CPU, peak RSS ${mb(r.rssKB)} MB, ${outMB.toFixed(0)} MB of OTLP/JSON, exit ${r.status}`);
  const floor = parse ? `; ${x(r.ms, parse.ms)} the parse floor's time, ${x(r.rssKB, parse.rssKB)} its peak RSS` : '';
  console.log(`      = ${x(r.ms, summary.ms)} summary's time (${x(r.cpuMs, summary.cpuMs)} its CPU), ${x(r.rssKB, summary.rssKB)} its peak RSS${floor}`);
}

/**
 * Prints, per round, the wall time, CPU time and peak RSS of `agent-trace export FILE --otlp -o OUT` (with and
 * without `--include-content`) on murmur events, and of exporting an OTLP file again, with their ratios to floors
 * run in the same round: reading and JSON.parse of the file (benchProcess.ts, the least any export does) and
 * `agent-trace summary FILE --json` of the same file (loading the trace in the same CLI), so a loaded machine
 * weighs on both alike.
 */
export async function runBench(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `murmur-${EVENTS}.jsonl`);
  if (!existsSync(file)) await generateMurmurTrace(file, EVENTS);
  const small = join(dir, `murmur-${SOURCE_EVENTS}.jsonl`);
  if (!existsSync(small)) await generateMurmurTrace(small, SOURCE_EVENTS);
  const out = join(dir, `murmur-${EVENTS}.otlp.json`);
  const source = join(dir, `murmur-${SOURCE_EVENTS}.source.otlp.json`);
  const again = join(dir, `murmur-${SOURCE_EVENTS}.again.otlp.json`);
  console.log(`otlp export: ${EVENTS} murmur events (${(statSync(file).size / 2 ** 20).toFixed(0)} MB); load average ${loadavg().map((v) => v.toFixed(2)).join(' ')}`);
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`  round ${round}:`);
    const parse = runNode(['--require', 'tsx/cjs', join(__dirname, 'benchProcess.ts'), 'floor', 'parse', file]);
    const floor = { ms: Number(JSON.parse(parse.stdout.trim().split('\n').pop() ?? '{}').ms), rssKB: parse.rssKB };
    const summary = runNode(['dist/cli.js', 'summary', file, '--json']);
    console.log(`    floors: read + JSON.parse ${sec(floor.ms)} s (inside its process), peak RSS ${mb(parse.rssKB)} MB; summary --json ${sec(summary.ms)} s wall, ${sec(summary.cpuMs)} s CPU, peak RSS ${mb(summary.rssKB)} MB`);
    report('export --otlp', runNode(['dist/cli.js', 'export', file, '--otlp', '-o', out]), out, summary, floor);
    if (CONTENT) report('export --otlp --include-content', runNode(['dist/cli.js', 'export', file, '--otlp', '--include-content', '-o', out]), out, summary, floor);
    rmSync(out, { force: true });
    // An OTLP source: its spans' own attributes and times kept, merged span by span.
    if (!existsSync(source)) runNode(['dist/cli.js', 'export', small, '--otlp', '-o', source]);
    const sourceSummary = runNode(['dist/cli.js', 'summary', source, '--json']);
    console.log(`    OTLP source (${SOURCE_EVENTS} murmur events exported, ${(statSync(source).size / 2 ** 20).toFixed(0)} MB): summary --json ${sec(sourceSummary.ms)} s wall, peak RSS ${mb(sourceSummary.rssKB)} MB`);
    report('export --otlp of it', runNode(['dist/cli.js', 'export', source, '--otlp', '-o', again]), again, sourceSummary);
    rmSync(again, { force: true });
  }
  rmSync(source, { force: true });
}
