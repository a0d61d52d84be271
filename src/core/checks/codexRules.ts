import { RuleModule } from './types';

/** PLACEHOLDER: the codex verifier and conformance rules go here. */
export const codexRules: RuleModule = { format: 'codex', rules: [] };
