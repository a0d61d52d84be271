import type { FormatModule } from '../../format';
import { harnessLedgerAdapter } from './adapter';
import { harnessLedgerRules } from './rules';

/** The harness-ledger format: detection, reading, rules and what its verification proves. */
export const harnessLedgerFormat: FormatModule = {
  ...harnessLedgerAdapter,
  groupNoun: 'run',
  rules: harnessLedgerRules,
  verificationScope:
    'The harness ledger has no hash chain. Proves seq runs 0, 1, 2… without gaps and one run per file; an edited field or a consistently renumbered file is not detectable.',
};
