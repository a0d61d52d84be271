import { genericAdapter } from './generic';
import { FormatAdapter } from './types';

/** PLACEHOLDER: to be replaced by the real codex adapter. */
export const codexAdapter: FormatAdapter = {
  name: 'codex',
  title: 'Codex CLI rollout',
  sniff: () => ({ confidence: 0, reason: 'not implemented' }),
  createBuilder: () => genericAdapter.createBuilder(),
};
