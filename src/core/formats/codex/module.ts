import type { FormatModule } from '../../format';
import { folderAt } from '../common';
import { codexAdapter } from './adapter';
import { codexRules } from './rules';
import { originRollout } from './codexFork';

/** The codex format: detection, reading, rules and what its verification proves. */
export const codexFormat: FormatModule = {
  ...codexAdapter,
  groupNoun: 'session',
  // Codex CLI names every rollout `rollout-<time>-<uuid>.jsonl`.
  fileNamePatterns: ['rollout-*.jsonl'],
  // The session's meta line and each turn's context name the folder (`payload.cwd`).
  workingFolder: (v) => folderAt(v, 'payload', 'cwd'),
  rules: codexRules,
  // A fork's origin is the rollout named by its thread id in the same day's folder.
  originFile: originRollout,
  verificationScope:
    'Codex rollouts and exec streams have no hash chain or blobs: proves the line shape, the session header and, in 0.17x, every line\'s ordinal (a cut or moved line is found), nothing about the content.',
};
