// The timeline tab's host side on a large trace (issue 16: opens < 1 s after indexing; pan/zoom frames ≤ 50 ms).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { buildTimeline, timelineDensity, timelineSlice } from '../../src/viewer/timeline/timelineData';
import { generateMurmurTrace } from './generateMurmur';
import { timelineFrames } from './timelineFrames';

/** Prints the time to build the timeline, answer its first page with the minimap, and answer scroll pages. */
export async function runBench(dir: string, events: number): Promise<void> {
  const file = join(dir, `murmur-${events}.jsonl`);
  mkdirSync(dir, { recursive: true });
  if (!existsSync(file)) await generateMurmurTrace(file, events);
  const model = await loadTrace(file);
  let t = performance.now();
  const tl = buildTimeline(model);
  const buildMs = performance.now() - t;
  t = performance.now();
  const first = JSON.stringify({ slice: timelineSlice(model, tl, 0, 500), density: timelineDensity(tl, 400) });
  const firstMs = performance.now() - t;
  // Scrolling asks one 1,000-bar page at a time; the worst of 50 spread over the run is the frame's host share.
  let worst = 0;
  for (let k = 0; k < 50; k++) {
    const s = performance.now();
    JSON.stringify(timelineSlice(model, tl, Math.floor((k / 50) * tl.nodes.length), 1000));
    worst = Math.max(worst, performance.now() - s);
  }
  console.log(`timeline: ${tl.nodes.length} bars of ${model.events.size} events`);
  console.log(`  open after indexing: build ${buildMs.toFixed(0)} ms + first page and minimap ${firstMs.toFixed(0)} ms (${(first.length / 1024).toFixed(0)} KB) = ${(buildMs + firstMs).toFixed(0)} ms; scroll page (1,000 bars) worst ${worst.toFixed(1)} ms`);
  await timelineFrames(model);
}
