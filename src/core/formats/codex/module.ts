import type { FormatModule } from '../../format';
import { codexAdapter } from './adapter';
import { codexRules } from './rules';

/** The codex format: detection, reading, rules and what its verification proves. */
export const codexFormat: FormatModule = {
  ...codexAdapter,
  groupNoun: 'session',
  rules: codexRules,
  verificationScope:
    'Codex rollouts have no hash chain or blobs: proves the line shape, the session header and (0.17x) the ordinal numbering of every line, so a line cut out or moved is found; exec --json streams: the thread start. Nothing about the content: a rewritten file verifies.',
};
