import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { runChecks } from '../../src/core/formatRules';
import { mutate, Rng } from './mutators';
import { oracleLines, OracleLine } from './oracle';
import { JobResult, runJob } from './fuzzJob';

/** A real file the fuzzer starts from. */
export interface FuzzSource {
  path: string;
  /** The last path components, kept so detection by path convention still works (`.lumen/trace/x.jsonl`). */
  tail: string;
  bytes: Buffer;
  lines: OracleLine[];
  lumenIntact: boolean;
}

/** Totals of a run. */
export interface FuzzTotals {
  files: number;
  lines: number;
  crashes: string[];
  missed: string[];
  falseMalformed: string[];
  chainMissed: string[];
  refused: string[];
  /** Files refused whole, and the valid lines they held: under the old rule (a NUL byte in the first KB) and now. */
  figures: { refusedBefore: number; refusedNow: number; validLinesLostBefore: number; validLinesLostNow: number; validLines: number };
  slowest: { ms: number; name: string };
  byMutation: Record<string, number>;
}

/** The JSONL files of the seed corpus and of the real writers' corpus (`test/corpus`). */
export function corpusFiles(roots = [resolve('test', 'seed-corpus'), resolve('test', 'corpus')]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (/\.(jsonl|ndjson)$/.test(name) && st.size < 4 << 20) out.push(p);
    }
  };
  for (const r of roots) walk(r);
  return out;
}

/** Reads the sources and what the oracle and the verifier say of each before mutation. */
export async function loadSources(paths: string[]): Promise<FuzzSource[]> {
  const out: FuzzSource[] = [];
  for (const path of paths) {
    const bytes = readFileSync(path);
    const model = await loadTrace(path);
    const lumenIntact = model.format === 'lumen' && (await runChecks(model, 'verify')).ok;
    out.push({ path, tail: relative(resolve('..'), path).split(sep).slice(-3).join(sep), bytes, lines: oracleLines(bytes), lumenIntact });
  }
  return out;
}

/**
 * Mutates sources chosen by a seeded random source until `targetLines` mutated lines were checked, running
 * every command on each mutated file (see {@link runJob}). `onJob` sees every result (progress, memory).
 */
export async function fuzzRun(sources: FuzzSource[], opts: { seed: number; targetLines: number; dir: string; onStart?: (name: string) => void; onJob?: (r: JobResult, name: string) => void }): Promise<FuzzTotals> {
  const rng = new Rng(opts.seed);
  const totals: FuzzTotals = { files: 0, lines: 0, crashes: [], missed: [], falseMalformed: [], chainMissed: [], refused: [],
    figures: { refusedBefore: 0, refusedNow: 0, validLinesLostBefore: 0, validLinesLostNow: 0, validLines: 0 }, slowest: { ms: 0, name: '' }, byMutation: {} };
  while (totals.lines < opts.targetLines) {
    const src = rng.pick(sources);
    const m = mutate(src.bytes, rng);
    const path = join(opts.dir, `f${totals.files % 16}`, src.tail);
    mkdirSync(join(path, '..'), { recursive: true });
    const name = `${m.name} of ${src.tail}`;
    opts.onStart?.(name);
    const r = await runJob(path, m.bytes, { lines: src.lines, lumenIntact: src.lumenIntact, inPlace: m.inPlace });
    rmSync(path, { force: true });
    totals.files++;
    totals.lines += r.lines;
    totals.figures.validLines += r.validLines;
    if (r.refusedBefore) (totals.figures.refusedBefore++, (totals.figures.validLinesLostBefore += r.validLines));
    if (r.refusedNow) (totals.figures.refusedNow++, (totals.figures.validLinesLostNow += r.validLines));
    for (const k of ['crashes', 'missed', 'falseMalformed', 'chainMissed', 'refused'] as const) totals[k].push(...r[k].map((x) => `${x} [${name}]`));
    if (r.ms > totals.slowest.ms) totals.slowest = { ms: r.ms, name };
    for (const n of m.name.split('+')) totals.byMutation[n] = (totals.byMutation[n] ?? 0) + 1;
    opts.onJob?.(r, name);
  }
  return totals;
}
