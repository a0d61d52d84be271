import type { FormatModule } from '../../format';
import { geminiCliAdapter } from './adapter';
import { geminiCliRules } from './rules';
import { joinedChunks } from './streamBuilder';

/** The gemini-cli format: detection, reading, rules and what its verification proves. */
export const geminiCliFormat: FormatModule = {
  ...geminiCliAdapter,
  groupNoun: 'session',
  fileNamePatterns: ['**/.gemini/tmp/**/chats/*.jsonl', '**/.gemini/tmp/**/chats/*.json'],
  rules: geminiCliRules,
  // A streamed answer is one event at its first chunk: the detail and the transcript read the chunks after it.
  continuedText: joinedChunks,
  verificationScope:
    'Gemini CLI files have no hash chain: proves the line shape, the session header or init event, and that a stream\'s tool calls match its own result stats, nothing about the content.',
};
