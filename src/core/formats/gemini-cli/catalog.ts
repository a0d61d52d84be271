import { ruleCatalog, RuleEntry } from '../../catalog/ruleEntries';

/** The Gemini CLI rules: what its chat recording service and stream-json writer always do. */
const ENTRIES = [
  ['line-json', 'verify', 'error', 'A line is not a JSON object.',
    'The chat recording service appends JSON.stringify of an object per line, and stream-json writes one event object per line. Any other value was not written by Gemini CLI.',
    '["user", "hi"]'],
  ['header-first', 'verify', 'warning', 'The file does not start with its session header (recording) or init event (stream-json).',
    'A recording is created with a {sessionId, projectHash, startTime, lastUpdated, kind} line; a stream-json run starts with {"type":"init"}. Without it the head of the file was cut.',
    '{"id":"…","type":"user","content":[…]} (line 1)'],
  ['stream-totals', 'verify', 'warning', 'A stream-json result counts other tool calls than the stream holds.',
    'The result event\'s stats.tool_calls is the CLI\'s own count of the tool calls of the run. When the tool_use lines since the init differ, lines were lost or added.',
    '{"type":"result","stats":{"tool_calls":2}} after one tool_use'],
  ['record-known', 'check', 'info', 'A line of a type this viewer does not know.',
    'Recording lines are a session header, a message (with an id), a {"$set": …} patch or a {"$rewindTo": id}; stream events are init, message, tool_use, tool_result, error and result. Newer versions may add others; they are shown as plain records. One finding per type.'],
  ['update-type', 'check', 'warning', 'A message is rewritten under its id with another type.',
    'Gemini CLI writes a message again under the same id when it changes (tokens, tool calls, results); that is an update, not a duplicate. An update that changes user into gemini (or back) means ids collided or lines of two sessions were merged.'],
  ['result-pairing', 'check', 'warning', 'A tool result names no earlier tool call.',
    'A functionResponse (recording) or tool_result (stream-json) answers the tool call with the same id, which the CLI writes first. A result without its call means the call\'s line was lost.'],
] as const satisfies readonly RuleEntry[];

/** The Gemini CLI rule catalog; every gemini-cli/ finding takes its severity from it. */
export const GEMINI_CATALOG = ruleCatalog('gemini-cli', 'gemini-cli', ENTRIES);

/** A Gemini CLI rule id. */
export type GeminiRuleId = Parameters<typeof GEMINI_CATALOG.finding>[0];
