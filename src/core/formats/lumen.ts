import { genericAdapter } from './generic';
import { FormatAdapter } from './types';

/** PLACEHOLDER: to be replaced by the real lumen adapter. */
export const lumenAdapter: FormatAdapter = {
  name: 'lumen',
  title: 'Lumen',
  sniff: () => ({ confidence: 0, reason: 'not implemented' }),
  createBuilder: () => genericAdapter.createBuilder(),
};
