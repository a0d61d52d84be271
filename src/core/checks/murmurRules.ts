import { RuleModule } from './types';

/** PLACEHOLDER: the murmur verifier and conformance rules go here. */
export const murmurRules: RuleModule = { format: 'murmur', rules: [] };
