import type { FormatModule } from '../../format';
import { lumenAdapter } from './adapter';
import { lumenRules } from './rules';

/** The lumen format: detection, reading, rules and what its verification proves. */
export const lumenFormat: FormatModule = {
  ...lumenAdapter,
  groupNoun: 'run',
  // Lumen writes `.lumen/trace/<run_id>.jsonl`.
  fileNamePatterns: ['**/.lumen/trace/*.jsonl'],
  rules: lumenRules,
  sideFolders: ['cache'],
  strictText: true,
  verificationScope:
    'Proves every line hashes to its `hash` and links to the line before (from sha256:genesis), so an edited, deleted, inserted or reordered line breaks the chain where it happened. Cannot prove authorship: a file rewritten from the first line with recomputed hashes verifies, and a file cut after a complete line verifies as far as it goes (only a missing run_end, checked by conformance, hints at a truncated tail).',
};
