import { RuleModule } from './types';

/** PLACEHOLDER: the lumen verifier and conformance rules go here. */
export const lumenRules: RuleModule = { format: 'lumen', rules: [] };
