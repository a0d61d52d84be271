import type { FormatModule } from '../../format';
import { folderAt } from '../common';
import { claudeCodeAdapter } from './adapter';
import { claudeLineLabel } from './claudeDescribe';
import { claudeCodeRules } from './rules';
import { findIdsIn, LOAD_LIMITS, originTranscript, relatedTranscripts, subagentCalls, subagentFiles } from './claudeFolder';

/** Line types Claude Code writes to keep its own state (no message, no tool call). */
/** The claude-code format: detection, reading, rules and what its verification proves. */
export const claudeCodeFormat: FormatModule = {
  ...claudeCodeAdapter,
  groupNoun: 'session',
  // Claude Code keeps every transcript under `~/.claude/projects/<project>/`.
  fileNamePatterns: ['**/.claude/projects/**/*.jsonl'],
  // Every line names the folder the session ran in.
  workingFolder: (v) => folderAt(v, 'cwd'),
  rules: claudeCodeRules,
  // Labels are made from the line when shown; a line that continues a response keeps its own.
  deriveLabel: claudeLineLabel,
  // Opening a subagent or compaction file finds its parents in the session's main file (a smaller budget than verify's).
  findElsewhere: async (path, ids) => findIdsIn(await relatedTranscripts(path), new Set(ids), 'uuid', LOAD_LIMITS),
  // A session's subagents and compaction agents are counted with it (core/sessionUsage.ts).
  sessionFiles: subagentFiles,
  // Each subagent's events are shown under the Agent/Task call that started it (core/sessionParts.ts).
  sessionCalls: subagentCalls,
  // A fork's origin is the transcript named by its session id in the same project folder.
  originFile: originTranscript,
  verificationScope:
    'Claude Code files have no hash chain or blobs: proves unique uuids, parents that resolve without cycles (in this file or the session\'s other files) and stream-json tool-call links, nothing about the content.',
};
