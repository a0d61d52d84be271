import type { FormatModule } from '../../format';
import { folderAt } from '../common';
import { opencodeAdapter } from './adapter';
import { opencodeSessionFiles } from './subagents';

/** The opencode format: detection and reading; its files get the generic rules. */
export const opencodeFormat: FormatModule = {
  ...opencodeAdapter,
  groupNoun: 'session',
  // An export is named by whoever runs `opencode export > FILE`, and the stream by its redirect: no name is surely
  // opencode's, so the viewer is offered (Open With…) for them as for any .json/.jsonl, never their default.
  fileNamePatterns: [],
  // An export names its session's folder (`info.directory`), as each assistant message does (`path.cwd`).
  workingFolder: (v) => folderAt(v, 'info', 'directory') ?? folderAt(v, 'info', 'path', 'cwd'),
  sessionFiles: opencodeSessionFiles,
  verificationScope:
    'opencode files have no hash chain: verification proves the file is JSON and its links resolve, nothing about the content.',
};
