import { RuleModule } from './types';

/** PLACEHOLDER: the harness-ledger verifier and conformance rules go here. */
export const harnessLedgerRules: RuleModule = { format: 'harness-ledger', rules: [] };
