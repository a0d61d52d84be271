import { RuleModule } from './types';

/** PLACEHOLDER: the agentledger verifier and conformance rules go here. */
export const agentledgerRules: RuleModule = { format: 'agentledger', rules: [] };
