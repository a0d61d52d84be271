import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Where the test data lives, in one place: the seed runtimes' own writers' files (`test/seed-corpus`, a copy the
 * project carries of the shared corpus, so a fresh clone needs nothing beside it) and the real-writer corpus this
 * project generates (`test/corpus`, `npm run corpus`). The two are disjoint folders, so a walk over both sees a file once.
 */
export const CORPUS_ROOT = resolve(__dirname, '..', 'seed-corpus');

/** The real-writer corpus: `test/corpus/<tool>-<version>/`. */
export const WRITER_CORPUS = resolve(__dirname, '..', 'corpus');

/** A path inside the seed corpus, e.g. `corpusPath('lumen', '.lumen', 'trace')`. */
export function corpusPath(...segments: string[]): string {
  return resolve(CORPUS_ROOT, ...segments);
}

const TRACE_NAME = /\.(jsonl|ndjson|json)$|^trace$/;

/** Every trace-like file under `dir` (JSONL, JSON, lumen's `trace`), in a stable order. */
export function traceFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...traceFilesUnder(p));
    else if (TRACE_NAME.test(name)) out.push(p);
  }
  return out;
}
