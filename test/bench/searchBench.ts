// Search across sessions (issue 39): a home of N sessions made from the real-writer corpus, listed, indexed and
// searched. N is BENCH_SEARCH_SESSIONS (default 220), the average session size BENCH_SEARCH_SESSION_KB (default 250).
// The figure is N=1000 at about 1 GB:
//   BENCH_SEARCH_SESSIONS=1000 BENCH_SEARCH_SESSION_KB=1000 npm run bench -- searchBench
// The home is copies of the corpus home (every agent in its native folder), each copy's ids (UUIDs in names and
// lines) made new, and each session file padded to size by repeating its own lines (after the first), each
// repetition with ids of its own: real sessions made longer, not synthetic text. Times are also given as ratios to
// a floor measured in the same run (the machine is shared): reading every session file and JSON.parse of each line.
import '../../src/node/register'; // the core reads through the Node file system
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { agentHomeRoots } from '../../src/core/sessions/agentHomes';
import { listSessions } from '../../src/core/sessions/sessionCatalog';
import type { SessionCacheStore } from '../../src/core/sessions/sessionCache';
import { SessionSearchIndex } from '../../src/core/sessions/sessionSearch';
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

/** Lays out `copies` copies of the corpus home under `root`, session files padded `pad` times; returns their homes. */
function layOut(root: string, copies: number, pad: number): { homes: string[]; bytes: number } {
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
  const store = (name: string): SessionCacheStore => ({ read: async () => texts.get(name) ?? null, write: async (t) => void texts.set(name, t) });

  const first = await timed(() => listSessions({ roots, cache: store('sessions') }));
  const sessions = first.result.records.length;
  const sessionFiles = first.result.records.flatMap((r) => [r.entry.file, ...r.parts.filter((p) => p.size >= 0).map((p) => p.path)]);
  const bytes = sessionFiles.reduce((a, f) => a + statSync(f).size, 0);
  console.log(`search: a home of ${sessions} sessions, ${(bytes / 2 ** 20).toFixed(0)} MiB of session files (${copies} copies of the corpus home, session files ${pad}× their length; laid out in ${(made.ms / 1000).toFixed(1)} s)`);
  const floor = (await timed(async () => parseFloor(sessionFiles))).ms;
  console.log(`  parse floor (read + JSON.parse every line of the session files): ${(floor / 1000).toFixed(2)} s`);
  console.log(`  first listing (walk, load, summarise with subagents, titles, write the cache): ${(first.ms / 1000).toFixed(2)} s = ${(first.ms / floor).toFixed(1)}× the floor (goal ≤ 60 s)`);
  const seconds: number[] = [];
  for (let i = 0; i < 3; i++) seconds.push((await timed(() => listSessions({ roots, cache: store('sessions') }))).ms);
  console.log(`  second listing (from the cache, median of 3): ${median(seconds).toFixed(0)} ms (goal ≤ 2 s)`);

  (global as { gc?: () => void }).gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const index = await SessionSearchIndex.open(store('index'));
  const build = await timed(() => index.update({ roots, cache: store('sessions') }));
  clearInterval(sampler);
  const docs = index.size;
  const indexBytes = Buffer.byteLength(texts.get('index') ?? '');
  console.log(`  index build (every session file read again through the loader, a document per line, saved): ${(build.ms / 1000).toFixed(2)} s = ${(build.ms / floor).toFixed(1)}× the floor, ${(bytes / 2 ** 20 / (build.ms / 1000)).toFixed(1)} MiB/s (${build.result.read} files, ${docs.documents} documents)`);
  console.log(`  index on disk: ${(indexBytes / 2 ** 20).toFixed(1)} MiB = ${((indexBytes / bytes) * 100).toFixed(1)}% of the session files, ${(indexBytes / docs.documents).toFixed(0)} B per document`);
  (global as { gc?: () => void }).gc?.();
  const mem = process.memoryUsage();
  console.log(`  memory with the index loaded: heap ${(mem.heapUsed / 2 ** 20).toFixed(0)} MiB, RSS ${(mem.rss / 2 ** 20).toFixed(0)} MiB (peak while building ${(peak / 2 ** 20).toFixed(0)} MiB)`);
  const again = await timed(() => index.update({ roots, cache: store('sessions') }));
  console.log(`  index update with nothing changed: ${again.ms.toFixed(0)} ms (${again.result.read} files read)`);
  // A second start: the index read back from its text, then brought up to date.
  const reopen = await timed(async () => {
    const x = await SessionSearchIndex.open(store('index'));
    await x.update({ roots, cache: store('sessions') });
    return x;
  });
  console.log(`  second start (index read back from its store and updated, nothing changed): ${reopen.ms.toFixed(0)} ms`);
  const latencies: string[] = [];
  const all: number[] = [];
  for (const q of QUERIES) {
    const runs: number[] = [];
    let hits = 0;
    for (let i = 0; i < 5; i++) {
      const r = await timed(() => reopen.result.search(q, { limit: 100 }));
      runs.push(r.ms);
      hits = r.result.reduce((a, s) => a + s.hits.length, 0);
    }
    all.push(median(runs));
    latencies.push(`${q} ${median(runs).toFixed(0)} ms (${hits} hits)`);
  }
  console.log(`  search, median of 5 runs each, 100 hits at most (goal ≤ 200 ms): median over the queries ${median(all).toFixed(0)} ms, worst ${Math.max(...all).toFixed(0)} ms`);
  console.log(`    ${latencies.join('; ')}`);
  rmSync(root, { recursive: true, force: true });
}
