// The usage rollups' cost next to the load they follow (issue 16: under 10% of load time).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { rollUp } from '../../src/core/usage/rollup';
import { usageReport } from '../../src/core/usage/usageReport';
import { usageMismatches } from '../../src/core/usage/usageChecks';
import { generateMurmurTrace } from './generateMurmur';

/** Prints load time, rollup time and their ratio for the generated murmur trace of `events` events. */
export async function runBench(dir: string, events: number): Promise<void> {
  const file = join(dir, `murmur-${events}.jsonl`);
  if (!existsSync(file)) await generateMurmurTrace(file, events);
  let t = performance.now();
  const model = await loadTrace(file);
  const loadMs = performance.now() - t;
  t = performance.now();
  const rollup = rollUp(model);
  const report = usageReport(model, {}, rollup);
  const rollupMs = performance.now() - t;
  t = performance.now();
  const mismatches = usageMismatches(model, rollup);
  const checkMs = performance.now() - t;
  console.log(`usage: ${model.events.size} events, ${rollup.counted.length} counted records, ${report.byModel.length} models, ${report.byTool.length} tools`);
  console.log(`  loadTrace ${(loadMs / 1000).toFixed(2)} s; rollups + report ${rollupMs.toFixed(0)} ms (${((100 * rollupMs) / loadMs).toFixed(1)}% of load); totals check ${checkMs.toFixed(0)} ms (${mismatches.length} mismatches)`);
}
