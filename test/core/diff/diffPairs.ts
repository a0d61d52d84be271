import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusPath, WRITER_CORPUS } from '../../helpers/corpus';
import { loadTrace } from '../../../src/core/loadTrace';
import { diffTraces, DiffOptions, TraceDiff } from '../../../src/core/diff/diffTraces';

/** The murmur writer's session in the shared corpus (7 events: a task of two turns, one tool call). */
export const MURMUR = corpusPath('murmur', 'ses_39263059f28c105d1fb17c2390c192cf', 'trace.jsonl');

/** An agentledger run of the shared corpus: its evidence rows (`events.jsonl`) or its span file (`trace.jsonl`). */
export function agentledger(run: 'approval-granted' | 'approval-denied', file: 'events.jsonl' | 'trace.jsonl'): string {
  return corpusPath('agentledger', run, file);
}

/** Claude Code 2.1.332's own session file for the `shell-ok` scenario (a Bash tool call). */
export function claudeSession(scenario: string): string {
  const dir = join(WRITER_CORPUS, 'claude-code-2.1.332', scenario, 'projects', '-home-user-project');
  return join(dir, readdirSync(dir).find((f) => f.endsWith('.jsonl'))!);
}

/** The non-empty lines of a file. */
export function linesOf(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.length > 0);
}

/** Writes `lines` as a JSONL file in a fresh temporary folder, under the given name. */
export function writeVariant(lines: string[], name = 'trace.jsonl'): string {
  const file = join(mkdtempSync(join(tmpdir(), 'atv-diff-')), name);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

/** Loads both files and diffs them. */
export async function diffFiles(a: string, b: string, options?: DiffOptions): Promise<TraceDiff> {
  return diffTraces(await loadTrace(a), await loadTrace(b), options);
}

/** The count of each op kind. */
export function opCounts(d: TraceDiff): Record<string, number> {
  const c: Record<string, number> = { equal: 0, insert: 0, delete: 0, change: 0 };
  for (const op of d.ops) c[op.op]++;
  return c;
}

/** `file` with a middle line dropped, another duplicated and a digit changed in a third: a run that differs. */
export function editedCopy(file: string): string | null {
  const lines = linesOf(file);
  if (lines.length < 4) return null;
  const m = lines.length >> 1;
  const out = lines.slice();
  out.splice(m, 1);
  out.splice(1, 0, out[1]);
  out[out.length - 1] = out[out.length - 1].replace(/\d/, (d) => String((Number(d) + 1) % 10));
  return writeVariant(out, file.endsWith('trace') ? 'trace' : 'trace.jsonl');
}
