// The usage rollups' cost next to the load they follow (issue 16: under 10% of load time).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { usageRollupOf } from '../../src/core/usage/rollup';
import { runStatistics } from '../../src/core/usage/runStatistics';
import { usageReport } from '../../src/core/usage/usageReport';
import { usageMismatches } from '../../src/core/usage/usageChecks';
import { generateMurmurTrace } from './generateMurmur';

/** Wall and CPU milliseconds of `f` (CPU time is steadier than wall time on a loaded machine). */
async function timed<T>(f: () => T | Promise<T>): Promise<{ result: T; wall: number; cpu: number }> {
  const c = process.cpuUsage();
  const t = performance.now();
  const result = await f();
  const wall = performance.now() - t;
  const u = process.cpuUsage(c);
  return { result, wall, cpu: (u.user + u.system) / 1000 };
}

const pct = (a: number, b: number): string => `${((100 * a) / b).toFixed(1)}%`;

/** Prints load time, rollup time and their ratio for the generated murmur trace of `events` events. */
export async function runBench(dir: string, events: number): Promise<void> {
  const file = join(dir, `murmur-${events}.jsonl`);
  if (!existsSync(file)) await generateMurmurTrace(file, events);
  const load = await timed(() => loadTrace(file));
  const model = load.result;
  // The load's garbage is the load's: collected before the rollups are timed, so they do not pay for it.
  (global as { gc?: () => void }).gc?.();
  const first = await timed(() => usageReport(model, {}, usageRollupOf(model)));
  // The header, the statistics tab and the totals check ask again: they share the first rollup.
  const again = await timed(() => [usageReport(model), runStatistics(model), usageMismatches(model)]);
  const rollup = usageRollupOf(model);
  const report = first.result;
  console.log(`usage: ${model.events.size} events, ${rollup.countedIndex.length} counted records, ${report.byModel.length} models, ${report.byTool.length} tools`);
  console.log(`  loadTrace ${(load.wall / 1000).toFixed(2)} s wall, ${(load.cpu / 1000).toFixed(2)} s CPU`);
  console.log(`  rollup + report (first request) ${first.wall.toFixed(0)} ms wall = ${pct(first.wall, load.wall)} of load; ${first.cpu.toFixed(0)} ms CPU = ${pct(first.cpu, load.cpu)} of load's CPU (goal < 10%)`);
  console.log(`  report + statistics + totals check over the shared rollup ${again.wall.toFixed(0)} ms wall, ${again.cpu.toFixed(0)} ms CPU (${(again.result[2] as unknown[]).length} mismatches)`);
}
