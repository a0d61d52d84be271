import { genericAdapter } from './generic';
import { FormatAdapter } from './types';

/** PLACEHOLDER: to be replaced by the real harness-ledger adapter. */
export const harnessLedgerAdapter: FormatAdapter = {
  name: 'harness-ledger',
  title: 'Harness ledger (platonic)',
  sniff: () => ({ confidence: 0, reason: 'not implemented' }),
  createBuilder: () => genericAdapter.createBuilder(),
};
