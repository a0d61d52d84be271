import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Where the test data lives, in one place: the shared corpus of the seed runtimes' own writers (`../shared/corpus`
 * beside the project, read-only) and the real-writer corpus this project generates (`test/corpus`, `npm run corpus`).
 */
export const CORPUS_ROOT = resolve(__dirname, '..', '..', '..', 'shared', 'corpus');

/** The real-writer corpus: `test/corpus/<tool>-<version>/`. */
export const WRITER_CORPUS = resolve(__dirname, '..', 'corpus');

/** A path inside the shared corpus, e.g. `corpusPath('lumen', '.lumen', 'trace')`. */
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
