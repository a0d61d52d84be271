import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runChecks } from '../../../../src/core/formatRules';
import { CheckMode } from '../../../../src/core/rules/types';
import { sha256Hex } from '../../../../src/core/digests';
import { canonicalJson, parseRawJson, rawWithout } from '../../../../src/core/json/pythonRawJson';
import { loadTrace } from '../../../../src/core/loadTrace';
import { corpusPath } from '../../../helpers/corpus';

/** The AgentLedger corpus (tests run with cwd = project root). */
export const CORPUS = corpusPath('agentledger');
export const FIXTURES = resolve('test/fixtures/agentledger');
export const RUNS = ['approval-denied', 'approval-granted', 'budget-exceeded', 'cancelled', 'side-effect-idempotency'] as const;

/** `rule@line` (plus `:severity` when not the default one asked for) of every finding, in output order. */
export async function findings(path: string, mode: CheckMode): Promise<string[]> {
  const model = await loadTrace(path);
  const r = await runChecks(model, mode);
  return r.findings.map((f) => `${f.rule.replace('agentledger/', '')}@${f.line}`);
}

/** Full findings of a file. */
export async function findingObjects(path: string, mode: CheckMode) {
  return (await runChecks(await loadTrace(path), mode)).findings;
}

/** A writable copy of a corpus run directory in the temp dir; removed by {@link cleanup}. */
export function copyRun(run: string): string {
  const dir = mkdtempSync(join(tmpdir(), `agentledger-${run}-`));
  cpSync(join(CORPUS, run), dir, { recursive: true });
  chmodTree(dir);
  return dir;
}

/** The corpus is read-only; copies keep the modes, so make them writable. */
function chmodTree(dir: string): void {
  chmodSync(dir, 0o755);
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) chmodTree(p);
    else chmodSync(p, 0o644);
  }
}

export function cleanup(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Reads a file's lines (without the final empty one). */
export function readLines(path: string): string[] {
  return readFileSync(path, 'utf8').replace(/\n$/, '').split('\n');
}

export function writeLines(path: string, lines: string[]): void {
  writeFileSync(path, lines.join('\n') + '\n');
}

/** Edits one line (1-based) of a file with a text replacement that must apply. */
export function editLine(path: string, line: number, from: string, to: string): void {
  const lines = readLines(path);
  if (!lines[line - 1].includes(from)) throw new Error(`line ${line} has no ${from}`);
  lines[line - 1] = lines[line - 1].replace(from, to);
  writeLines(path, lines);
}

/** Edits bundle.json text and, when asked, recomputes its bundle_hash so only the intended rule fires. */
export function editBundle(dir: string, edit: (text: string) => string, rehash: boolean): void {
  const path = join(dir, 'bundle.json');
  const text = edit(readFileSync(path, 'utf8'));
  if (text === readFileSync(path, 'utf8')) throw new Error('bundle edit changed nothing');
  let out = text;
  if (rehash) {
    const old = /"bundle_hash": "(sha256:[0-9a-f]{64})"/.exec(text)![1];
    const fresh = 'sha256:' + sha256Hex(canonicalJson(rawWithout(parseRawJson(text), ['bundle_hash'])));
    out = text.replace(old, fresh);
  }
  writeFileSync(path, out);
}
