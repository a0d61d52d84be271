import { AGENTLEDGER_RULES } from './catalog';
import { createAgentledgerChecker } from './checker';
import { createAgentledgerVerifier } from './verifier';
import { RuleModule } from '../../rules/types';

/**
 * AgentLedger verification (payload digests, seq, blobs, bundle hash, bundle events, replay digest, ledger
 * links) and conformance (row and payload schemas, causal tokens, call order, the adversarial review).
 * `agentledger/line-json` replaces the generic invalid-JSON finding with the format's own wording.
 */
export const agentledgerRules: RuleModule = {
  format: 'agentledger',
  rules: AGENTLEDGER_RULES,
  supersedes: ['parse/invalid-json'],
  createVerifier: (ctx) => createAgentledgerVerifier(ctx),
  createChecker: (ctx) => createAgentledgerChecker(ctx),
};
