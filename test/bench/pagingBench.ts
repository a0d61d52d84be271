// Host paging cost (issue 14 item 5): how long the session takes to build one page of rows anywhere in a
// 1M-event tree, fully expanded (every event a row) as a scrollbar drag reaches it. Printed, never asserted.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrace, TraceModel } from '../../src/core/loadTrace';
import { RowProjection } from '../../src/viewer/rowModel';
import { buildRows, traceStartTime, treeSourceOf } from '../../src/viewer/traceRows';
import { generateMurmurTrace } from './generateMurmur';

/** Page size the webview asks for (webview/rowCache.ts PAGE_ROWS). */
const PAGE = 200;

/** Times `steps` pages spread evenly over the rows, as a top-to-bottom drag asks for them. */
export function pageTimes(model: TraceModel, rows: RowProjection, steps = 200): { median: number; p95: number; worst: number; rows: number; over: number[] } {
  const deco = { badgeOfLine: () => undefined, isMatch: () => false };
  const t0 = traceStartTime(model);
  const times: number[] = [];
  for (let k = 0; k <= steps; k++) {
    const start = Math.floor(((rows.size - PAGE) * k) / steps);
    const t = performance.now();
    const page = buildRows(model, rows, start, PAGE, deco, t0);
    times.push(performance.now() - t);
    if (page.length === 0) throw new Error('empty page');
  }
  // The steps (in drag order) whose page took 5 ms or more: the first ones of a pass, while V8 still compiles the
  // row code, or any one a GC fell into.
  const over = times.flatMap((t, k) => (t >= 5 ? [k] : []));
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], p95: times[Math.floor(times.length * 0.95)], worst: times[times.length - 1], rows: rows.size, over };
}

/** `npm run bench` section: page build times on the generated murmur trace of `events` events. */
export async function runBench(dir: string, events: number): Promise<void> {
  const file = join(dir, `murmur-${events}.jsonl`);
  if (!existsSync(file)) await generateMurmurTrace(file, events);
  const model = await loadTrace(file);
  const rows = new RowProjection(treeSourceOf(model));
  rows.expandAll();
  const cold = pageTimes(model, rows);
  const warm = pageTimes(model, rows);
  console.log(`paging: ${model.events.size} events, ${rows.size} rows (all expanded), ${PAGE}-row pages at 201 positions top to bottom`);
  const overText = (p: { over: number[] }) => `; ${p.over.length} of 201 pages took 5 ms or more${p.over.length > 0 ? ` (steps ${p.over.join(', ')})` : ''}`;
  console.log(`  first pass: median ${cold.median.toFixed(2)} ms, p95 ${cold.p95.toFixed(2)} ms, worst ${cold.worst.toFixed(2)} ms per page (target < 5 ms)${overText(cold)}`);
  console.log(`  second pass: median ${warm.median.toFixed(2)} ms, p95 ${warm.p95.toFixed(2)} ms, worst ${warm.worst.toFixed(2)} ms per page${overText(warm)}`);
}

if (require.main === module) {
  runBench(process.argv[2] ?? join(__dirname, '..', '..', '.bench'), Number(process.env.BENCH_EVENTS ?? 1_000_000)).catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
}
