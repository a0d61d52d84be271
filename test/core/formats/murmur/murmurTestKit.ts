import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CheckResult } from '../../../../src/core/checks/runChecks';
import { runChecks } from '../../../../src/core/formatRules';
import { loadTrace, TraceModel } from '../../../../src/core/loadTrace';
import { Finding } from '../../../../src/core/model';
import { corpusPath } from '../../../helpers/corpus';

/** The corpus session directory (trace.jsonl + blobs/), content capture. */
export const CORPUS_SESSION = corpusPath('murmur/ses_39263059f28c105d1fb17c2390c192cf');
export const CORPUS_TRACE = join(CORPUS_SESSION, 'trace.jsonl');
/** Our hand-made meta-capture session (see test/fixtures/murmur/README.md). */
export const META_TRACE = resolve('test/fixtures/murmur/meta-session/trace.jsonl');

/** The ids of the corpus trace, by line. */
export const ID = {
  session: 'evt_019b76daa80078f79da1494c73cf256d',
  task: 'evt_019b76daa8047c7fac99108ddb5b5fab',
  turn0: 'evt_019b76daacb37821b3ab48767734d7c1',
  tool: 'evt_019b76daacbf730a965eda32dae44550',
  turn1: 'evt_019b76dab1ba78338dcc69292f45e678',
  taskEnd: 'evt_019b76dab1bd79d2a13ffe7979cb9e86',
  sessionEnd: 'evt_019b76dab1c17180afa91425cb008853',
} as const;

/** The lines of a trace file, without the final newline. */
export function readLines(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

/** Parses a line, lets `f` change it, and serializes it back compactly (as serde would). */
export function edit(line: string, f: (o: Record<string, unknown>) => void): string {
  const o = JSON.parse(line) as Record<string, unknown>;
  f(o);
  return JSON.stringify(o);
}

const dirs: string[] = [];

/**
 * Writes lines as `<tmp>/<session>/trace.jsonl`, with a copy of the corpus blobs/ next to it unless
 * `blobs: false`, so the blob module sees the same store as for the corpus file.
 */
export function writeTrace(lines: string[], opts: { blobs?: boolean; newline?: boolean } = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'murmur-test-'));
  dirs.push(root);
  const dir = join(root, 'ses_test');
  mkdirSync(dir);
  if (opts.blobs ?? true) cpSync(join(CORPUS_SESSION, 'blobs'), join(dir, 'blobs'), { recursive: true });
  const file = join(dir, 'trace.jsonl');
  writeFileSync(file, lines.join('\n') + (opts.newline ?? true ? '\n' : ''));
  return file;
}

/** Removes every temporary directory the tests made. */
export function cleanup(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Loads a file and runs one mode. */
export async function run(file: string, mode: 'verify' | 'check'): Promise<{ model: TraceModel; result: CheckResult }> {
  const model = await loadTrace(file);
  return { model, result: await runChecks(model, mode) };
}

/** The murmur findings as compact `rule severity line` strings, in report order. */
export function murmurFindings(result: CheckResult): string[] {
  return result.findings.filter((f) => f.rule.startsWith('murmur/')).map(brief);
}

/** `rule severity line`. */
export function brief(f: Finding): string {
  return `${f.rule} ${f.severity} ${f.line}`;
}

/** parentLine of every node, in file order (null for roots). */
export function parentLines(model: TraceModel): (number | null)[] {
  const t = model.events;
  const out: (number | null)[] = [];
  for (let i = 0; i < t.size; i++) out.push(t.parent(i) >= 0 ? t.lineOf(t.parent(i)) : null);
  return out;
}

/** An `evt_` id whose UUIDv7 time prefix is `ms`, distinct per `salt`. */
export function eventId(ms: number, salt: number): string {
  return `evt_${ms.toString(16).padStart(12, '0')}7${salt.toString(16).padStart(3, '0')}8${'0'.repeat(15)}`;
}
