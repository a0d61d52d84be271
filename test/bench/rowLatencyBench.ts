// How long the viewer's row replies take while the trace is read and checked (issue 14 item 4, issue 36): the
// session pages rows on this thread as the extension host does, while the full read runs with verify + check
// riding along (as a trace opens with checks on), and while verify + check re-read the loaded model (the Verify
// command, the re-check after an append). A request is due every frame; its latency counts from when it was due,
// so time the thread spent busy is in the figure. Printed, never asserted.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runChecks } from '../../src/core/formatRules';
import { loadTrace, loadTraceChecked, TraceModel } from '../../src/core/loadTrace';
import type { HostMessage } from '../../src/protocol';
import { ViewerSession } from '../../src/viewer/viewerSession';
import { FULL_READ_CHUNK } from '../../src/vscode/editor/readChunks';
import { buildOnce } from '../webview/harness';
import { generateLumenTrace } from './lumenBench';

const FRAME_MS = 16;
const PAGE = 400;

/** Row-reply latencies (ms) while `checks` runs. */
async function latenciesDuring(model: TraceModel, checks: () => Promise<unknown>): Promise<{ lat: number[]; checksMs: number }> {
  let version = 0;
  let total = 0;
  let replied = 0;
  const session = new ViewerSession({
    post: (m: HostMessage) => {
      if (m.type === 'rowsState') [version, total] = [m.rowsVersion, m.totalRows];
      if (m.type === 'rows') replied++;
    },
  } as never);
  session.setModel(model, 'ready', null);
  await session.handle({ type: 'ready', state: null });
  const lat: number[] = [];
  let running = true;
  const t0 = performance.now();
  const work = checks().finally(() => (running = false));
  let due = performance.now() + FRAME_MS;
  let k = 0;
  while (running) {
    await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    const before = replied;
    const start = Math.floor(((k++ * 7919) % 1000) / 1000 * Math.max(0, total - PAGE));
    await session.handle({ type: 'requestRows', rowsVersion: version, start, count: PAGE });
    if (replied === before) throw new Error('no rows reply');
    const now = performance.now();
    lat.push(now - due);
    due = Math.max(now, due + FRAME_MS);
  }
  await work;
  return { lat, checksMs: performance.now() - t0 };
}

function summary(lat: number[]): string {
  const s = [...lat].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(1);
  return `${s.length} requests: median ${q(0.5)} ms, p95 ${q(0.95)} ms, worst ${s[s.length - 1].toFixed(1)} ms`;
}

/** Measures row latency during checks in the thread and in the worker, on a generated lumen trace of `mb` MB. */
export async function benchRowLatency(dir: string, mb: number): Promise<void> {
  const file = join(dir, `rows-during-checks-${mb}mb-4b1f8e2a-93c5-4d7e-8f60-2a9b7c1d5e34.jsonl`);
  if (!existsSync(file)) await generateLumenTrace(file, { targetBytes: mb * 2 ** 20 });
  buildOnce();
  const model = await loadTrace(file);
  const sizeMB = statSync(file).size / 2 ** 20;
  console.log(`rows during checks on open: ${model.events.size} events, ${sizeMB.toFixed(0)} MB lumen, a ${PAGE}-row page due every ${FRAME_MS} ms`);
  const idle = await latenciesDuring(model, () => new Promise((r) => setTimeout(r, 1000)));
  console.log(`  no checks running: ${summary(idle.lat)}`);
  const thread = await latenciesDuring(model, async () => {
    await runChecks(model, 'verify');
    await runChecks(model, 'check');
  });
  console.log(`  verify + check over the loaded model: ${summary(thread.lat)}; checks took ${(thread.checksMs / 1000).toFixed(2)} s`);
  const riding = await latenciesDuring(model, () => loadTraceChecked(file, { chunkSize: FULL_READ_CHUNK, checks: { modes: ['verify', 'check'] } }));
  console.log(`  the full read with verify + check riding along (a trace opening with checks on): ${summary(riding.lat)}; read and checks took ${(riding.checksMs / 1000).toFixed(2)} s`);
  // The quick first look is on screen while the full read runs on the same thread: how often it yields matters.
  const quick = await loadTrace(file, { stopAfterBytes: 2 << 20 });
  for (const chunkSize of [1 << 20, FULL_READ_CHUNK]) {
    const r = await latenciesDuring(quick, () => loadTrace(file, { chunkSize }));
    console.log(`  during the full read in ${chunkSize >> 10} KiB chunks: ${summary(r.lat)}; read took ${(r.checksMs / 1000).toFixed(2)} s`);
  }
}

/** `npm run bench` section (ROWS_BENCH_MB to scale; default the check-on-open limit, 50 MB). */
export async function runBench(dir: string): Promise<void> {
  await benchRowLatency(dir, Number(process.env.ROWS_BENCH_MB ?? 50));
}

if (require.main === module) {
  runBench(process.argv[2] ?? join(__dirname, '..', '..', '.bench')).catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
}
