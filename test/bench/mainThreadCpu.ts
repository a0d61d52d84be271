// The renderer's main-thread work while a gesture runs, from a Chromium performance trace (CDP `Tracing`): the
// CPU time of each task (`RunTask`, thread time, not wall time). On a loaded machine a frame's wall time mostly
// says how long the renderer waited for a core; the CPU a task took is what the page itself asks of it, so the
// benches print both. Printed, never asserted.
import type { Page } from 'playwright-core';

/** What the main thread did: tasks' CPU time (ms) and the phases that took most of it. */
export interface MainThreadCpu {
  tasks: number;
  totalMs: number;
  maxMs: number;
  /** Tasks that took more CPU than a 60 Hz frame has (16.7 ms). */
  overFrame: number;
  /** CPU time (ms) of the phases that cost most: Layout, Paint, script… */
  phases: [string, number][];
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  tdur?: number;
  args?: { name?: string };
}

const CATEGORIES = 'devtools.timeline,disabled-by-default-devtools.timeline';
/** The phases worth naming (the trace's own event names). */
const PHASES = ['Layout', 'UpdateLayoutTree', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'FunctionCall', 'HandlePostMessage', 'FireAnimationFrame', 'IntersectionObserverController::computeIntersections', 'MinorGC', 'MajorGC'];

/** Runs `gesture` while Chromium traces `page`'s renderer, and sums its main thread's tasks. */
export async function traceMainThread<T>(page: Page, gesture: () => Promise<T>): Promise<{ result: T; cpu: MainThreadCpu }> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...(d.value as unknown as TraceEvent[])));
  const complete = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  const result = await gesture();
  await cdp.send('Tracing.end');
  await complete;
  await cdp.detach();
  return { result, cpu: summarize(events) };
}

function summarize(events: TraceEvent[]): MainThreadCpu {
  // The renderer of the page: the main thread that ran the most tasks (other renderers may be idle pages).
  const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const key = (e: { pid: number; tid: number }) => `${e.pid}:${e.tid}`;
  const count = new Map<string, number>();
  for (const e of events) if (e.ph === 'X' && e.name === 'RunTask') count.set(key(e), (count.get(key(e)) ?? 0) + 1);
  const main = mains.map(key).sort((a, b) => (count.get(b) ?? 0) - (count.get(a) ?? 0))[0];
  const mine = events.filter((e) => e.ph === 'X' && key(e) === main);
  const tasks = mine.filter((e) => e.name === 'RunTask').map((e) => (e.tdur ?? 0) / 1000).sort((a, b) => a - b);
  const phase = new Map<string, number>();
  for (const e of mine) if (PHASES.includes(e.name)) phase.set(e.name, (phase.get(e.name) ?? 0) + (e.tdur ?? 0) / 1000);
  return {
    tasks: tasks.length,
    totalMs: tasks.reduce((a, b) => a + b, 0),
    maxMs: tasks[tasks.length - 1] ?? 0,
    overFrame: tasks.filter((t) => t > 16.7).length,
    phases: [...phase].sort((a, b) => b[1] - a[1]).slice(0, 5),
  };
}

/** One line for the bench's output. */
export function formatCpu(c: MainThreadCpu, frames: number): string {
  const phases = c.phases.map(([n, ms]) => `${n.replace('IntersectionObserverController::computeIntersections', 'IntersectionObserver')} ${(ms / frames).toFixed(1)}`).join(', ');
  return `main-thread CPU ${(c.totalMs / frames).toFixed(1)} ms a frame (${phases}); busiest task ${c.maxMs.toFixed(1)} ms, ${c.overFrame} tasks over 16.7 ms`;
}
