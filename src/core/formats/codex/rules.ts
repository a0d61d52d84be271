import { checkCodex, codexLine, verifyCodex } from './codexChecks';
import { collectingCheck, eventLine } from '../../checks/checkRecords';
import { CheckContext, RuleInfo, RuleModule } from '../../checks/types';

/** The Codex rollout rules of the format doc's "Checks a viewer can run", plus a payload schema rule. */
export const CODEX_RULES: RuleInfo[] = [
  { id: 'codex/line-json', format: 'codex', mode: 'verify', severity: 'error', summary: 'A line is not a JSON object.',
    explanation: 'The recorder writes one RolloutLine object per line. Any other JSON value was not written by Codex (or the file was edited) and cannot be read as an item.',
    example: '["response_item", {}]' },
  { id: 'codex/line-shape', format: 'codex', mode: 'check', severity: 'error', summary: 'A line lacks timestamp (string), type (string) or payload (object).',
    explanation: 'On disk every RolloutLine is {"timestamp": RFC 3339, "type": item type, "payload": {…}}. A line missing one of them is from the legacy layout (before the type/payload wrapper) or damaged.',
    example: '{"type":"message","role":"user","content":[]}' },
  { id: 'codex/type-known', format: 'codex', mode: 'check', severity: 'info', summary: 'An item type other than the five RolloutItem variants.',
    explanation: 'RolloutItem is session_meta, response_item, compacted, turn_context or event_msg. Newer Codex versions add variants; they are shown as opaque items. One finding per type, at its first line.',
    example: '{"timestamp":"…","type":"future_record","payload":{}}' },
  { id: 'codex/session-meta-first', format: 'codex', mode: 'verify', severity: 'warning', summary: 'The first line is not session_meta, or there are several.',
    explanation: 'Codex creates the rollout file with its session_meta line and writes it once. A missing or late header means the head of the file was cut; a second one means two sessions were concatenated.',
    example: '{"timestamp":"…","type":"event_msg","payload":{"type":"user_message",…}} (line 1)' },
  { id: 'codex/file-name-id', format: 'codex', mode: 'verify', severity: 'info', summary: 'The file name\'s uuid differs from session_meta.payload.id.',
    explanation: 'Rollouts are named rollout-<time>-<session uuid>.jsonl. A different id in the header means the file was renamed or its content replaced.',
    example: 'rollout-2026-01-02T03-04-05-1111….jsonl holding session 2222…' },
  { id: 'codex/call-pairing', format: 'codex', mode: 'check', severity: 'warning', summary: 'An output names no earlier call of its kind.',
    explanation: 'function_call_output answers a function_call (or local_shell_call) with the same call_id; custom_tool_call_output answers a custom_tool_call. An output without its call, of the wrong kind, or a second output for one call means lines were lost or merged.',
    example: '{"type":"response_item","payload":{"type":"function_call_output","call_id":"call-missing","output":"…"}}' },
  { id: 'codex/unanswered-call', format: 'codex', mode: 'check', severity: 'info', summary: 'A call has no output.',
    explanation: 'The tool was still running, the turn was interrupted, or the file was cut. Normal at the end of a live session.',
    example: '{"type":"response_item","payload":{"type":"function_call","call_id":"call-1",…}} (no output)' },
  { id: 'codex/arguments-json', format: 'codex', mode: 'check', severity: 'warning', summary: 'function_call.arguments is not JSON.',
    explanation: 'The Responses API returns function arguments as JSON text; Codex parses it before running the tool. Text that does not parse means the model produced a broken call, which the tool rejected.',
    example: '{"type":"function_call","arguments":"{\\"cmd\\": ","call_id":"call-1"}' },
  { id: 'codex/timestamp-order', format: 'codex', mode: 'check', severity: 'info', summary: 'A timestamp is earlier than the line before it.',
    explanation: 'The recorder appends in time order, so timestamps do not decrease. Going backwards hints at merged files or clock changes.' },
  { id: 'codex/payload-schema', format: 'codex', mode: 'check', severity: 'warning', summary: 'A payload field has the wrong type for its item.',
    explanation: 'Payloads follow codex-rs/protocol: session_meta has id, timestamp, cwd, originator and cli_version; turn_context cwd, approval_policy, sandbox_policy and model; function_call name, arguments (text) and call_id; outputs a call_id and output. Unknown fields and unknown item types are allowed.',
    example: '{"type":"session_meta","payload":{"id":"…","cwd":"/p"}}' },
  { id: 'codex/ordinal-sequence', format: 'codex', mode: 'verify', severity: 'warning', summary: 'A line\'s ordinal is not the previous line\'s plus one.',
    explanation: 'Codex 0.17x numbers every rollout line with an ordinal, 0, 1, 2, … in file order (a resumed session continues the count). A gap means lines were cut out there; a repeat or a step back means lines were duplicated or moved. Files without ordinals (older Codex) are not checked.',
    example: '{"ordinal":4,…}\n{"ordinal":6,…}' },
  { id: 'codex/exec-thread-first', format: 'codex', mode: 'verify', severity: 'warning', summary: 'A codex exec --json stream does not start with thread.started.',
    explanation: 'codex exec --json prints thread.started (with the thread id) as its first event. A stream that starts elsewhere lost its head, or was cut from a longer capture.',
    example: '{"type":"turn.started"} (line 1)' },
  { id: 'codex/exec-turn-unfinished', format: 'codex', mode: 'check', severity: 'warning', summary: 'A turn.started has no turn.completed or turn.failed.',
    explanation: 'Every turn of codex exec --json ends with turn.completed (with the usage) or turn.failed. A turn without an end means the stream was cut, or the process was killed before it finished.',
    example: '{"type":"turn.started"}\n{"type":"item.completed",…} (end of file)' },
  { id: 'codex/exec-item-unfinished', format: 'codex', mode: 'check', severity: 'info', summary: 'An item.started has no item.completed.',
    explanation: 'A command or tool call that started (item.started) is reported again with item.completed when it ends. Without it, the item was still running when the stream ended or its line was lost.',
    example: '{"type":"item.started","item":{"id":"item_1","type":"command_execution",…}} (no item.completed)' },
  { id: 'codex/exec-event-shape', format: 'codex', mode: 'check', severity: 'error', summary: 'A codex exec --json line is not a typed event.',
    explanation: 'Every line of codex exec --json is a ThreadEvent: an object with a string type; item.* events carry an item with a string id and type. Other lines were not printed by codex exec (or are damaged).',
    example: '{"item":{"id":"item_0"}}' },
];

/** Rollouts are JSONL; a document forced into this format is read element by element at its events' lines. */
function documentRecords(ctx: CheckContext) {
  return (doc: unknown) => (Array.isArray(doc) ? doc : [doc]).map((value, i) => ({ value, line: eventLine(ctx, i) }));
}

/** Codex rollout verification (line shape, session header) and conformance (pairing, arguments, schemas). */
export const codexRules: RuleModule = {
  format: 'codex',
  rules: CODEX_RULES,
  supersedes: ['generic/time-backwards'],
  createVerifier: (ctx) => collectingCheck(ctx, (r) => codexLine(r, false), (lines) => verifyCodex(ctx.path, lines), documentRecords(ctx)),
  createChecker: (ctx) => collectingCheck(ctx, (r) => codexLine(r, true), checkCodex, documentRecords(ctx)),
};
