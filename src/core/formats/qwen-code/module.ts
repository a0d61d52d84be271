import type { FormatModule } from '../../format';
import { folderAt } from '../common';
import { qwenCodeAdapter } from './adapter';
import { qwenSessionFiles } from './subagents';

/** The qwen-code format: detection and reading; its files get the generic rules. */
export const qwenCodeFormat: FormatModule = {
  ...qwenCodeAdapter,
  groupNoun: 'session',
  fileNamePatterns: ['**/.qwen/projects/**/chats/*.jsonl', '**/.qwen/projects/**/subagents/**/agent-*.jsonl'],
  // The chat's lines and the stream's init line name the folder (`cwd`).
  workingFolder: (v) => folderAt(v, 'cwd'),
  sessionFiles: qwenSessionFiles,
  verificationScope:
    'Qwen Code files have no hash chain: verification proves the lines are JSON and their links resolve, nothing about the content.',
};
