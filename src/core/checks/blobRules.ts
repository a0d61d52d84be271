import { RuleModule } from './types';

/** PLACEHOLDER: blob integrity verification (every referenced blob rehashes to its name) goes here. */
export const blobRules: RuleModule = { format: 'generic', rules: [] };
