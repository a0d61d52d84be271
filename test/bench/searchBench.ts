// Search across sessions (issue 39): a home of N sessions made from the real-writer corpus, listed, indexed and
// searched. N is BENCH_SEARCH_SESSIONS (default 220), the average session size BENCH_SEARCH_SESSION_KB (default 250).
// The figure is N=1000 at about 1 GB:
//   BENCH_SEARCH_SESSIONS=1000 BENCH_SEARCH_SESSION_KB=1000 npm run bench -- searchBench
// The home is copies of the corpus home (every agent in its native folder), each copy's ids (UUIDs in names and
// lines) made new, and each session file padded to size by repeating its own lines (after the first), each
// repetition with ids of its own: real sessions made longer, not synthetic text. Times are also given as ratios to
// a floor measured in the same run (the machine is shared): reading every session file and JSON.parse of each line.
// BENCH_SEARCH_STORE=worker lists and indexes in the extension's sessions worker (src/node/sessionsWorker.ts; else in
// this thread, as the CLI does); either way the longest stall of this thread's event loop while listing and indexing
// is reported: in the worker's case, what the extension host would feel.
import '../../src/node/register'; // the core reads through the Node file system
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { agentHomeRoots } from '../../src/core/sessions/agentHomes';
import { listSessions, type SessionListing } from '../../src/core/sessions/sessionCatalog';
import type { SessionHits } from '../../src/core/sessions/sessionSearch';
import type { SessionCacheStore } from '../../src/core/sessions/sessionCache';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openSearchIndex } from '../../src/node/searchIndex';
import { SessionsWorker } from '../../src/node/workerSessions';
import { layOutAgentHome } from '../helpers/agentHome';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];

async function timed<T>(f: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const t = performance.now();
  const result = await f();
  return { result, ms: performance.now() - t };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** The text with each UUID made new for copy `copy`, repetition `rep` (the same UUID gives the same new one). */
function newIds(text: string, copy: number, rep: number): string {
  const tag = ((copy * 4096 + rep) % 0x100000000).toString(16).padStart(8, '0');
  return text.replace(UUID, (u) => tag + u.slice(8));
}

/** A file that is a session's lines (main or subagent), which padding may lengthen. */
function isSessionLines(path: string): boolean {
  return path.endsWith('.jsonl') && !/history\.jsonl$|[/\\]logs?[/\\]/.test(path);
}

/** The first or second start: list and index, then search; in this thread (the CLI's way) or in the sessions worker (the extension's). */
interface Runner {
  update(): Promise<{ listing: SessionListing; read: number; readHere: number }>;
  size(): Promise<{ documents: number; files: number; bytes: number }>;
  search(q: string): Promise<SessionHits[]>;
  close(): Promise<void>;
}

function threadRunner(indexDir: string, roots: string[], cache: SessionCacheStore): Runner {
  const index = openSearchIndex(indexDir);
  return { update: () => index.update({ roots, cache }), size: () => index.size(), search: (q) => index.search(q, { limit: 100 }), close: () => index.close() };
}

/** As the extension does: the view's listing (feeding the index as it reads), then the search's index update. */
function workerRunner(storageDir: string, roots: string[]): Runner {
  // The bundle the extension ships (`npm run bench` builds it first), not its TypeScript compiled on the fly.
  const bundle = join(__dirname, '..', '..', 'dist', 'sessionsWorker.js');
  const w = new SessionsWorker(storageDir, existsSync(bundle) ? bundle : undefined);
  return {
    update: async () => {
      const listing = await w.list({ roots });
      const u = await w.updateIndex(roots);
      return { listing, read: listing.read, readHere: u.readHere };
    },
    size: () => w.indexSize(),
    search: (q) => w.search(q, 100),
    close: () => w.close(),
  };
}

/** Lays out `copies` copies of the corpus home under `root`, session files padded `pad` times; returns their homes. */
export function layOut(root: string, copies: number, pad: number): { homes: string[]; bytes: number } {
  const template = join(root, 'template');
  const laid = layOutAgentHome(template);
  const homes: string[] = [];
  let bytes = 0;
  for (let k = 0; k < copies; k++) {
    const home = join(root, `home-${k}`);
    homes.push(home);
    for (const f of laid) {
      const text = readFileSync(f.path, 'utf8');
      let out = newIds(text, k, 0);
      if (isSessionLines(f.path) && pad > 1) {
        const lines = text.split('\n').filter((l) => l !== '');
        const body = lines.slice(1).join('\n');
        const pieces = [newIds(lines.join('\n'), k, 0)];
        for (let r = 1; r < pad; r++) pieces.push(newIds(body, k, r));
        out = pieces.join('\n') + '\n';
      }
      const target = join(home, newIds(relative(template, f.path), k, 0));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, out);
      bytes += out.length;
    }
  }
  rmSync(template, { recursive: true, force: true });
  return { homes, bytes };
}

/** The floor: every listed session file (and its subagents' files) read and each line JSON.parsed. */
function parseFloor(files: readonly string[]): number {
  let lines = 0;
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    // A one-document session (Continue's) is parsed whole.
    if (!f.endsWith('.jsonl')) lines += JSON.parse(text) !== undefined ? 1 : 0;
    else for (const line of text.split('\n')) if (line.trim() !== '' && JSON.parse(line) !== undefined) lines++;
  }
  return lines;
}

const QUERIES = ['missing.txt', '"look for missing"', 'hello', 'agent:codex tool:exec_command', 'nonexistent status:error', 'PLUM field:prompt', 'notes since:30d'];

