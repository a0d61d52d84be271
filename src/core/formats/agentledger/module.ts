import type { FormatModule } from '../../format';
import { agentledgerAdapter } from './adapter';
import { agentledgerBlobLayout } from './blobLayout';
import { agentledgerRules } from './rules';

/** The agentledger format: detection, reading, rules and what its verification proves. */
export const agentledgerFormat: FormatModule = {
  ...agentledgerAdapter,
  groupNoun: 'run',
  eventTime: 'start',
  // AgentLedger's store writes `events.jsonl`.
  fileNamePatterns: ['**/events.jsonl'],
  rules: agentledgerRules,
  blobs: agentledgerBlobLayout,
  verificationScope:
    'Proves each payload matches its digest, seq runs 1, 2, 3…, blobs match their names and the ledger links and bundle agree. The Rust writer\'s "sha256" digests are 64-bit FNV-1a: they catch accidents, not forgery; the TypeScript runtime\'s are SHA-256 of the payload_ref text and of the bundle. There is no chain across lines, so a consistently rewritten file verifies.',
};
