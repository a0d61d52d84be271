// The usage rollups' cost next to the load they follow (issue 16: under 10% of load time), on three shapes:
// murmur (one usage record per model call, closing aggregates), Claude Code (cache facts on every response,
// responses split over lines, cost-state totals) and OTLP (agent spans aggregating their chat spans).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import type { TraceModel } from '../../src/core/traceModel';
import { usageRollupOf } from '../../src/core/usage/rollup';
import { runStatistics } from '../../src/core/usage/runStatistics';
import { usageReport } from '../../src/core/usage/usageReport';
import { usageMismatches } from '../../src/core/usage/usageChecks';
import { generateMurmurTrace } from './generateMurmur';
import { generateClaudeCodeTrace, generateOtlpTrace } from './generateUsageShapes';

/** Wall and CPU milliseconds of `f` (CPU time is steadier than wall time on a loaded machine). */
async function timed<T>(f: () => T | Promise<T>): Promise<{ result: T; wall: number; cpu: number }> {
  const c = process.cpuUsage();
  const t = performance.now();
  const result = await f();
  const wall = performance.now() - t;
  const u = process.cpuUsage(c);
  return { result, wall, cpu: (u.user + u.system) / 1000 };
}

const gc = (): void => (global as { gc?: () => void }).gc?.();
const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const REPS = 5;
/** The goal was set on 200k events; a larger BENCH_EVENTS would make five loads of three shapes too slow. */
const MAX_EVENTS = 200_000;

const SHAPES: [string, (path: string, events: number) => Promise<void>][] = [
  ['murmur', generateMurmurTrace],
  ['claude-code', generateClaudeCodeTrace],
  ['otlp', generateOtlpTrace],
];

/** One repetition: a fresh load, then the first request for the usage (rollup + report), both timed. */
async function once(file: string): Promise<{ model: TraceModel; load: { wall: number; cpu: number }; usage: { wall: number; cpu: number } }> {
  gc();
  const load = await timed(() => loadTrace(file));
  const model = load.result;
  // The load's garbage is the load's: collected before the rollups are timed, so they do not pay for it.
  gc();
  const usage = await timed(() => usageReport(model, {}, usageRollupOf(model)));
  return { model, load, usage };
}

/**
 * Prints, per shape, load time, rollup time and their ratio: each repetition loads the trace again in this
 * process and times the rollup of that model; the figure is the median ratio of five (the first, with the
 * code not yet optimized, included).
 */
export async function runBench(dir: string, events: number): Promise<void> {
  const n = Math.min(events, MAX_EVENTS);
  for (const [shape, generate] of SHAPES) {
    // The murmur file is the one the other sections read.
    const file = join(dir, shape === 'murmur' ? `murmur-${n}.jsonl` : `usage-${shape}-${n}.jsonl`);
    if (!existsSync(file)) await generate(file, n);
    const runs = [];
    for (let r = 0; r < REPS; r++) runs.push(await once(file));
    const model = runs[runs.length - 1].model;
    const rollup = usageRollupOf(model);
    const report = usageReport(model);
    const cpu = runs.map((r) => r.usage.cpu / r.load.cpu);
    const wall = runs.map((r) => r.usage.wall / r.load.wall);
    console.log(`usage, ${shape}: ${model.events.size} events, ${rollup.countedIndex.length} counted records, ${report.byModel.length} models, ${report.byTool.length} tools`);
    console.log(`  loadTrace median ${(median(runs.map((r) => r.load.cpu)) / 1000).toFixed(2)} s CPU, ${(median(runs.map((r) => r.load.wall)) / 1000).toFixed(2)} s wall`);
    console.log(`  rollup + report (first request) median ${median(runs.map((r) => r.usage.cpu)).toFixed(0)} ms CPU, ${median(runs.map((r) => r.usage.wall)).toFixed(0)} ms wall`);
    console.log(`  ratio to load, median of ${REPS}: ${pct(median(cpu))} CPU (runs ${cpu.map(pct).join(' ')}), ${pct(median(wall))} wall (goal < 10%)`);
    const again = await timed(() => [usageReport(model), runStatistics(model), usageMismatches(model)]);
    console.log(`  report + statistics + totals check over the shared rollup ${again.cpu.toFixed(0)} ms CPU (${(again.result[2] as unknown[]).length} mismatches)`);
  }
}
