import type { FormatModule } from '../../format';
import { folderAt } from '../common';
import { copilotCliAdapter } from './adapter';

/** The copilot-cli format: detection and reading; its files get the generic rules. */
export const copilotCliFormat: FormatModule = {
  ...copilotCliAdapter,
  groupNoun: 'session',
  fileNamePatterns: ['**/.copilot/session-state/*/events.jsonl'],
  // session.start (and a resume) name the folder in `data.context.cwd`.
  workingFolder: (v) => folderAt(v, 'data', 'context', 'cwd'),
  verificationScope:
    'GitHub Copilot CLI files have no hash chain: verification proves the lines are JSON and their parent links resolve (in the stdout, links to events only the session file holds are kept as facts), nothing about the content.',
};
