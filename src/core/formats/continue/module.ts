import type { FormatModule } from '../../format';
import { folderAt } from '../common';
import { continueAdapter } from './adapter';

/** The continue format: detection and reading; its files get the generic rules. */
export const continueFormat: FormatModule = {
  ...continueAdapter,
  groupNoun: 'session',
  fileNamePatterns: ['**/.continue/sessions/*-*.json'],
  // A session document names its folder (`workspaceDirectory`); sessions.json's entries are no run.
  workingFolder: (v) => (folderAt(v, 'sessionId') !== null && Array.isArray((v as { history?: unknown }).history) ? folderAt(v, 'workspaceDirectory') : null),
  verificationScope:
    'Continue CLI sessions have no hash chain: verification proves the document is JSON and its results name calls it holds, nothing about the content.',
};
