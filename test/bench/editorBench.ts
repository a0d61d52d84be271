// The viewer's figures for `npm run bench`: time to the first rows visible in the real webview (Chromium),
// time to fully indexed (beside the CLI's `summary` of the same file), peak memory of the host side and of the webview, and frame times while scrolling
// through every row. Printed, never asserted.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import type { TraceModel } from '../../src/core/loadTrace';
import { openTraceReader } from '../../src/core/traceReader';
import { FULL_READ_CHUNK } from '../../src/vscode/editor/readChunks';
import type { Browser } from 'playwright-core';
import { buildOnce, connectViewer, launchBrowser, startServer, ViewerPage } from '../webview/harness';
import { generateMurmurTrace } from './generateMurmur';
import { formatCpu, traceMainThread } from './mainThreadCpu';

const QUICK_LOOK_BYTES = 2 << 20;
/** Rounds of the viewer's read and the CLI's summary, alternating (EDITOR_BENCH_ROUNDS, default 3). */
const ROUNDS = Math.max(1, Number(process.env.EDITOR_BENCH_ROUNDS ?? 3));

/** Runs the editor benchmark on the generated murmur trace of `events` events in `dir`. */
export async function runBench(dir: string, events: number): Promise<void> {
  const file = join(dir, `murmur-${events}.jsonl`);
  if (!existsSync(file)) await generateMurmurTrace(file, events);
  const sizeMB = statSync(file).size / 2 ** 20;
  buildOnce();
  const browser = await launchBrowser();
  const { server, origin } = await startServer();
  try {
    // Warm the browser once: VS Code's webview process is already running when a trace is opened.
    const warm = await browser.newPage();
    await connectViewer(warm, origin, null, 'dark');
    await warm.close();
    // This process plays the extension host (the browser is another process): its RSS from here on is the
    // viewer's host memory, as `npm run bench` runs each section in a process of its own.
    gc();
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    // The first round also measures memory, scrolling and the webview's heap; its model is let go before the next.
    type Times = { tQuick: number; tFirstRows: number; tIndexed: number; tFullRows: number };
    const m = await (async () => {
      const first = await openOnce(browser, origin, file);
      const { v, full, quick } = first;
      peak = Math.max(peak, process.memoryUsage().rss);
      clearInterval(sampler);
      // What the host keeps while the trace is open: the session holds the full model.
      gc();
      const rssAfterGc = process.memoryUsage().rss;
      const scroll = await scrollThrough(v);
      // Again under a performance trace: the main thread's own CPU, which the machine's load does not inflate.
      const traced = await traceMainThread(v.page, () => scrollThrough(v));
      const heap = await webviewHeapMB(v);
      await v.page.close();
      const times: Times = { tQuick: first.tQuick, tFirstRows: first.tFirstRows, tIndexed: first.tIndexed, tFullRows: first.tFullRows };
      return { times, events: full.events.size, earlyEvents: (quick as TraceModel | null)?.events.size ?? 0, rssAfterGc, scroll, traced, heap };
    })();
    const { scroll, traced, heap, rssAfterGc } = m;
    const first = m.times;
    // The machine's speed drifts by tens of percent within minutes: the viewer's read and the CLI's summary
    // alternate (viewer, CLI, viewer, CLI…), and the ratio is of the best of each.
    gc();
    const viewer: Times[] = [first];
    const cli = [cliSummarySeconds(file)];
    for (let r = 1; r < ROUNDS; r++) {
      const again = await openOnce(browser, origin, file);
      await again.v.page.close();
      viewer.push({ tQuick: again.tQuick, tFirstRows: again.tFirstRows, tIndexed: again.tIndexed, tFullRows: again.tFullRows });
      gc();
      cli.push(cliSummarySeconds(file));
    }
    const best = (xs: number[]) => Math.min(...xs);
    const indexed = best(viewer.map((o) => o.tIndexed)) / 1000;
    const cliBest = best(cli);
    const list = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(', ');
    console.log(`editor: ${m.events} events, ${sizeMB.toFixed(0)} MB; ${ROUNDS} rounds of the viewer and the CLI, alternating`);
    const earlyEvents = m.earlyEvents;
    console.log(`  first rows visible in the webview: ${(first.tFirstRows / 1000).toFixed(2)} s after opening (page load, and the read's first ${QUICK_LOOK_BYTES >> 20} MB, ${earlyEvents} events, at ${(first.tQuick / 1000).toFixed(2)} s); later rounds ${list(viewer.slice(1).map((o) => o.tFirstRows / 1000))} s`);
    console.log(`  fully indexed (read, tree and the session's model): best ${indexed.toFixed(2)} s = ${(indexed / cliBest).toFixed(2)}× the CLI's \`summary\` of the same file (best ${cliBest.toFixed(2)} s, its own process; target ≤ 1.2×); each round ${viewer.map((o, k) => `${(o.tIndexed / 1000).toFixed(2)}/${cli[k].toFixed(2)} s`).join(', ')}; full tree shown: ${(first.tFullRows / 1000).toFixed(2)} s (first round)`);
    const mb = (x: number) => (x / 2 ** 20).toFixed(0);
    console.log(`  viewer host RSS (this process, as the extension host, first round): ${mb(rssBefore)} → peak ${mb(peak)} → ${mb(rssAfterGc)} MiB after GC with the model open (+${mb(peak - rssBefore)} peak, +${mb(rssAfterGc - rssBefore)} retained, ${((rssAfterGc - rssBefore) / m.events).toFixed(0)} B/event; file ${sizeMB.toFixed(0)} MB)`);
    console.log(`  webview JS heap ${heap.used.toFixed(1)} MB used of ${heap.total.toFixed(1)} MB, ${heap.nodes} DOM nodes`);
    console.log(`  scrolling all ${m.events} rows in ${scroll.steps} steps: median frame ${scroll.median.toFixed(1)} ms, worst ${scroll.worst.toFixed(1)} ms, ${scroll.long} frames over 50 ms`);
    console.log(`  rows shown while scrolling: ${scroll.filled}/${scroll.steps} steps had their rows within 2 frames`);
    console.log(`  traced, the same scroll again: ${traced.result.filled}/${traced.result.steps} steps within 2 frames, ${traced.result.long} frames over 50 ms; ${formatCpu(traced.cpu, 2 * traced.result.steps)}`);
  } finally {
    await browser.close();
    server.close();
  }
}

