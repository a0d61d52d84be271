import type { FormatModule } from '../../format';
import { codexAdapter } from './adapter';
import { codexRules } from './rules';

/** The codex format: detection, reading, rules and what its verification proves. */
export const codexFormat: FormatModule = {
  ...codexAdapter,
  groupNoun: 'session',
  // Codex CLI names every rollout `rollout-<time>-<uuid>.jsonl`.
  fileNamePatterns: ['rollout-*.jsonl'],
  rules: codexRules,
  verificationScope:
    'Codex rollouts have no hash chain or blobs: proves the line shape and the session header, nothing about the content.',
};
