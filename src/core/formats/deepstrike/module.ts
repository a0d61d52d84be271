import type { FormatModule } from '../../format';
import { deepstrikeAdapter } from './adapter';
import { deepstrikeRules } from './rules';

/** The deepstrike format: detection, reading, rules and what its verification proves. */
export const deepstrikeFormat: FormatModule = {
  ...deepstrikeAdapter,
  groupNoun: 'run',
  // DeepStrike keeps session logs in `.sessions/`.
  fileNamePatterns: ['**/.sessions/*.jsonl'],
  rules: deepstrikeRules,
  sideFolders: ['kernel-journal'],
  verificationScope:
    'The session log has no hash chain: proves framing and seq density only. A kernel journal next to it, when present, is a real digest chain and is verified record by record.',
};