/**
 * Opens `file` as the editor does (TraceDocument): one read of the file, in the document's chunks, whose first pages
 * are shown as soon as both they and the webview are there; the complete model replaces them at the end. Times
 * from the start of the read.
 */
async function openOnce(browser: Browser, origin: string, file: string): Promise<{ v: ViewerPage; full: TraceModel; quick: TraceModel | null; tQuick: number; tFirstRows: number; tIndexed: number; tFullRows: number }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const t0 = performance.now();
  let v: ViewerPage | null = null;
  let quick: TraceModel | null = null;
  let tQuick = 0;
  const reading = openTraceReader(file, {
    chunkSize: FULL_READ_CHUNK,
    earlyBytes: QUICK_LOOK_BYTES,
    onEarlyModel: (partial) => {
      tQuick = performance.now() - t0;
      quick = partial;
      v?.session.setModel(partial, 'loading', null);
    },
  });
  v = await connectViewer(page, origin, null, 'dark');
  if (quick) v.session.setModel(quick, 'loading', null);
  await v.waitForRows(true);
  const tFirstRows = performance.now() - t0;
  const full = (await reading).model;
  v.session.setModel(full, 'ready', null);
  const tIndexed = performance.now() - t0;
  await v.settle();
  await v.waitForRows();
  const tFullRows = performance.now() - t0;
  return { v, full, quick, tQuick, tFirstRows, tIndexed, tFullRows };
}

/** Wall time of `agent-trace summary FILE` (the built CLI) in a process of its own, in seconds. */
function cliSummarySeconds(file: string): number {
  const t = performance.now();
  const r = spawnSync(process.execPath, [join(__dirname, '..', '..', 'dist', 'cli.js'), 'summary', file], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`agent-trace summary exited with ${r.status}`);
  return (performance.now() - t) / 1000;
}

function gc(): void {
  const g = (global as { gc?: () => void }).gc;
  if (!g) throw new Error('run with node --expose-gc (npm run bench does)');
  g();
}

/** Scrolls from top to bottom in fixed steps, timing frames; counts steps whose rows arrived quickly. */
async function scrollThrough(v: ViewerPage): Promise<{ steps: number; median: number; worst: number; long: number; filled: number }> {
  return v.page.evaluate(async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const g = globalThis as any;
    const el = g.document.querySelector('.tree-scroll');
    const frame = () => new Promise<number>((r) => g.requestAnimationFrame((t: number) => r(t)));
    const frames: number[] = [];
    const steps = 200;
    let filled = 0;
    let last = await frame();
    for (let k = 0; k <= steps; k++) {
      el.scrollTop = ((el.scrollHeight - el.clientHeight) * k) / steps;
      let t = await frame();
      frames.push(t - last);
      last = t;
      t = await frame();
      frames.push(t - last);
      last = t;
      if (!g.document.querySelector('.row.placeholder:not([hidden])')) filled++;
    }
    frames.sort((a, b) => a - b);
    return { steps: steps + 1, median: frames[Math.floor(frames.length / 2)], worst: frames[frames.length - 1], long: frames.filter((f) => f > 50).length, filled };
  });
}

async function webviewHeapMB(v: ViewerPage): Promise<{ used: number; total: number; nodes: number }> {
  const cdp = await v.page.context().newCDPSession(v.page);
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const m = (name: string) => metrics.find((x) => x.name === name)?.value ?? 0;
  return { used: m('JSHeapUsedSize') / 2 ** 20, total: m('JSHeapTotalSize') / 2 ** 20, nodes: m('Nodes') };
}
