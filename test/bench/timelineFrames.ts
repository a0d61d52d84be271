// The Timeline tab in Chromium (issue 16: opens < 1 s after indexing; no frame over 50 ms while panning and
// zooming): time from the tab's click to the first bars drawn, then frame times (requestAnimationFrame
// timestamps) while scripted input pans, zooms and scrolls. Input is dispatched inside the page, several
// events per frame as a real mouse sends them. Printed, never asserted.
import type { TraceModel } from '../../src/core/traceModel';
import { buildOnce, connectViewer, launchBrowser, startServer } from '../webview/harness';

/** Frame statistics of one scripted gesture. */
interface Frames {
  median: number;
  p95: number;
  worst: number;
  over50: number;
  count: number;
  /** The frames over 50 ms as Chromium's long-animation-frame entries tell them: what the frame spent its time on. */
  long: string[];
  /** Long frames in which scripts ran 50 ms or more (the rest spent their time outside any script). */
  scriptBound: number;
}

/** The in-page script: opens the tab, then runs each gesture for a number of frames. */
async function inPage(): Promise<{ openMs: number; replyMs: number; bars: number; gestures: Record<string, Frames> }> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const g = globalThis as any;
  const doc = g.document;
  const frame = (): Promise<number> => new Promise((r) => g.requestAnimationFrame((t: number) => r(t)));
  const channel = new g.MessageChannel();
  const task = (): Promise<void> => new Promise((r) => ((channel.port1.onmessage = () => r()), channel.port2.postMessage(0)));
  // Long animation frames (> 50 ms) with their scripts, style and layout: whether a long frame is this code's.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const loaf: any[] = [];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  new g.PerformanceObserver((l: any) => loaf.push(...l.getEntries())).observe({ type: 'long-animation-frame', buffered: true });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const describe = (e: any): string => {
    const end = e.startTime + e.duration;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const scripts = e.scripts.map((s: any) => `${s.invoker || s.invokerType}${s.sourceFunctionName ? ` ${s.sourceFunctionName}@${s.sourceCharPosition}` : ''} ${s.duration.toFixed(0)} ms${s.forcedStyleAndLayoutDuration > 1 ? ` (forced layout ${s.forcedStyleAndLayoutDuration.toFixed(0)})` : ''}`);
    const render = e.renderStart > 0 ? end - e.renderStart : 0;
    const layout = e.styleAndLayoutStart > 0 ? end - e.styleAndLayoutStart : 0;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const scriptMs = e.scripts.reduce((a: number, s: any) => a + s.duration, 0);
    return `${e.duration.toFixed(0)} ms: scripts ${scriptMs.toFixed(0)} [${scripts.join('; ') || 'none'}], rendering ${render.toFixed(0)} (style and layout ${layout.toFixed(0)}), blocking ${e.blockingDuration.toFixed(0)}`;
  };
  let replyMs = -1;
  g.addEventListener('message', (e: { data?: { type?: string } }) => {
    if (e.data?.type === 'timeline' && replyMs < 0) replyMs = g.performance.now() - t0;
  });
  const t0 = g.performance.now();
  doc.querySelector('.main-view-tab[data-view="timeline"]').click();
  const view = doc.querySelector('.timeline-view');
  while (!(Number(view.dataset.bars) > 0)) await frame();
  await frame();
  const openMs = g.performance.now() - t0;
  const canvas = view.querySelector('.timeline-canvas');
  const r = canvas.getBoundingClientRect();
  const at = (dx: number, dy = 60) => ({ clientX: r.left + dx, clientY: r.top + dy, bubbles: true, cancelable: true });
  const wheel = (o: object) => canvas.dispatchEvent(new g.WheelEvent('wheel', o));
  const key = (k: string) => canvas.dispatchEvent(new g.KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
  const gestures: Record<string, Frames> = {};
  const run = async (name: string, n: number, act: (k: number) => void): Promise<void> => {
    const d: number[] = [];
    let last = await frame();
    const from = last;
    for (let k = 0; k < n; k++) {
      // Input arrives as a task between frames, as the browser delivers it: dispatched inside the frame's own
      // callbacks (after the view's draw wrote the page), every layout read in a handler was a forced layout.
      await task();
      act(k);
      const t = await frame();
      d.push(t - last);
      last = t;
    }
    d.sort((a, b) => a - b);
    const entries = loaf.filter((e) => e.startTime + e.duration > from && e.startTime < last);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const scriptBound = entries.filter((e) => e.scripts.reduce((a: number, x: any) => a + x.duration, 0) >= 50).length;
    gestures[name] = { median: d[Math.floor(d.length / 2)], p95: d[Math.floor(d.length * 0.95)], worst: d[d.length - 1], over50: d.filter((x) => x > 50).length, count: d.length, long: entries.map(describe), scriptBound };
  };
  // The machine's own share: as many frames with no input as the gestures take, in the same page.
  await run('idle floor (no input)', 420, () => undefined);
  await run('zoom in and out (Ctrl+wheel, 2 events a frame)', 80, (k) => {
    for (let j = 0; j < 2; j++) wheel({ ...at(r.width * 0.4), deltaY: k < 40 ? -100 : 100, ctrlKey: true });
  });
  await run('pan (drag, 4 moves a frame)', 80, (k) => {
    if (k === 0) canvas.dispatchEvent(new g.MouseEvent('mousedown', at(600)));
    for (let j = 0; j < 4; j++) g.dispatchEvent(new g.MouseEvent('mousemove', at(600 - (k * 4 + j) * 2)));
    if (k === 79) g.dispatchEvent(new g.MouseEvent('mouseup', at(600 - 320)));
  });
  await run('scroll rows (wheel, 3 events a frame)', 120, () => {
    for (let j = 0; j < 3; j++) wheel({ ...at(300), deltaY: 100 });
  });
  await run('keys (↓, PageDown, →, +, −)', 100, (k) => key(k < 40 ? 'ArrowDown' : k < 60 ? 'PageDown' : k < 80 ? 'ArrowRight' : k % 2 ? '+' : '-'));
  await run('jump to the end and back (End, Home)', 40, (k) => key(k % 2 ? 'Home' : 'End'));
  return { openMs, replyMs, bars: Number(view.dataset.total), gestures };
}

