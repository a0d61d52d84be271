import { genericAdapter } from './generic';
import { FormatAdapter } from './types';

/** PLACEHOLDER: to be replaced by the real agentledger adapter. */
export const agentledgerAdapter: FormatAdapter = {
  name: 'agentledger',
  title: 'AgentLedger',
  sniff: () => ({ confidence: 0, reason: 'not implemented' }),
  createBuilder: () => genericAdapter.createBuilder(),
};
