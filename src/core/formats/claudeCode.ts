import { genericAdapter } from './generic';
import { FormatAdapter } from './types';

/** PLACEHOLDER: to be replaced by the real claude-code adapter. */
export const claudeCodeAdapter: FormatAdapter = {
  name: 'claude-code',
  title: 'Claude Code transcript',
  sniff: () => ({ confidence: 0, reason: 'not implemented' }),
  createBuilder: () => genericAdapter.createBuilder(),
};
