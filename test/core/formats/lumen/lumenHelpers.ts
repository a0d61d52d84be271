import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CheckResult } from '../../../../src/core/checks/runChecks';
import { runChecks } from '../../../../src/core/formatRules';
import { loadTrace, TraceModel } from '../../../../src/core/loadTrace';
import { Finding } from '../../../../src/core/model';
import { corpusPath } from '../../../helpers/corpus';

/** The lumen corpus (tests run with cwd = project root). */
export const CORPUS = corpusPath('lumen');
export const TRACE_DIR = join(CORPUS, '.lumen', 'trace');
export const SUCCESS = join(TRACE_DIR, 'ef05f773-1151-4c7a-817e-a78bf76ed21e.jsonl');
export const TOOL_FAILURE = join(TRACE_DIR, 'd64d0553-2d9c-4a06-b880-70798ba80d68.jsonl');
export const SCHEMA_FAILURE = join(TRACE_DIR, '55769ad7-ac9e-4d06-ae6b-d950d1e7c1bc.jsonl');
export const FAILED_TOOL_CONTINUES = join(TRACE_DIR, '3b775656-cc42-43c8-91b9-559d8c27d1f2.jsonl');
export const TAMPERED = join(CORPUS, 'negative', 'ef05f773-1151-4c7a-817e-a78bf76ed21e.tampered-latency.jsonl');
export const MISSING_20 = join(CORPUS, 'negative', 'ef05f773-1151-4c7a-817e-a78bf76ed21e.missing-seq20.jsonl');
/** The six-line example of lumen.md §8. */
export const DOC_EXAMPLE = resolve('test/fixtures/lumen/7d3c2b1a-4e5f-4a6b-8c9d-0e1f2a3b4c5d.jsonl');

/** Lines of a file, without the final empty one. */
export function readLines(path: string): string[] {
  return readFileSync(path, 'utf8').replace(/\n$/, '').split('\n');
}

/** Re-serializes an edited writer line; writer lines are compact with integer numbers, so this keeps the bytes. */
export function editLine(line: string, edit: (o: Record<string, any>) => void): string {
  const o = JSON.parse(line);
  edit(o);
  return JSON.stringify(o);
}

let counter = 0;
/** Writes lines as `<tmp>/proj/.lumen/trace/<uuid>.jsonl` (the writer's layout) and returns the path. */
export function writeTrace(lines: string[], options: { name?: string; trailingNewline?: boolean } = {}): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'lumen-test-')), 'proj', '.lumen', 'trace');
  mkdirSync(dir, { recursive: true });
  const name = options.name ?? `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}.jsonl`;
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n') + (options.trailingNewline === false ? '' : '\n'));
  return path;
}

/** Loads and runs one mode. */
export async function run(path: string, mode: 'verify' | 'check'): Promise<{ model: TraceModel; result: CheckResult }> {
  const model = await loadTrace(path);
  return { model, result: await runChecks(model, mode) };
}

/** `rule@line` of each finding, in report order. */
export function brief(findings: Finding[]): string[] {
  return findings.map((f) => `${f.rule}@${f.line}`);
}
