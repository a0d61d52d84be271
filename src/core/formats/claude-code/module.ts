import type { FormatModule } from '../../format';
import { claudeCodeAdapter } from './adapter';
import { claudeCodeRules } from './rules';

/** The claude-code format: detection, reading, rules and what its verification proves. */
export const claudeCodeFormat: FormatModule = {
  ...claudeCodeAdapter,
  groupNoun: 'session',
  // Claude Code keeps every transcript under `~/.claude/projects/<project>/`.
  fileNamePatterns: ['**/.claude/projects/**/*.jsonl'],
  rules: claudeCodeRules,
  verificationScope:
    'Claude Code transcripts have no hash chain or blobs: proves unique uuids and parent links that resolve without cycles, nothing about the content.',
};
