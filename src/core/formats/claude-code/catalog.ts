import { ruleCatalog, RuleEntry } from '../../catalog/ruleEntries';
import { Finding } from '../../model';

/** The Claude Code rules of the format doc's "Checks a viewer can run", plus a message schema rule. */
const ENTRIES = [
  ['line-json', 'verify', 'error', 'A line is not a JSON object with a string type.',
    'Every line of a transcript is one JSON object whose "type" says what it is (user, assistant, system, summary, …). A line without it was not written by Claude Code or was damaged; it cannot be placed in the conversation.',
    '["user","hello"]'],
  ['type-known', 'check', 'info', 'A line type other than user, assistant, system or summary.',
    'Newer Claude Code versions add line types (file-history-snapshot, queue-operation, progress, …). They are normal; the viewer shows them generically. One finding per type, at its first line.',
    '{"type":"file-history-snapshot","messageId":"…"}'],
  ['uuid-unique', 'verify', 'warning', 'Two lines share one uuid.',
    'uuid identifies one line. A repeated uuid (a file appended twice, merged sessions) makes parent links ambiguous; children attach to the first line with it.',
    '{"type":"user","uuid":"a",…}\n{"type":"assistant","uuid":"a",…}'],
  ['parent-exists', 'verify', 'warning', 'parentUuid names no earlier line.',
    'A non-null parentUuid is the uuid of an earlier line of the conversation. Dangling parents are normal in truncated or compacted files (the line is shown as a root); a parent that comes later means lines were reordered.',
    '{"type":"user","uuid":"b","parentUuid":"missing",…}'],
  ['parent-cycle', 'verify', 'error', 'Following parentUuid revisits a line.',
    'parentUuid links form a tree. A cycle means uuids were edited or two sessions were spliced; the link of the line last in the file is cut and that line shown as a root.',
    '{"uuid":"a","parentUuid":"b"}\n{"uuid":"b","parentUuid":"a"}'],
  ['sidechain-root', 'check', 'warning', 'A sidechain line parents to a main-chain line.',
    'A subagent (Task) conversation is a sidechain: its first line has parentUuid null and isSidechain true, and its lines never link into the main chain. The main chain reaches it through the Task tool_result\'s agentId.',
    '{"isSidechain":true,"parentUuid":"<main-chain uuid>",…}'],
  ['tool-result-pairing', 'check', 'warning', 'A tool_result names no earlier tool_use.',
    'Every tool_result.tool_use_id answers the tool_use block with that id in an earlier assistant line. An unmatched result means lines were lost or the file was cut at its head.',
    '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_missing"}]}}'],
  ['unanswered-tool-use', 'check', 'info', 'A tool_use has no tool_result.',
    'The tool call was still running, was interrupted, or the session was cut before its result was written. Normal at the end of a live session.',
    '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"toolu_1","name":"Bash"}]}} (no result)'],
  ['split-message', 'check', 'info', 'Several assistant lines are one API response.',
    'Claude Code writes one line per content block of a response; those lines share message.id and requestId and repeat its usage. Token totals count each response once; differing requestIds under one message.id are unusual.',
    '{"type":"assistant","message":{"id":"msg_1",…},"requestId":"req_1"}\n{"type":"assistant","message":{"id":"msg_1",…},"requestId":"req_1"}'],
  ['summary-leaf', 'verify', 'info', 'summary.leafUuid names no line here or in the project\'s other sessions.',
    'A summary line names the last message (leafUuid) of the conversation it summarizes, in this file or another session file of the same project directory. When neither holds it, the summarized session was deleted or moved.',
    '{"type":"summary","summary":"…","leafUuid":"gone"}'],
  ['timestamp-order', 'check', 'info', 'A line is older than its parent.',
    'A reply is written after the line it answers, so timestamps do not decrease along parentUuid. An earlier child hints at clock changes or spliced sessions.',
    '{"uuid":"a","timestamp":"2025-01-01T10:00:05Z"}\n{"uuid":"b","parentUuid":"a","timestamp":"2025-01-01T10:00:00Z"}'],
  ['message-schema', 'check', 'warning', 'A field has the wrong type for its line type.',
    'Message lines carry a Messages API message (user: role user, string or block content; assistant: role assistant, block content, usage counts); tool_use blocks have id, name and an input object; tool_result blocks a tool_use_id. Keys are optional (fixtures omit ids) but typed when present.',
    '{"type":"assistant","message":{"role":"assistant","content":"text"}}'],
  ['parent-next-line', 'verify', 'info', 'parentUuid names the very next line.',
    'Claude Code 2.1.114 writes a hook attachment one line before the line it hangs off, so its parent comes one line later. The tree is built from the uuids either way; this is the writer\'s order, not damage.',
    '{"type":"attachment","uuid":"h","parentUuid":"a"}\n{"type":"assistant","uuid":"a",…}'],
  ['logical-parent', 'verify', 'info', 'A compaction\'s logicalParentUuid names no line of the session.',
    'When Claude Code compacts a conversation it writes a system compact_boundary line with parentUuid null and logicalParentUuid naming the last line before the cut; the viewer keeps the boundary in the tree through it. A logical parent in none of the session\'s files means the earlier part was deleted or is in a file elsewhere.',
    '{"type":"system","subtype":"compact_boundary","parentUuid":null,"logicalParentUuid":"gone",…}'],
  ['parent-tool-use', 'verify', 'warning', 'stream-json: parent_tool_use_id names no earlier tool_use.',
    'In --output-format stream-json (and the Agent SDK), a subagent\'s messages carry parent_tool_use_id, the id of the Agent/Task tool_use that started it, which the stream printed before. An id no earlier assistant line holds means lines were lost or the stream was cut at its head.',
    '{"type":"assistant","parent_tool_use_id":"toolu_missing","session_id":"…",…}'],
  ['stream-result', 'check', 'warning', 'stream-json: a run has no result line.',
    'Claude Code prints a result line (usage, cost, num_turns) when a run ends; a background subagent\'s notification is a second run with its own system/init and result. Fewer results than inits means the stream was cut or the process was stopped before the end.',
    '{"type":"system","subtype":"init",…}\n{"type":"assistant",…} (end of file)'],
  ['subagent-link', 'verify', 'warning', 'A subagent file names a tool call its session file does not have.',
    'A subagent transcript <session>/subagents/agent-<id>.jsonl has an agent-<id>.meta.json whose toolUseId is the Agent/Task tool_use in <session>.jsonl that started it. When the session file is there but holds no tool call with that id, the files do not belong together (or the session file was cut).',
    'agent-a1.meta.json {"toolUseId":"toolu_x"}, no "id":"toolu_x" in the session file'],
] as const satisfies readonly RuleEntry[];

/** The Claude Code rule catalog; every claude/ finding takes its severity from it. */
export const CLAUDE_CATALOG = ruleCatalog('claude', 'claude-code', ENTRIES);

/** A Claude Code rule id. */
export type ClaudeRuleId = Parameters<typeof CLAUDE_CATALOG.finding>[0];

/** What a finding needs of a transcript line: its line number and, when it has one, its uuid (the event id). */
export interface ClaudeAt {
  line: number;
  uuid: string | null;
}

/** A finding of `rule` at a transcript line, at the catalog severity, naming the line's uuid as its event. */
export function claudeFinding(rule: ClaudeRuleId, l: ClaudeAt, message: string): Finding {
  return CLAUDE_CATALOG.finding(rule, l.line, message, l.uuid ? { eventId: l.uuid } : undefined);
}
