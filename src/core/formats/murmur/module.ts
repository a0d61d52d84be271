import type { FormatModule } from '../../format';
import { murmurAdapter, murmurLabel } from './adapter';
import { murmurBlobLayout } from './blobLayout';
import { murmurRules } from './rules';

/** The murmur format: detection, reading, rules and what its verification proves. */
export const murmurFormat: FormatModule = {
  ...murmurAdapter,
  groupNoun: 'session',
  // murmur writes `<session>/trace.jsonl`.
  fileNamePatterns: ['trace.jsonl'],
  deriveLabel: murmurLabel,
  rules: murmurRules,
  blobs: murmurBlobLayout,
  verificationScope:
    'murmur writes no hash chain. Proves every parent_id names an earlier event, event ids are unique and every blob rehashes to its name. Cannot detect an edited event whose links stay valid, or lines removed from the end.',
};
