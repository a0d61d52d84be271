// `npm run bench:workbench`: the viewer in the real workbench, as a user meets it. For each generated lumen
// trace (3.5 / 35 / 356 MB; BENCH_WORKBENCH_MB="3.5,35" to choose) and each run (BENCH_WORKBENCH_RUNS, default
// 3): a fresh code-server, a click on the file in the Explorer, then the time to the first rows visible, to
// the whole file indexed and to the last row after End, and the extension host's RSS (the
// `--type=extensionHost` process of this code-server): before the click, at its peak, after a garbage
// collection. Prints each run and the medians; asserts nothing. BENCH_WORKBENCH_TRACE=1 prints what the viewer
// shows every 100 ms; BENCH_WORKBENCH_PROFILE=1 saves a CPU profile of the extension host from the click to indexed;
// BENCH_WORKBENCH_WORKERS=N sets `agentTrace.workers` (the viewer's default otherwise).
import { mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { generateLumenTrace } from '../test/bench/lumenBench';
import { explorerRow, findViewerFrame, runCommand, SHOTS, startWorkbench } from '../test/e2e/workbench';
import { collectGarbage, extensionHostPid, rssMiB, sampleRss, startCpuProfile } from './bench-workbench-proc';

const ROOT = resolve(__dirname, '..');
const TRACE = 'f3c1a9d2-5b7e-4c08-9a6d-2e4b8f0c7d15.jsonl';
const POLL_MS = 50;
const LIMIT_MS = 180_000;

interface Run {
  firstRowsS: number;
  indexedS: number;
  endS: number;
  rssBase: number;
  rssPeak: number;
  rssAfterGc: number;
  gc: boolean;
}

/** A workspace folder per size with the trace where lumen writes it (so the viewer is its default editor). */
async function workspaceFor(mb: number): Promise<{ ws: string; file: string }> {
  const ws = join(ROOT, '.bench', `workbench-${mb}mb`);
  const dir = join(ws, '.lumen', 'trace');
  const file = join(dir, TRACE);
  mkdirSync(dir, { recursive: true });
  const have = statSync(file, { throwIfNoEntry: false });
  if (!have || have.size < mb * 2 ** 20 * 0.99) await generateLumenTrace(file, { targetBytes: mb * 2 ** 20 });
  return { ws, file };
}

async function poll<T>(what: string, f: () => Promise<T | undefined | false>): Promise<T> {
  const deadline = performance.now() + LIMIT_MS;
  for (;;) {
    const v = await f().catch(() => undefined);
    if (v !== undefined && v !== false) return v as T;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** Rows drawn and no "still indexing" banner: the complete model is on screen. */
function indexed(frame: Frame): Promise<boolean> {
  return frame.evaluate(() => document.querySelectorAll('.tree-scroll .row[data-node]').length > 0 && !document.querySelector('.banner.banner-loading:not([hidden])'));
}

/**
 * The focus moved to the last row (End) and that row is drawn with its data as the last one of the list.
 * (Not "scrolled to the bottom": the header grows a line when checks on open finish, which can shift it.)
 */
function atEnd(frame: Frame): Promise<boolean> {
  return frame.evaluate(() => {
    const drawn = Array.from(document.querySelectorAll('.tree-scroll .row:not([hidden])')) as HTMLElement[];
    const focused = drawn.find((r) => r.classList.contains('focused'));
    if (!focused || focused.classList.contains('placeholder') || Number(focused.dataset.row) === 0) return false;
    return drawn.every((r) => Number(r.dataset.row) <= Number(focused.dataset.row));
  });
}

/** Steady RSS: two samples a second apart within 2 MiB (activation and the workbench's own start settled). */
async function steadyRss(pid: number): Promise<number> {
  let last = rssMiB(pid);
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = rssMiB(pid);
    if (Math.abs(now - last) < 2) return now;
    last = now;
  }
  return last;
}

async function oneRun(mb: number, ws: string, file: string): Promise<Run> {
  const wb = await startWorkbench(ws, WORKERS === null ? {} : { 'agentTrace.workers': WORKERS });
  const page: Page = wb.page;
  let rss: ReturnType<typeof sampleRss> | undefined;
  try {
    const pid = await poll('the extension host', async () => extensionHostPid(ws));
    await runCommand(page, 'View: Show Explorer');
    for (const [level, name] of [[1, '.lumen'], [2, 'trace']] as const) {
      const row = explorerRow(page, name, level);
      await row.waitFor({ state: 'visible', timeout: 60_000 });
      if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
    }
    const target = explorerRow(page, TRACE, 3);
    await target.waitFor({ state: 'visible', timeout: 60_000 });
    const rssBase = await steadyRss(pid);
    // BENCH_WORKBENCH_PROFILE=1: a CPU profile of the extension host from the click to the whole file indexed.
    const profile = process.env.BENCH_WORKBENCH_PROFILE ? await startCpuProfile(pid) : null;
    rss = sampleRss(pid);
    const t0 = performance.now();
    await target.click();
    const trace = process.env.BENCH_WORKBENCH_TRACE ? traceViewer(page, t0) : null;
    const frame = await poll('the first rows', () => findViewerFrame(page, file, 'lumen'));
    const firstRowsS = (performance.now() - t0) / 1000;
    await poll('the whole file indexed', () => indexed(frame));
    const indexedS = (performance.now() - t0) / 1000;
    trace?.stop();
    if (profile) {
      const where = join(SHOTS, `bench-workbench-${mb}mb.cpuprofile`);
      await profile.stop(where);
      console.log(`    extension host CPU profile: ${where}`);
    }
    await frame.locator('.tree-scroll .row[data-node]').first().click();
    const tEnd = performance.now();
    await page.keyboard.press('End');
    await poll('the last row after End', () => atEnd(frame));
    const endS = (performance.now() - tEnd) / 1000;
    // Checks on open (traces up to agentTrace.checkOnOpenMaxMB, 50 MB) finish first, so the peak includes
    // them and "after GC" is not taken while they still run.
    if (mb <= 50) await poll('the checks on open', () => frame.evaluate(() => /conforms:|findings?\b/.test(document.querySelector('.header-checks')?.textContent ?? '')));
    await new Promise((r) => setTimeout(r, 1000));
    rss.stop();
    if (process.env.BENCH_WORKBENCH_TRACE) console.log(`    extension host RSS (MiB, highest of each quarter second from the click): ${rss.timeline()}`);
    const gc = await collectGarbage(pid);
    await new Promise((r) => setTimeout(r, 1000));
    await wb.shot(`bench-workbench-${mb}mb`);
    return { firstRowsS, indexedS, endS, rssBase, rssPeak: rss.peak(), rssAfterGc: rssMiB(pid), gc };
  } catch (err) {
    await wb.shot(`bench-workbench-${mb}mb-failed`).catch(() => undefined);
    wb.saveLogs(`bench-workbench-${mb}mb-failed`);
    throw err;
  } finally {
    // A sampler left running would keep this process alive after a failed run.
    rss?.stop();
    await wb.stop();
  }
}

/** BENCH_WORKBENCH_TRACE=1: prints what the viewer's frames show every 100 ms (to see where the time goes). */
function traceViewer(page: Page, t0: number): { stop: () => void } {
  let last = '';
  const t = setInterval(async () => {
    const states: string[] = [];
    for (const f of page.frames()) {
      const s = await f
        .evaluate(() => {
          const rows = document.querySelectorAll('.tree-scroll .row[data-node]').length;
          const banner = document.querySelector('.banner:not([hidden])')?.className ?? '';
          const chip = document.querySelector('.format-chip')?.textContent ?? '';
          const text = (document.body?.innerText ?? '').replace(/\s+/g, ' ').slice(0, 60);
          return chip || rows || /Indexing|Loading/.test(text) ? `rows=${rows} chip=${chip} ${banner} "${text}"` : '';
        })
        .catch(() => '');
      if (s) states.push(s);
    }
    const now = states.join(' | ');
    if (now !== last) console.log(`    ${((performance.now() - t0) / 1000).toFixed(2)} s: ${now}`);
    last = now;
  }, 100);
  return { stop: () => clearInterval(t) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f1 = (x: number) => x.toFixed(1);
const f2 = (x: number) => x.toFixed(2);

/** `BENCH_WORKBENCH_WORKERS=N`: the viewer reads on N worker threads (the `agentTrace.workers` setting); unset: its default. */
const WORKERS = process.env.BENCH_WORKBENCH_WORKERS !== undefined ? Number(process.env.BENCH_WORKBENCH_WORKERS) : null;

async function main(): Promise<void> {
  if (WORKERS !== null) console.log(`agentTrace.workers: ${WORKERS}`);
  const sizes = (process.env.BENCH_WORKBENCH_MB ?? '3.5,35,356').split(',').map(Number);
  const runs = Number(process.env.BENCH_WORKBENCH_RUNS ?? 3);
  for (const mb of sizes) {
    const { ws, file } = await workspaceFor(mb);
    const sizeMB = statSync(file).size / 2 ** 20;
    const all: Run[] = [];
    for (let k = 1; k <= runs; k++) {
      // A run that fails (the workbench did not open the file) is said and left out of the medians.
      const r = await oneRun(mb, ws, file).catch((err: Error) => {
        console.log(`  ${f1(sizeMB)} MB run ${k} failed: ${err.message.split('\n')[0]} (screenshot and logs in test-results/e2e/)`);
        return null;
      });
      if (!r) continue;
      all.push(r);
      console.log(`  ${f1(sizeMB)} MB run ${k}: first rows ${f2(r.firstRowsS)} s, indexed ${f2(r.indexedS)} s, End ${f2(r.endS)} s; extension host ${r.rssBase.toFixed(0)} → ${r.rssPeak.toFixed(0)} → ${r.rssAfterGc.toFixed(0)} MiB${r.gc ? ' (after GC)' : ' (no GC: inspector unavailable)'}`);
    }
    if (all.length === 0) continue;
    const m = (k: keyof Run) => median(all.map((r) => r[k] as number));
    console.log(
      `workbench, ${f1(sizeMB)} MB lumen (${all.length} of ${runs} runs, medians): first rows ${f2(m('firstRowsS'))} s, indexed ${f2(m('indexedS'))} s, last row after End ${f2(m('endS'))} s; ` +
        `extension host ${m('rssBase').toFixed(0)} → peak ${m('rssPeak').toFixed(0)} → ${m('rssAfterGc').toFixed(0)} MiB after GC ` +
        `(growth: peak +${median(all.map((r) => r.rssPeak - r.rssBase)).toFixed(0)}, retained +${median(all.map((r) => r.rssAfterGc - r.rssBase)).toFixed(0)} MiB)`,
    );
  }
}

// Exit when done: a handle left by the workbench's libraries (a socket, a timer) must not keep the process up.
main().then(
  () => process.exit(),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
