import type { FormatModule } from '../../format';
import { geminiCliAdapter } from './adapter';
import { geminiCliRules } from './rules';

/** The gemini-cli format: detection, reading, rules and what its verification proves. */
export const geminiCliFormat: FormatModule = {
  ...geminiCliAdapter,
  groupNoun: 'session',
  fileNamePatterns: ['**/.gemini/tmp/**/chats/*.jsonl', '**/.gemini/tmp/**/chats/*.json'],
  rules: geminiCliRules,
  verificationScope:
    'Gemini CLI files have no hash chain: proves the line shape, the session header or init event, and that a stream\'s tool calls match its own result stats, nothing about the content.',
};