export async function runBench(dir: string): Promise<void> {
  const wanted = Number(process.env.BENCH_SEARCH_SESSIONS ?? 220);
  const sessionKB = Number(process.env.BENCH_SEARCH_SESSION_KB ?? 250);
  const root = join(dir, 'search-home');
  rmSync(root, { recursive: true, force: true });
  // One copy, laid out to count its sessions and bytes.
  const probe = layOut(join(root, 'probe'), 1, 1);
  const perCopy = (await listSessions({ roots: agentHomeRoots(probe.homes[0]) })).records.length;
  rmSync(join(root, 'probe'), { recursive: true, force: true });
  const copies = Math.max(1, Math.round(wanted / perCopy));
  const pad = Math.max(1, Math.round((sessionKB * 1024 * perCopy) / probe.bytes));
  const made = await timed(async () => layOut(join(root, 'homes'), copies, pad));
  const roots = made.result.homes.flatMap((h) => agentHomeRoots(h)).filter((r) => existsSync(r));
  const texts = new Map<string, string>();
  const cacheStore = (name: string): SessionCacheStore => ({ read: async () => texts.get(name) ?? null, write: async (t) => void texts.set(name, t) });

  // The first start: the listing (titles, usage, verdicts) with the index riding its one read of each file.
  const indexDir = join(root, 'index');
  (global as { gc?: () => void }).gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const inWorker = process.env.BENCH_SEARCH_STORE === 'worker';
  const runner = inWorker ? workerRunner(indexDir, roots) : threadRunner(indexDir, roots, cacheStore('sessions'));
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const cpuBefore = process.cpuUsage();
  // Timed until the store has every write.
  const first = await timed(async () => {
    const u = await runner.update();
    await runner.size();
    return u;
  });
  const cpu = process.cpuUsage(cpuBefore);
  loop.disable();
  clearInterval(sampler);
  const sessions = first.result.listing.records.length;
  const sessionFiles = first.result.listing.records.flatMap((r) => [r.entry.file, ...r.parts.filter((p) => p.size >= 0).map((p) => p.path)]);
  const bytes = sessionFiles.reduce((a, f) => a + statSync(f).size, 0);
  console.log(`search: a home of ${sessions} sessions, ${(bytes / 2 ** 20).toFixed(0)} MiB of session files (${copies} copies of the corpus home, session files ${pad}× their length; laid out in ${(made.ms / 1000).toFixed(1)} s)`);
  const floor = (await timed(async () => parseFloor(sessionFiles))).ms;
  console.log(`  parse floor (read + JSON.parse every line of the session files): ${(floor / 1000).toFixed(2)} s`);
  const docs = await runner.size();
  console.log(`  first listing with the index riding its reads (walk, load, summarise with subagents, titles, verdicts, index, write both): ${(first.ms / 1000).toFixed(2)} s = ${(first.ms / floor).toFixed(1)}× the floor (goal ≤ 60 s); CPU ${(cpu.user / 1e6).toFixed(1)} s user + ${(cpu.system / 1e6).toFixed(1)} s system (all threads: a loaded machine stretches the wall time, not these); ${first.result.read} files indexed, ${first.result.readHere} of them read a second time; ${docs.documents} documents`);
  console.log(`  listing and index ${inWorker ? 'in the sessions worker (the extension\'s): this thread is the extension host' : 'in this thread (the CLI\'s)'}; its event loop stalls while listing and indexing: longest ${(loop.max / 1e6).toFixed(0)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms`);
  console.log(`  index on disk (SQLite FTS5, text kept for snippets): ${(docs.bytes / 2 ** 20).toFixed(1)} MiB = ${((docs.bytes / bytes) * 100).toFixed(1)}% of the session files, ${(docs.bytes / docs.documents).toFixed(0)} B per document`);
  console.log(`  RSS: ${(rssBefore / 2 ** 20).toFixed(0)} MiB before, peak ${(peak / 2 ** 20).toFixed(0)} MiB while listing and indexing`);
  await runner.close();
  // The second start: the index opened from its file (not loaded) and brought up to date: nothing changed, nothing read.
  const reopen = await timed(async () => {
    const x = inWorker ? workerRunner(indexDir, roots) : threadRunner(indexDir, roots, cacheStore('sessions'));
    const u = await x.update();
    return { x, u };
  });
  console.log(`  second start (index opened, listing from its cache, nothing changed): ${reopen.ms.toFixed(0)} ms (goal ≤ 2 s; ${reopen.result.u.read} files read)`);
  const latencies: string[] = [];
  const all: number[] = [];
  for (const q of QUERIES) {
    const runs: number[] = [];
    let hits = 0;
    for (let i = 0; i < 5; i++) {
      const r = await timed(async () => await reopen.result.x.search(q));
      runs.push(r.ms);
      hits = r.result.reduce((a, s) => a + s.hits.length, 0);
    }
    all.push(...runs);
    latencies.push(`${q} ${median(runs).toFixed(0)} ms (${hits} hits)`);
  }
  const p95 = [...all].sort((a, b) => a - b)[Math.floor(all.length * 0.95)];
  console.log(`  search, 5 runs of each query, 100 hits at most (goal ≤ 200 ms): median ${median(all).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, worst ${Math.max(...all).toFixed(0)} ms = ${(median(all) / floor * 1000).toFixed(1)}‰ of the floor`);
  console.log(`  RSS with the index open: ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
  await reopen.result.x.close();
  console.log(`    ${latencies.join('; ')}`);
  rmSync(root, { recursive: true, force: true });
}
