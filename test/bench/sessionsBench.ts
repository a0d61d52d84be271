// The session catalog (issue 39): a home of N sessions laid out from the real-writer corpus (BENCH_SESSIONS, default
// 220: ten copies of the corpus home, each in a folder of its own), listed once from nothing and once from the cache.
// Times are also given as ratios to a floor measured in the same run (the machine is shared: ratios compare across
// runs): reading every session file and JSON.parse of each line, nothing else.
import '../../src/node/register'; // the core reads through the Node file system
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { agentHomeRoots } from '../../src/core/sessions/agentHomes';
import { listSessions } from '../../src/core/sessions/sessionCatalog';
import type { SessionCacheStore } from '../../src/core/sessions/sessionCache';
import { layOutAgentHome } from '../helpers/agentHome';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];

async function timed<T>(f: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const t = performance.now();
  const result = await f();
  return { result, ms: performance.now() - t };
}

/** The floor: every listed session file (and its subagents' files) read and each line JSON.parsed. */
function parseFloor(files: readonly string[]): number {
  let lines = 0;
  for (const f of files) for (const line of readFileSync(f, 'utf8').split('\n')) if (line.trim() !== '' && JSON.parse(line) !== undefined) lines++;
  return lines;
}

export async function runBench(dir: string): Promise<void> {
  const wanted = Number(process.env.BENCH_SESSIONS ?? 220);
  const root = join(dir, 'sessions-home');
  rmSync(root, { recursive: true, force: true });
  const template = join(root, 'template');
  const laid = layOutAgentHome(template);
  // How many sessions one copy holds: listed once to count them.
  const perCopy = (await listSessions({ roots: agentHomeRoots(template) })).records.length;
  const copies = Math.max(1, Math.round(wanted / perCopy));
  const homes: string[] = [];
  for (let k = 0; k < copies; k++) {
    const h = join(root, `home-${k}`);
    mkdirSync(h, { recursive: true });
    cpSync(template, h, { recursive: true });
    homes.push(h);
  }
  const roots = homes.flatMap((h) => agentHomeRoots(h)).filter((r) => existsSync(r));
  const kept = { text: '' };
  const store: SessionCacheStore = { read: async () => kept.text || null, write: async (t) => void (kept.text = t) };

  const first = await timed(() => listSessions({ roots, cache: store }));
  const sessions = first.result.records.length;
  const sessionFiles = first.result.records.flatMap((r) => [r.entry.file, ...r.parts.map((p) => p.path)]);
  const bytes = sessionFiles.reduce((a, f) => a + readFileSync(f).length, 0);
  const floors: number[] = [];
  const seconds: number[] = [];
  for (let i = 0; i < 3; i++) {
    floors.push((await timed(async () => parseFloor(sessionFiles))).ms);
    seconds.push((await timed(() => listSessions({ roots, cache: store }))).ms);
  }
  const second = await listSessions({ roots, cache: store });
  const floor = median(floors);
  const again = median(seconds);
  console.log(`sessions: a home of ${sessions} sessions (${copies} copies of the ${laid.length} corpus files; ${(bytes / 2 ** 20).toFixed(1)} MiB of session files)`);
  console.log(`  parse floor (read + JSON.parse every line of the session files): ${floor.toFixed(0)} ms`);
  console.log(`  first listing (walk, load, summarise with subagents, titles, write the cache): ${(first.ms / 1000).toFixed(2)} s = ${(first.ms / floor).toFixed(1)}× the floor, ${(first.ms / sessions).toFixed(1)} ms per session (${first.result.read} files read)`);
  console.log(`  second listing (from the cache, median of 3): ${again.toFixed(0)} ms = ${(again / floor).toFixed(2)}× the floor (${second.read} files read, ${second.fromCache} from the cache)`);
  const cacheBytes = Buffer.byteLength(kept.text);
  console.log(`  cache: ${(cacheBytes / 1024).toFixed(0)} KiB, ${(cacheBytes / sessions).toFixed(0)} B per session`);
  rmSync(root, { recursive: true, force: true });
}
