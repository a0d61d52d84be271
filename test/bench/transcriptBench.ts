// The Transcript view's figures for `npm run bench` (issue 15): time from clicking the Transcript tab to its first
// blocks on screen for a generated murmur trace, the host-side index time, and frame times while scrolling
// through a few thousand blocks (pages load as the reader nears the end). Printed, never asserted.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { buildTranscriptIndex } from '../../src/viewer/transcript/transcriptIndex';
import type { Page } from 'playwright-core';
import { buildOnce, connectViewer, launchBrowser, startServer } from '../webview/harness';
import { formatCpu, traceMainThread } from './mainThreadCpu';
import { generateMurmurTrace } from './generateMurmur';

const FRAMES = 400;

/** Scrolls the transcript by `step` px a frame for {@link FRAMES} frames (0: the idle floor) and times the frames. */
async function scrollFrames(page: Page, step: number): Promise<{ median: number; worst: number; long: number; reached: number; inDom: number }> {
  return page.evaluate(async ([step, n]) => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const g = globalThis as any;
    const el = g.document.querySelector('.transcript');
    const frame = () => new Promise<number>((r) => g.requestAnimationFrame((t: number) => r(t)));
    const frames: number[] = [];
    let last = await frame();
    for (let k = 0; k < n; k++) {
      el.scrollTop += step;
      const t = await frame();
      frames.push(t - last);
      last = t;
    }
    frames.sort((a, b) => a - b);
    const lastBlock = [...el.querySelectorAll('.transcript-block')].pop();
    return { median: frames[Math.floor(frames.length / 2)], worst: frames[frames.length - 1], long: frames.filter((f) => f > 50).length, reached: Number(lastBlock?.dataset.line ?? 0), inDom: el.querySelectorAll('.transcript-block').length };
  }, [step, FRAMES] as const);
}

/** Runs the transcript benchmark on the generated murmur trace of `events` events in `dir`. */
export async function runBench(dir: string, events: number): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `murmur-${events}.jsonl`);
  if (!existsSync(file)) await generateMurmurTrace(file, events);
  buildOnce();
  const model = await loadTrace(file);
  const t0 = performance.now();
  const index = buildTranscriptIndex(model);
  const tIndex = performance.now() - t0;
  const browser = await launchBrowser();
  const { server, origin } = await startServer();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await connectViewer(page, origin, model, 'dark');
    // In the page: from the click on the tab to the first frame with blocks on screen (the host's answer
    // travels through the harness, as it would through VS Code's postMessage).
    const tOpen = await page.evaluate(async () => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const g = globalThis as any;
      const t = performance.now();
      g.document.querySelector('#main-tab-transcript').click();
      while (!g.document.querySelector('.transcript-block')) await new Promise((r) => g.requestAnimationFrame(r));
      await new Promise((r) => g.requestAnimationFrame(r));
      return performance.now() - t;
    });
    const idle = await scrollFrames(page, 0);
    const scroll = await scrollFrames(page, 500);
    // The same again under a performance trace: what the main thread itself spent a frame on (load-independent).
    const idleCpu = await traceMainThread(page, () => scrollFrames(page, 0));
    const scrollCpu = await traceMainThread(page, () => scrollFrames(page, 500));
    console.log(`transcript: ${model.events.size} events, ${index.nodes.length} blocks`);
    console.log(`  index: ${tIndex.toFixed(0)} ms; Transcript tab clicked to first blocks shown: ${tOpen.toFixed(0)} ms`);
    const f = (x: { median: number; worst: number; long: number }) => `median frame ${x.median.toFixed(1)} ms, worst ${x.worst.toFixed(1)} ms, ${x.long} frames over 50 ms`;
    console.log(`  idle floor, 400 frames: ${f(idle)}`);
    console.log(`  scrolling 400 steps of 500 px (to line ${scroll.reached}): ${f(scroll)} (median ${(scroll.median / idle.median).toFixed(2)}x the floor's); ${scroll.inDom} blocks in the DOM`);
    console.log(`  traced, idle: ${formatCpu(idleCpu.cpu, FRAMES)}`);
    console.log(`  traced, 400 more steps (to line ${scrollCpu.result.reached}, ${f(scrollCpu.result)}): ${formatCpu(scrollCpu.cpu, FRAMES)}`);
  } finally {
    await browser.close();
    server.close();
  }
}
