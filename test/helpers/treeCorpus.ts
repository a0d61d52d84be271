/** The writer-corpus transcripts the tree and detail tests read (test/corpus): one per agent, by scenario. */
import { strict as assert } from 'node:assert';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The one transcript under a corpus folder, in its writer's own layout (not its stream-json or exec output). */
export function corpusFile(dir: string): string {
  const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith('.jsonl') && e.name !== 'stream-json.jsonl' && e.name !== 'exec.jsonl' ? [join(d, e.name)] : []));
  const files = walk(resolve(dir));
  assert.equal(files.length, 1, `one transcript under ${dir}: ${files.join(', ')}`);
  return files[0];
}

export const CLAUDE_SHELL_FAIL = 'test/corpus/claude-code-2.1.332/shell-fail/projects';
export const CODEX_SHELL_FAIL = 'test/corpus/codex-0.171.0/shell-fail/sessions';
export const GEMINI_SHELL_FAIL = 'test/corpus/gemini-cli-0.61.0/shell-fail/tmp';
