import { collectingCheck } from '../../checks/checkRecords';
import { checkClaude } from './claudeConformance';
import { claudeDocumentRecords, claudeLine } from './claudeRecords';
import { verifyClaude } from './claudeVerify';
import { RuleInfo, RuleModule } from '../../checks/types';

/** The Claude Code rules of the format doc's "Checks a viewer can run", plus a message schema rule. */
export const CLAUDE_CODE_RULES: RuleInfo[] = [
  { id: 'claude/line-json', format: 'claude-code', mode: 'verify', severity: 'error', summary: 'A line is not a JSON object with a string type.',
    explanation: 'Every line of a transcript is one JSON object whose "type" says what it is (user, assistant, system, summary, …). A line without it was not written by Claude Code or was damaged; it cannot be placed in the conversation.',
    example: '["user","hello"]' },
  { id: 'claude/type-known', format: 'claude-code', mode: 'check', severity: 'info', summary: 'A line type other than user, assistant, system or summary.',
    explanation: 'Newer Claude Code versions add line types (file-history-snapshot, queue-operation, progress, …). They are normal; the viewer shows them generically. One finding per type, at its first line.',
    example: '{"type":"file-history-snapshot","messageId":"…"}' },
  { id: 'claude/uuid-unique', format: 'claude-code', mode: 'verify', severity: 'warning', summary: 'Two lines share one uuid.',
    explanation: 'uuid identifies one line. A repeated uuid (a file appended twice, merged sessions) makes parent links ambiguous; children attach to the first line with it.',
    example: '{"type":"user","uuid":"a",…}\n{"type":"assistant","uuid":"a",…}' },
  { id: 'claude/parent-exists', format: 'claude-code', mode: 'verify', severity: 'warning', summary: 'parentUuid names no earlier line.',
    explanation: 'A non-null parentUuid is the uuid of an earlier line of the conversation. Dangling parents are normal in truncated or compacted files (the line is shown as a root); a parent that comes later means lines were reordered.',
    example: '{"type":"user","uuid":"b","parentUuid":"missing",…}' },
  { id: 'claude/parent-cycle', format: 'claude-code', mode: 'verify', severity: 'error', summary: 'Following parentUuid revisits a line.',
    explanation: 'parentUuid links form a tree. A cycle means uuids were edited or two sessions were spliced; the link of the line last in the file is cut and that line shown as a root.',
    example: '{"uuid":"a","parentUuid":"b"}\n{"uuid":"b","parentUuid":"a"}' },
  { id: 'claude/sidechain-root', format: 'claude-code', mode: 'check', severity: 'warning', summary: 'A sidechain line parents to a main-chain line.',
    explanation: 'A subagent (Task) conversation is a sidechain: its first line has parentUuid null and isSidechain true, and its lines never link into the main chain. The main chain reaches it through the Task tool_result\'s agentId.',
    example: '{"isSidechain":true,"parentUuid":"<main-chain uuid>",…}' },
  { id: 'claude/tool-result-pairing', format: 'claude-code', mode: 'check', severity: 'warning', summary: 'A tool_result names no earlier tool_use.',
    explanation: 'Every tool_result.tool_use_id answers the tool_use block with that id in an earlier assistant line. An unmatched result means lines were lost or the file was cut at its head.',
    example: '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_missing"}]}}' },
  { id: 'claude/unanswered-tool-use', format: 'claude-code', mode: 'check', severity: 'info', summary: 'A tool_use has no tool_result.',
    explanation: 'The tool call was still running, was interrupted, or the session was cut before its result was written. Normal at the end of a live session.',
    example: '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"toolu_1","name":"Bash"}]}} (no result)' },
  { id: 'claude/split-message', format: 'claude-code', mode: 'check', severity: 'info', summary: 'Several assistant lines are one API response.',
    explanation: 'Claude Code writes one line per content block of a response; those lines share message.id and requestId and repeat its usage. Token totals count each response once; differing requestIds under one message.id are unusual.',
    example: '{"type":"assistant","message":{"id":"msg_1",…},"requestId":"req_1"}\n{"type":"assistant","message":{"id":"msg_1",…},"requestId":"req_1"}' },
  { id: 'claude/summary-leaf', format: 'claude-code', mode: 'verify', severity: 'info', summary: 'summary.leafUuid names no line here or in the project\'s other sessions.',
    explanation: 'A summary line names the last message (leafUuid) of the conversation it summarizes, in this file or another session file of the same project directory. When neither holds it, the summarized session was deleted or moved.',
    example: '{"type":"summary","summary":"…","leafUuid":"gone"}' },
  { id: 'claude/timestamp-order', format: 'claude-code', mode: 'check', severity: 'info', summary: 'A line is older than its parent.',
    explanation: 'A reply is written after the line it answers, so timestamps do not decrease along parentUuid. An earlier child hints at clock changes or spliced sessions.',
    example: '{"uuid":"a","timestamp":"2025-01-01T10:00:05Z"}\n{"uuid":"b","parentUuid":"a","timestamp":"2025-01-01T10:00:00Z"}' },
  { id: 'claude/message-schema', format: 'claude-code', mode: 'check', severity: 'warning', summary: 'A field has the wrong type for its line type.',
    explanation: 'Message lines carry a Messages API message (user: role user, string or block content; assistant: role assistant, block content, usage counts); tool_use blocks have id, name and an input object; tool_result blocks a tool_use_id. Keys are optional (fixtures omit ids) but typed when present.',
    example: '{"type":"assistant","message":{"role":"assistant","content":"text"}}' },
  { id: 'claude/parent-next-line', format: 'claude-code', mode: 'verify', severity: 'info', summary: 'parentUuid names the very next line.',
    explanation: 'Claude Code 2.1.114 writes a hook attachment one line before the line it hangs off, so its parent comes one line later. The tree is built from the uuids either way; this is the writer\'s order, not damage.',
    example: '{"type":"attachment","uuid":"h","parentUuid":"a"}\n{"type":"assistant","uuid":"a",…}' },
  { id: 'claude/logical-parent', format: 'claude-code', mode: 'verify', severity: 'info', summary: 'A compaction\'s logicalParentUuid names no line of the session.',
    explanation: 'When Claude Code compacts a conversation it writes a system compact_boundary line with parentUuid null and logicalParentUuid naming the last line before the cut; the viewer keeps the boundary in the tree through it. A logical parent in none of the session\'s files means the earlier part was deleted or is in a file elsewhere.',
    example: '{"type":"system","subtype":"compact_boundary","parentUuid":null,"logicalParentUuid":"gone",…}' },
  { id: 'claude/parent-tool-use', format: 'claude-code', mode: 'verify', severity: 'warning', summary: 'stream-json: parent_tool_use_id names no earlier tool_use.',
    explanation: 'In --output-format stream-json (and the Agent SDK), a subagent\'s messages carry parent_tool_use_id, the id of the Agent/Task tool_use that started it, which the stream printed before. An id no earlier assistant line holds means lines were lost or the stream was cut at its head.',
    example: '{"type":"assistant","parent_tool_use_id":"toolu_missing","session_id":"…",…}' },
  { id: 'claude/stream-result', format: 'claude-code', mode: 'check', severity: 'warning', summary: 'stream-json: a run has no result line.',
    explanation: 'Claude Code prints a result line (usage, cost, num_turns) when a run ends; a background subagent\'s notification is a second run with its own system/init and result. Fewer results than inits means the stream was cut or the process was stopped before the end.',
    example: '{"type":"system","subtype":"init",…}\n{"type":"assistant",…} (end of file)' },
  { id: 'claude/subagent-link', format: 'claude-code', mode: 'verify', severity: 'warning', summary: 'A subagent file names a tool call its session file does not have.',
    explanation: 'A subagent transcript <session>/subagents/agent-<id>.jsonl has an agent-<id>.meta.json whose toolUseId is the Agent/Task tool_use in <session>.jsonl that started it. When the session file is there but holds no tool call with that id, the files do not belong together (or the session file was cut).',
    example: 'agent-a1.meta.json {"toolUseId":"toolu_x"}, no "id":"toolu_x" in the session file' },
];

/** Claude Code transcript verification (uuids, parents, cycles, summaries) and conformance (pairing, sidechains, schema). */
export const claudeCodeRules: RuleModule = {
  format: 'claude-code',
  rules: CLAUDE_CODE_RULES,
  supersedes: ['tree/duplicate-id', 'tree/dangling-parent', 'tree/parent-elsewhere', 'tree/cycle', 'generic/time-backwards'],
  createVerifier: (ctx) => collectingCheck(ctx, (r, i) => claudeLine(r, i, false), (lines) => verifyClaude(ctx.path, lines), claudeDocumentRecords(ctx)),
  createChecker: (ctx) => collectingCheck(ctx, (r, i) => claudeLine(r, i, true), checkClaude, claudeDocumentRecords(ctx)),
};
