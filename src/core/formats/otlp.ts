import { genericAdapter } from './generic';
import { FormatAdapter } from './types';

/** PLACEHOLDER: to be replaced by the real otlp adapter. */
export const otlpAdapter: FormatAdapter = {
  name: 'otlp',
  title: 'OTLP/JSON spans',
  sniff: () => ({ confidence: 0, reason: 'not implemented' }),
  createBuilder: () => genericAdapter.createBuilder(),
};
