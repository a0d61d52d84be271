import type { FormatModule } from '../../format';
import { genericAdapter } from './adapter';

/** The generic format: detection, reading, rules and what its verification proves. */
export const genericFormat: FormatModule = {
  ...genericAdapter,
  groupNoun: 'session',
  // Each message names the one before it (parentUuid, parent_id): a staircase unless shown compact.
  linearChains: true,
  // Kinds it does not know are category other: the user's events, not bookkeeping.
  otherKindsAreEvents: true,
  verificationScope:
    'A generic JSONL file has no integrity data: proves ids are unique and parents resolve without cycles, nothing about the content.',
};
