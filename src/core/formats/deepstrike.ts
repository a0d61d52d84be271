import { genericAdapter } from './generic';
import { FormatAdapter } from './types';

/** PLACEHOLDER: to be replaced by the real deepstrike adapter. */
export const deepstrikeAdapter: FormatAdapter = {
  name: 'deepstrike',
  title: 'DeepStrike',
  sniff: () => ({ confidence: 0, reason: 'not implemented' }),
  createBuilder: () => genericAdapter.createBuilder(),
};