/** Opens the model's timeline in Chromium and prints the open time and the frame times of each gesture. */
export async function timelineFrames(model: TraceModel): Promise<void> {
  buildOnce();
  const browser = await launchBrowser();
  const { server, origin } = await startServer();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await connectViewer(page, origin, model, 'dark');
    const floor = await page.evaluate(async () => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const g = globalThis as any;
      const frame = (): Promise<number> => new Promise((r) => g.requestAnimationFrame((t: number) => r(t)));
      const d: number[] = [];
      let last = await frame();
      for (let k = 0; k < 60; k++) d.push(-last + (last = await frame()));
      return d.sort((a, b) => a - b)[30];
    });
    const s = await page.evaluate(inPage);
    console.log(`  Chromium: ${s.bars.toLocaleString('en-US')} bars; tab clicked to first bars drawn ${s.openMs.toFixed(0)} ms (goal < 1000; the host's first reply after ${s.replyMs.toFixed(0)} ms); idle frame ${floor.toFixed(1)} ms`);
    for (const [name, f] of Object.entries(s.gestures)) {
      console.log(`  ${name}: median ${f.median.toFixed(1)} ms (${(f.median / floor).toFixed(2)}× idle), p95 ${f.p95.toFixed(1)}, worst ${f.worst.toFixed(1)} ms, ${f.over50} of ${f.count} frames over 50 ms (long-animation-frame entries: ${f.long.length}, ${f.scriptBound} with ≥ 50 ms of script)`);
      for (const l of f.long) console.log(`    long frame ${l}`);
    }
  } finally {
    await browser.close();
    server.close();
  }
}
