import type { FormatModule } from '../../format';
import { folderAt } from '../common';
import { piAdapter } from './adapter';

/** The pi format: detection and reading; its files get the generic rules. pi has no subagent tool. */
export const piFormat: FormatModule = {
  ...piAdapter,
  groupNoun: 'session',
  fileNamePatterns: ['**/.pi/agent/sessions/**/*.jsonl'],
  // The session header names the folder (`cwd`).
  workingFolder: (v) => folderAt(v, 'cwd'),
  verificationScope:
    'pi session files have no hash chain: verification proves the lines are JSON and their entry links resolve, nothing about the content.',
};
