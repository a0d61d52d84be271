// `npm run fuzz`: mutates the corpus and the real writers' files (FUZZ_LINES mutated lines, default 100,000;
// FUZZ_SEED) and runs summary, tree, verify and check --json on each in a child process bounded to 1 GB of heap
// and FUZZ_JOB_TIMEOUT_MS per file (a file over it is a hang: the child is killed and a new one goes on with the
// next seed). Prints lines, files, crashes, hangs, missed, false malformed, chain misses, peak memory and time;
// exits 1 when any count is not zero or the peak passes 1 GB.
import '../../src/node/register'; // the core reads through the Node file system
import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { JobResult } from '../../test/fuzz/fuzzJob';

const JOB_TIMEOUT_MS = Number(process.env.FUZZ_JOB_TIMEOUT_MS ?? 30_000);
const MEMORY_LIMIT_MB = 1024;
const KINDS = ['crashes', 'missed', 'falseMalformed', 'chainMissed', 'refused'] as const;

type Message =
  | { type: 'start'; name: string }
  | { type: 'job'; name: string; result: JobResult; lines: number; maxRssKb: number }
  | { type: 'done'; files: number; sources: number; maxRssKb: number }
  | { type: 'error'; message: string };

/** What all workers found together. */
interface Totals {
  files: number;
  lines: number;
  sources: number;
  hangs: string[];
  problems: Record<(typeof KINDS)[number], string[]>;
  maxRssKb: number;
  slowest: { ms: number; name: string };
  /** Files refused whole and the valid lines they held: under the old rule (a NUL byte in the first KB) and now. */
  damage: { refusedBefore: number; refusedNow: number; validLinesLostBefore: number; validLinesLostNow: number };
}

/** Runs one worker until it has done `lines` lines, a job passes the time bound (a hang) or the worker dies. */
function runWorker(seed: number, lines: number, t: Totals): Promise<void> {
  return new Promise((done) => {
    const child = fork(join(__dirname, 'worker.ts'), [], {
      execArgv: ['--require', 'tsx/cjs', `--max-old-space-size=${MEMORY_LIMIT_MB}`],
      env: { ...process.env, FUZZ_SEED: String(seed), FUZZ_LINES: String(lines) },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    let current = '';
    let finished = false;
    let timer: NodeJS.Timeout | undefined;
    let shown = Math.floor(t.lines / 10_000);
    child.on('message', (m: Message) => {
      if (m.type === 'start') {
        current = m.name;
        clearTimeout(timer);
        timer = setTimeout(() => {
          t.hangs.push(`${current} (over ${JOB_TIMEOUT_MS} ms)`);
          child.kill('SIGKILL');
        }, JOB_TIMEOUT_MS);
      } else if (m.type === 'job') {
        t.files++;
        t.lines += m.result.lines;
        t.maxRssKb = Math.max(t.maxRssKb, m.maxRssKb);
        for (const k of KINDS) t.problems[k].push(...m.result[k].map((x) => `${x} [${m.name}]`));
        if (m.result.refusedBefore) (t.damage.refusedBefore++, (t.damage.validLinesLostBefore += m.result.validLines));
        if (m.result.refusedNow) (t.damage.refusedNow++, (t.damage.validLinesLostNow += m.result.validLines));
        if (m.result.ms > t.slowest.ms) t.slowest = { ms: m.result.ms, name: m.name };
        if (Math.floor(t.lines / 10_000) > shown) (shown = Math.floor(t.lines / 10_000)), process.stderr.write(`  ${t.lines} lines, ${t.files} files, peak ${(t.maxRssKb / 1024).toFixed(0)} MB\n`);
      } else if (m.type === 'done') (finished = true), (t.sources = m.sources), (t.maxRssKb = Math.max(t.maxRssKb, m.maxRssKb));
      else (finished = true), t.problems.crashes.push(`worker failed: ${m.message}`);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (!finished && !t.hangs.some((h) => h.startsWith(current))) t.problems.crashes.push(`worker exited with ${signal ?? code} during ${current}`);
      done();
    });
  });
}

async function main(): Promise<number> {
  const target = Number(process.env.FUZZ_LINES ?? 100_000);
  const seed = Number(process.env.FUZZ_SEED ?? 2026);
  const t0 = Date.now();
  const t: Totals = { files: 0, lines: 0, sources: 0, hangs: [], problems: { crashes: [], missed: [], falseMalformed: [], chainMissed: [], refused: [] }, maxRssKb: 0, slowest: { ms: 0, name: '' },
    damage: { refusedBefore: 0, refusedNow: 0, validLinesLostBefore: 0, validLinesLostNow: 0 } };
  // A killed worker is replaced by one with the next seed for the lines still to do.
  for (let run = 0; t.lines < target && run < 20; run++) await runWorker(seed + run, target - t.lines, t);
  const figures = {
    seed, sources: t.sources, files: t.files, lines: t.lines,
    crashes: t.problems.crashes.length, hangs: t.hangs.length, missed: t.problems.missed.length,
    falseMalformed: t.problems.falseMalformed.length, chainMissed: t.problems.chainMissed.length, refused: t.problems.refused.length,
    refusedWhole: t.damage,
    peakMemoryMB: Math.round(t.maxRssKb / 1024), seconds: Math.round((Date.now() - t0) / 100) / 10, slowestFile: t.slowest,
  };
  process.stdout.write(JSON.stringify(figures, null, 2) + '\n');
  for (const h of t.hangs) process.stdout.write(`hang: ${h}\n`);
  for (const k of KINDS) for (const x of t.problems[k].slice(0, 20)) process.stdout.write(`${k}: ${x.slice(0, 500)}\n`);
  const bad = figures.crashes + figures.hangs + figures.missed + figures.falseMalformed + figures.chainMissed + figures.refused;
  return bad === 0 && figures.peakMemoryMB < MEMORY_LIMIT_MB && t.lines >= target ? 0 : 1;
}

main().then((code) => (process.exitCode = code));
