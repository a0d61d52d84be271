// `npm run bench`: prints speed and memory figures (never asserts them). Set BENCH_EVENTS to scale.
import '../../src/node/register'; // the core reads through the Node file system
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { generateMurmurTrace } from './generateMurmur';

const dir = join(__dirname, '..', '..', '.bench');
const events = Number(process.env.BENCH_EVENTS ?? 1_000_000);

/** Samples RSS every 20 ms while `f` runs and returns its result, wall time and peak RSS. */
export async function measure<T>(f: () => Promise<T>): Promise<{ result: T; ms: number; peakRssMB: number; heapMB: number }> {
  (global as { gc?: () => void }).gc?.();
  const before = process.memoryUsage();
  let peak = before.rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t = performance.now();
  const result = await f();
  const ms = performance.now() - t;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  // What stays alive (the model), not the garbage of reading: collect before measuring the heap. Twice, a turn
  // apart: the buffers a finished read dropped (grown columns trimmed) are only released by a later collection.
  (global as { gc?: () => void }).gc?.();
  await new Promise((r) => setImmediate(r));
  (global as { gc?: () => void }).gc?.();
  // Typed-array columns live outside the JS heap: what the model keeps is the heap plus array buffers.
  const m = process.memoryUsage();
  return { result, ms, peakRssMB: peak / 2 ** 20, heapMB: (m.heapUsed + m.arrayBuffers - before.heapUsed - before.arrayBuffers) / 2 ** 20 };
}

async function benchCore(): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `murmur-${events}.jsonl`);
  if (!existsSync(file)) await generateMurmurTrace(file, events);
  const sizeMB = statSync(file).size / 2 ** 20;
  const m = await measure(() => loadTrace(file));
  const model = m.result;
  console.log(`core: ${events} events, ${sizeMB.toFixed(0)} MB (${model.format})`);
  console.log(`  loadTrace (index + parse + tree): ${(m.ms / 1000).toFixed(2)} s, ${(sizeMB / (m.ms / 1000)).toFixed(0)} MB/s`);
  console.log(`  peak RSS ${m.peakRssMB.toFixed(0)} MB, retained by the model after GC (heap + array buffers) ${m.heapMB.toFixed(0)} MB, ${((m.heapMB * 2 ** 20) / model.events.size).toFixed(0)} B/event (target ≤ 100; file ${sizeMB.toFixed(0)} MB)`);
  const parts = Object.entries(model.events.footprint()).filter(([, b]) => b >= model.events.size / 20).map(([k, b]) => `${k} ${(b / model.events.size).toFixed(1)}`);
  console.log(`  of which the event table's columns (B/event): ${parts.join(', ')}`);
  const ids: string[] = [];
  for (let i = 0; i < model.events.size; i += Math.max(1, Math.floor(model.events.size / 1000))) ids.push(model.events.id(i) ?? '');
  const t = performance.now();
  let found = 0;
  for (let r = 0; r < 100; r++) for (const id of ids) if (model.tree.idIndex.get(id) !== undefined) found++;
  const perLookupUs = ((performance.now() - t) * 1000) / (100 * ids.length);
  console.log(`  id lookup: ${perLookupUs.toFixed(3)} µs per lookup (${found} found)`);
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const sections: [string, () => Promise<void>][] = [['core', benchCore]];
  for (const extra of ['lumenBench', 'checksBench', 'editorBench', 'usageBench', 'findBench', 'cliBench', 'formatsBench', 'pagingBench', 'rowLatencyBench', 'transcriptBench', 'diffBench', 'timelineBench', 'tailBench', 'findingsBench', 'sessionsBench', 'searchBench', 'reportBench', 'otlpExportBench']) {
    const p = join(__dirname, `${extra}.ts`);
    if (existsSync(p)) {
      // Each section in a process of its own: its memory figures are its own, not what earlier sections left.
      sections.push([extra, async () => {
        const r = spawnSync(process.execPath, ['--expose-gc', '--require', 'tsx/cjs', join(__dirname, 'runSection.ts'), p, dir, String(events)], { stdio: 'inherit' });
        if (r.status !== 0) process.exitCode = 1;
      }]);
    }
  }
  for (const [name, run] of sections) if (only.length === 0 || only.includes(name)) await run();
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
