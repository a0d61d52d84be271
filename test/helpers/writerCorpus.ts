import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { WRITER_CORPUS, corpusPath } from './corpus';

/** Every file under `dir` (recursively) whose path matches `keep`, sorted. */
export function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop()!;
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) stack.push(p);
      else if (keep(p)) out.push(p);
    }
  }
  return out.sort();
}

/**
 * The real-writer corpus files of one tool: `test/corpus/<tool>-<version>/` and `test/seed-corpus/outside/<tool>-*`,
 * globbed so a new version's folder is picked up without editing the tests.
 */
export function writerFiles(tool: string, keep: (path: string) => boolean = (p) => p.endsWith('.jsonl')): string[] {
  const roots = [WRITER_CORPUS, corpusPath('outside')];
  const out: string[] = [];
  for (const root of roots) {
    if (!existsSync(root)) continue;
    for (const name of readdirSync(root)) if (name.startsWith(`${tool}-`)) out.push(...filesUnder(join(root, name), keep));
  }
  return out;
}

/** The file's non-blank lines parsed with plain JSON.parse, with their 1-based line numbers. */
export function jsonLines(path: string): { line: number; value: any }[] {
  return readFileSync(path, 'utf8').split('\n').flatMap((text, i) => (text.trim() === '' ? [] : [{ line: i + 1, value: JSON.parse(text) }]));
}
