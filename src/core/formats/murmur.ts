import { genericAdapter } from './generic';
import { FormatAdapter } from './types';

/** PLACEHOLDER: to be replaced by the real murmur adapter. */
export const murmurAdapter: FormatAdapter = {
  name: 'murmur',
  title: 'murmur',
  sniff: () => ({ confidence: 0, reason: 'not implemented' }),
  createBuilder: () => genericAdapter.createBuilder(),
};
