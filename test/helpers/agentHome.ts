import { cpSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { WRITER_CORPUS } from './corpus';
import { filesUnder } from './writerCorpus';

/**
 * Where each tool of the real-writer corpus keeps its sessions under the user's home, for the corpus folders that
 * are not named as in the home (the others are dot folders kept as the tool wrote them: `.qwen`, `.copilot`, `.pi`,
 * `.continue`, `.local/share/opencode`).
 */
const RENAMED: Record<string, Record<string, string>> = {
  'claude-code': { projects: '.claude/projects' },
  codex: { sessions: '.codex/sessions' },
  'gemini-cli': { tmp: '.gemini/tmp' },
};

/** One file laid out in the home. */
export interface HomeFile {
  /** The corpus tool (`claude-code`, `codex`, …), which is the format's name when the viewer reads it. */
  tool: string;
  /** Its scenario folder (`text`, `shell-ok`, `subagent`, …). */
  scenario: string;
  /** Where it was copied from and to. */
  source: string;
  path: string;
}

/**
 * Lays the real-writer corpus out in `home` as each agent keeps its sessions: every tool's files of every scenario in
 * its native folder (`.claude/projects/<project>/<id>.jsonl`, `.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`,
 * `.gemini/tmp/<project>/chats/…`, `.qwen/projects/…`, `.copilot/session-state/…`, `.pi/agent/sessions/…`,
 * `.continue/sessions/…`, `.local/share/opencode/…`). Scenarios of one tool share the folders (their files have
 * distinct names, but for each tool's own indexes, which the last scenario's copy keeps). Returns every file copied.
 */
export function layOutAgentHome(home: string): HomeFile[] {
  const out: HomeFile[] = [];
  for (const folder of readdirSync(WRITER_CORPUS).sort()) {
    const m = /^(.+)-\d+\.\d+\.\d+$/.exec(folder);
    if (!m || !statSync(join(WRITER_CORPUS, folder)).isDirectory()) continue;
    const tool = m[1];
    for (const scenario of readdirSync(join(WRITER_CORPUS, folder)).sort()) {
      const dir = join(WRITER_CORPUS, folder, scenario);
      if (!statSync(dir).isDirectory()) continue;
      for (const name of readdirSync(dir)) {
        const target = RENAMED[tool]?.[name] ?? (name.startsWith('.') ? name : null);
        const src = join(dir, name);
        if (target === null || !statSync(src).isDirectory()) continue;
        for (const f of filesUnder(src, () => true)) {
          const path = join(home, target, relative(src, f));
          cpSync(f, path);
          out.push({ tool, scenario, source: f, path });
        }
      }
    }
  }
  return out;
}
