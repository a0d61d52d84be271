import { LumenChainVerifier } from './lumenChainVerifier';
import { LUMEN_RULE_INFOS } from './lumenRuleCatalog';
import { LumenRunChecker } from './lumenRunChecker';
import { RuleModule } from '../../rules/types';
import { LumenDigestWriter } from './lumenDigest';

/**
 * Lumen rules (lumen.md §11): `verify` follows the hash chain of §6 and whether upstream can load each line;
 * `check` replays the run state machine of §9 and the per-kind fields of §4.
 */
export const lumenRules: RuleModule = {
  format: 'lumen',
  rules: LUMEN_RULE_INFOS,
  // lumen/line-json reports bad lines with upstream's wording (and blank lines, which upstream also rejects).
  supersedes: ['parse/invalid-json'],
  // Both can take lines digested in range workers (lumenDigest.ts), so a streamed run may read the file in ranges.
  lineDigest: (mode) => new LumenDigestWriter(mode),
  createVerifier: (ctx) => new LumenChainVerifier(ctx),
  createChecker: (ctx) => new LumenRunChecker(ctx),
};
