import { RuleModule } from './types';

/** PLACEHOLDER: the claude-code verifier and conformance rules go here. */
export const claudeCodeRules: RuleModule = { format: 'claude-code', rules: [] };
