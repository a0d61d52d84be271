import { RuleModule } from './types';

/** PLACEHOLDER: the otlp verifier and conformance rules go here. */
export const otlpRules: RuleModule = { format: 'otlp', rules: [] };
