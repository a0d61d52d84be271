// Conformance checks and verification on the generated murmur trace, next to its parse time.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runChecks } from '../../src/core/formatRules';
import { loadTrace } from '../../src/core/loadTrace';
import { IdLookup } from '../../src/core/navigation';
import { generateMurmurTrace } from './generateMurmur';

/** Prints parse time, check time, verify time and id lookup latency for `events` murmur events. */
export async function runBench(dir: string, events: number): Promise<void> {
  const file = join(dir, `murmur-${events}.jsonl`);
  if (!existsSync(file)) await generateMurmurTrace(file, events);
  const sizeMB = statSync(file).size / 2 ** 20;
  let t = performance.now();
  const model = await loadTrace(file);
  const parseMs = performance.now() - t;
  t = performance.now();
  const check = await runChecks(model, 'check');
  const checkMs = performance.now() - t;
  t = performance.now();
  const verify = await runChecks(model, 'verify');
  const verifyMs = performance.now() - t;
  console.log(`checks: ${events} murmur events, ${sizeMB.toFixed(0)} MB`);
  console.log(`  parse ${(parseMs / 1000).toFixed(2)} s; check ${(checkMs / 1000).toFixed(2)} s (${(checkMs / parseMs).toFixed(2)}× parse, target ≤ 2×, ${check.findings.length} findings)`);
  console.log(`  verify ${(verifyMs / 1000).toFixed(2)} s (${(verifyMs / parseMs).toFixed(2)}× parse, ${verify.findings.length} findings)`);
  t = performance.now();
  const lookup = new IdLookup(model);
  const buildMs = performance.now() - t;
  const probe = model.events.id(Math.floor(model.events.size / 2)) ?? '';
  t = performance.now();
  const found = lookup.find(probe);
  const lookupMs = performance.now() - t;
  console.log(`  id lookup: index of ${lookup.size} ids built in ${buildMs.toFixed(0)} ms once; one lookup ${lookupMs.toFixed(3)} ms (target < 50 ms; ${found ? found.references.length : 0} references)`);
}
