import type { FormatModule } from '../../format';
import { continueAdapter } from './adapter';

/** The continue format: detection and reading; its files get the generic rules. */
export const continueFormat: FormatModule = {
  ...continueAdapter,
  groupNoun: 'session',
  fileNamePatterns: ['**/.continue/sessions/*-*.json'],
  verificationScope:
    'Continue CLI sessions have no hash chain: verification proves the document is JSON and its results name calls it holds, nothing about the content.',
};
