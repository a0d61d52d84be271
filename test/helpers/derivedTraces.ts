import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writerFiles } from './writerCorpus';

/**
 * Real-writer files with one fact changed, for what the corpus does not hold: a model the price table does not know,
 * 1-hour cache writes. Each is written into `dir` and its path returned.
 */

/** The Gemini CLI chat of `shell-ok` with its second model message's model renamed to `model` (left unpriced). */
export function geminiWithModel(dir: string, model: string): string {
  const src = writerFiles('gemini-cli').find((p) => p.includes(join('shell-ok', 'tmp')) && p.includes(join('chats', '')))!;
  const lines = readFileSync(src, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
  const ids = [...new Set(lines.filter((v) => v.type === 'gemini').map((v) => v.id))];
  for (const v of lines) if (v.type === 'gemini' && v.id === ids[1]) v.model = model;
  const path = join(dir, 'session-2026-12-01T16-25-unpriced.jsonl');
  writeFileSync(path, lines.map((v) => JSON.stringify(v)).join('\n') + '\n');
  return path;
}

/** The Claude Code `subagent` transcript with every response's cache writes recorded as 1-hour writes (`oneHour` of each). */
export function claudeWithOneHourWrites(dir: string, oneHour: (cacheCreation: number) => number): string {
  const src = writerFiles('claude-code').find((p) => p.includes(join('subagent', 'projects')) && !p.includes('subagents'))!;
  const lines = readFileSync(src, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
  for (const v of lines) {
    const u = v.type === 'assistant' ? v.message?.usage : null;
    if (!u) continue;
    const h = oneHour(u.cache_creation_input_tokens ?? 0);
    u.cache_creation = { ephemeral_1h_input_tokens: h, ephemeral_5m_input_tokens: (u.cache_creation_input_tokens ?? 0) - h };
  }
  const path = join(dir, `${lines[0].sessionId ?? 'session'}.jsonl`);
  writeFileSync(path, lines.map((v) => JSON.stringify(v)).join('\n') + '\n');
  return path;
}
