import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runChecks } from '../../../../src/core/formatRules';
import { CheckMode } from '../../../../src/core/rules/types';
import { loadTrace, TraceModel } from '../../../../src/core/loadTrace';
import { Finding } from '../../../../src/core/model';
import { corpusPath } from '../../../helpers/corpus';

/** The harness-ledger corpus folder (tests run with cwd = project root). */
export const HARNESS_CORPUS = corpusPath('harness-ledger');

/** Path of a harness corpus file. */
export function harnessCorpus(name: string): string {
  return join(HARNESS_CORPUS, name);
}

/** `line severity rule` of each finding, in report order: compact and exact. */
export function brief(findings: Finding[]): string[] {
  return findings.map((f) => `${f.line} ${f.severity} ${f.rule}`);
}

/** Loads a trace and runs verify or check over it. */
export async function checkFile(path: string, mode: CheckMode): Promise<Finding[]> {
  const model = await loadTrace(path);
  return (await runChecks(model, mode)).findings;
}

/** `[line, parentLine|null, kind]` of every event, in file order. */
export function treeOf(model: TraceModel): [number, number | null, string][] {
  const t = model.events;
  const out: [number, number | null, string][] = [];
  for (let i = 0; i < t.size; i++) {
    const p = t.parent(i);
    out.push([t.lineOf(i), p >= 0 ? t.lineOf(p) : null, t.kindOf(i)]);
  }
  return out;
}

let dir: string | null = null;
/** Writes a file into this run's temp folder and returns its path. */
export function writeTemp(name: string, text: string): string {
  dir ??= mkdtempSync(join(tmpdir(), 'agent-trace-harness-'));
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

/** The lines of a corpus file (without the final empty string). */
export function corpusLines(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l !== '');
}

/** Serialises lines back to JSONL with a final newline. */
export function jsonl(lines: string[]): string {
  return lines.join('\n') + '\n';
}

export type Rec = { seq: number; occurred_at_ms: number; event: Record<string, unknown> };
export type Line = { v?: number; record?: Rec } & Partial<Rec>;

/** A corpus file as editable objects; `rec(i)` is the RecordedEvent of line i+1 (bare or enveloped). */
export function editable(name: string) {
  const lines = corpusLines(harnessCorpus(name)).map((l) => JSON.parse(l) as Line);
  const rec = (i: number): Rec => (lines[i].record ?? lines[i]) as Rec;
  const write = (file: string, ls: Line[] = lines) => writeTemp(file, jsonl(ls.map((l) => JSON.stringify(l))));
  const renumber = () => lines.forEach((_, i) => (rec(i).seq = i));
  return { lines, rec, write, renumber };
}

