import type { FormatModule } from '../../format';
import { claudeCodeAdapter } from './adapter';
import { claudeCodeRules } from './rules';

/** The claude-code format: detection, reading, rules and what its verification proves. */
export const claudeCodeFormat: FormatModule = {
  ...claudeCodeAdapter,
  groupNoun: 'session',
  rules: claudeCodeRules,
  verificationScope:
    'Claude Code transcripts have no hash chain or blobs: proves unique uuids and parent links that resolve without cycles (looked up across the session folder: main session, subagents, compaction agents), and a subagent\'s link to its tool call; stream-json: parent_tool_use_id links. Nothing about the content.',
};
