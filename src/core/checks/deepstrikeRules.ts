import { RuleModule } from './types';

/** PLACEHOLDER: the deepstrike verifier and conformance rules go here. */
export const deepstrikeRules: RuleModule = { format: 'deepstrike', rules: [] };
