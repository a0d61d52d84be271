import { ruleCatalog, RuleEntry } from '../../catalog/ruleEntries';

/** The Codex rollout rules of the format doc's "Checks a viewer can run", plus a payload schema rule. */
const ENTRIES = [
  ['line-json', 'verify', 'error', 'A line is not a JSON object.',
    'The recorder writes one RolloutLine object per line. Any other JSON value was not written by Codex (or the file was edited) and cannot be read as an item.',
    '["response_item", {}]'],
  ['line-shape', 'check', 'error', 'A line lacks timestamp (string), type (string) or payload (object).',
    'On disk every RolloutLine is {"timestamp": RFC 3339, "type": item type, "payload": {…}}. A line missing one of them is from the legacy layout (before the type/payload wrapper) or damaged.',
    '{"type":"message","role":"user","content":[]}'],
  ['type-known', 'check', 'info', 'An item type other than the five RolloutItem variants.',
    'RolloutItem is session_meta, response_item, compacted, turn_context or event_msg. Newer Codex versions add variants; they are shown as opaque items. One finding per type, at its first line.',
    '{"timestamp":"…","type":"future_record","payload":{}}'],
  ['session-meta-first', 'verify', 'warning', 'The first line is not session_meta, or there are several.',
    'Codex creates the rollout file with its session_meta line and writes it once. A missing or late header means the head of the file was cut; a second one means two sessions were concatenated.',
    '{"timestamp":"…","type":"event_msg","payload":{"type":"user_message",…}} (line 1)'],
  ['file-name-id', 'verify', 'info', 'The file name\'s uuid differs from session_meta.payload.id.',
    'Rollouts are named rollout-<time>-<session uuid>.jsonl. A different id in the header means the file was renamed or its content replaced.',
    'rollout-2026-01-02T03-04-05-1111….jsonl holding session 2222…'],
  ['call-pairing', 'check', 'warning', 'An output names no earlier call of its kind.',
    'function_call_output answers a function_call (or local_shell_call) with the same call_id; custom_tool_call_output answers a custom_tool_call. An output without its call, of the wrong kind, or a second output for one call means lines were lost or merged.',
    '{"type":"response_item","payload":{"type":"function_call_output","call_id":"call-missing","output":"…"}}'],
  ['unanswered-call', 'check', 'info', 'A call has no output.',
    'The tool was still running, the turn was interrupted, or the file was cut. Normal at the end of a live session.',
    '{"type":"response_item","payload":{"type":"function_call","call_id":"call-1",…}} (no output)'],
  ['arguments-json', 'check', 'warning', 'function_call.arguments is not JSON.',
    'The Responses API returns function arguments as JSON text; Codex parses it before running the tool. Text that does not parse means the model produced a broken call, which the tool rejected.',
    '{"type":"function_call","arguments":"{\\"cmd\\": ","call_id":"call-1"}'],
  ['timestamp-order', 'check', 'info', 'A timestamp is earlier than the line before it.',
    'The recorder appends in time order, so timestamps do not decrease. Going backwards hints at merged files or clock changes.'],
  ['payload-schema', 'check', 'warning', 'A payload field has the wrong type for its item.',
    'Payloads follow codex-rs/protocol: session_meta has id, timestamp, cwd, originator and cli_version; turn_context cwd, approval_policy, sandbox_policy and model; function_call name, arguments (text) and call_id; outputs a call_id and output. Unknown fields and unknown item types are allowed.',
    '{"type":"session_meta","payload":{"id":"…","cwd":"/p"}}'],
  ['ordinal-sequence', 'verify', 'warning', 'A line\'s ordinal is not the previous line\'s plus one.',
    'Codex 0.17x numbers every rollout line with an ordinal, 0, 1, 2, … in file order (a resumed session continues the count). A gap means lines were cut out there; a repeat or a step back means lines were duplicated or moved. Files without ordinals (older Codex) are not checked.',
    '{"ordinal":4,…}\n{"ordinal":6,…}'],
  ['exec-thread-first', 'verify', 'warning', 'A codex exec --json stream does not start with thread.started.',
    'codex exec --json prints thread.started (with the thread id) as its first event. A stream that starts elsewhere lost its head, or was cut from a longer capture.',
    '{"type":"turn.started"} (line 1)'],
  ['exec-turn-unfinished', 'check', 'warning', 'A turn.started has no turn.completed or turn.failed.',
    'Every turn of codex exec --json ends with turn.completed (with the usage) or turn.failed. A turn without an end means the stream was cut, or the process was killed before it finished.',
    '{"type":"turn.started"}\n{"type":"item.completed",…} (end of file)'],
  ['exec-item-unfinished', 'check', 'info', 'An item.started has no item.completed.',
    'A command or tool call that started (item.started) is reported again with item.completed when it ends. Without it, the item was still running when the stream ended or its line was lost.',
    '{"type":"item.started","item":{"id":"item_1","type":"command_execution",…}} (no item.completed)'],
  ['exec-event-shape', 'check', 'error', 'A codex exec --json line is not a typed event.',
    'Every line of codex exec --json is a ThreadEvent: an object with a string type; item.* events carry an item with a string id and type. Other lines were not printed by codex exec (or are damaged).',
    '{"item":{"id":"item_0"}}'],
] as const satisfies readonly RuleEntry[];

/** The codex rule catalog; every codex/ finding takes its severity from it. */
export const CODEX_CATALOG = ruleCatalog('codex', 'codex', ENTRIES);

/** A codex rule id. */
export type CodexRuleId = Parameters<typeof CODEX_CATALOG.finding>[0];
