import { ruleCatalog, RuleEntry } from '../../catalog/ruleEntries';

/** Integrity rules (`agent-trace verify`): murmur has no hash chain, so this is the parent chain plus digests (§5, §8). */
const VERIFY_ENTRIES = [
  ['line-json', 'verify', 'error', 'Every non-empty line is one JSON object.',
    'murmur writes one compact JSON object per line. A line that does not parse was torn or garbled. A crash can leave the last line without its newline; the next session then prefixes its shell_lost line with "\\n", so the torn fragment stays as its own line in the middle of the file. Such a fragment (the last line, or one followed by shell_lost) is reported as a warning; any other unparseable line is an error. The other lines still load.',
    '{"event_type":"tool_call","event_id":"evt_0\n{"event_type":"shell_lost",…}'],
  ['event-id-format', 'verify', 'error', 'event_id is evt_ followed by 32 lowercase hex digits.',
    'Every event id is minted as `evt_` + a UUIDv7 in simple form (36 characters). control_change ids are supplied by the caller, so a different form there is only a warning.',
    '{"event_type":"task_start","event_id":"evt_12ab",…}'],
  ['event-id-unique', 'verify', 'error', 'No two events share an event_id.',
    'Ids are minted fresh for every event. The one tolerated repeat is a session_start written twice by one writer: both lines carry the same session event id. Any other repeat makes parent links ambiguous (children attach to the first event with the id).',
    'two tool_call lines with the same event_id'],
  ['parent-exists', 'verify', 'error', 'Every non-null parent_id names an event earlier in the file.',
    'TraceWriter only ever names an event it wrote before, so a parent that is missing means lines were lost or edited, and a parent written later means lines were moved. Resource and plan appenders name the session event id even before session_start is written; such forward references are warnings. shell_lost names the session_start of the file it was appended to.',
    '{"event_type":"tool_call","parent_id":"evt_<id not in the file>",…}'],
  ['parent-depth', 'verify', 'error', 'Following parent_id ends within 4 hops, without a cycle.',
    'The tree is at most session → task → turn → tool/hook event, so any chain of parents is short. A longer chain or a cycle means parent ids were rewritten.',
    'a task_start whose parent_id names its own child inference'],
  ['sha-format', 'verify', 'error', 'Blob-reference fields hold 64 lowercase hex digits.',
    'system_prompt_sha256 (when not null), system_sha, tools_sha, response_sha and every message_shas[] entry are bare lowercase SHA-256 digests naming files in blobs/. Anything else cannot name a blob.',
    '{"event_type":"inference","system_sha":"28C7339E…",…}'],
] as const satisfies readonly RuleEntry[];

/** Conformance rules (`agent-trace check`): murmur.md §4 invariants and §8 "Checks a viewer can run". */
const CHECK_ENTRIES = [
  ['envelope', 'check', 'error', 'The common envelope is well formed.',
    'Every event has string event_type, event_id and session_id, an integer timestamp in milliseconds greater than 0, and a parent_id key (string or null). Only shell_lost may omit parent_id.',
    '{"event_type":"shell","event_id":"evt_…","session_id":"ses_…","timestamp":"2026-01-01"}'],
  ['event-type-known', 'check', 'info', 'event_type is one of the 61 documented values.',
    'Newer runtimes add event types; they are shown and kept. Reported once per unknown type.'],
  ['required-fields', 'check', 'error', 'Per-type keys are present, and optional keys are omitted rather than null.',
    'serde writes every non-optional field (possibly null) and omits optional ones when they are None or, for some lists, empty. A missing required key or a null optional key means the line was not written by this writer version.',
    '{"event_type":"tool_call",… no "input" key}'],
  ['field-type', 'check', 'error', 'Per-type fields have the declared JSON types.',
    'Counters are non-negative integers, flags booleans, names strings, as the writer\'s structs declare them (zod schemas per event type).',
    '{"event_type":"shell","exit_code":"0",…}'],
  ['field-value', 'check', 'warning', 'Fields with a closed set of values use one of them.',
    'Some fields come from constants (containment classes, trust, task_failed.cause, context_seed.outcome, …). Another value may come from a newer runtime.',
    '{"event_type":"task_start","trust":"maybe",…}'],
  ['snake-case', 'check', 'warning', 'Keys are snake_case.', 'The writer serializes snake_case field names; camelCase keys (inputTokens, exitStatus) come from another producer.', '{"inputTokens":12}'],
  ['session-id-constant', 'check', 'warning', 'All lines of a session segment share one session_id.', 'A writer stamps its own session id on every event; a different id inside a segment means files were merged.'],
  ['reason-length', 'check', 'warning', 'task_failed.reason and inference.error are at most 2000 bytes.', 'The writer cuts both at 2000 UTF-8 bytes on a character boundary.'],
  ['task-rejected-keys', 'check', 'warning', 'task_rejected has exactly 10 keys.', 'The upstream test pins the task_rejected shape to exactly ten keys.'],
  ['no-credential-token', 'check', 'error', 'The substring mft1. never appears.', 'mft1. prefixes murmur credential tokens; they must never be written to a trace.'],
  ['retention-count', 'check', 'warning', 'retention.removed equals the number of targets.', 'The writer sets removed = targets.len().'],
  ['single-root', 'check', 'warning', 'Each session segment has exactly one null-parent event, its session_start.', 'Events written before session_start have a null parent and become extra roots; a segment without session_start has none.'],
  ['parent-type', 'check', 'warning', 'Each event hangs off the parent its type prescribes.',
    'Replays the writer\'s cursors (§3.2): turn-level events and hook inferences hang off the open agent-loop inference, else the task, else the session; task-level events and agent-loop inferences off the open task_start, else the session; session-level and appender events off session_start; plan steps off their plan_start.',
    'a tool_call whose parent_id names task_start while a turn is open'],
  ['task-id-consistent', 'check', 'warning', 'task_id matches the enclosing task_start.', 'Turn- and task-level events carry the active task id, and null outside a task.'],
  ['turn-consistent', 'check', 'info', 'A turn-level event has its parent inference\'s turn.', 'The turn index is shared by an agent-loop inference, its children and its hook inferences.'],
  ['capture-mode', 'check', 'info', 'The inferred capture mode (none, meta, content) is consistent.',
    'The mode is not recorded. blobs/ next to the trace or a tool_call.output means content: then every tool_call carries output and agent-loop inferences with a wire carry hashes. The three single hashes are written all or none.'],
  ['failed-inference-hashes', 'check', 'warning', 'A failed inference carries no wire hashes.', 'Failed inferences are written without a wire, so they never carry system_sha, tools_sha, response_sha or message_shas.'],
  ['total-tool-calls', 'check', 'error', 'session_end.total_tool_calls equals the number of tool_call lines.', 'Counted per session segment; skill_call is not a tool call.'],
  ['total-shell-calls', 'check', 'error', 'session_end.total_shell_calls equals shell plus shell_detached lines.', 'The writer counts detached shells with the shell calls.'],
  ['total-tokens', 'check', 'error', 'session_end token totals equal the sums over inference lines.', 'total_input_tokens and total_output_tokens are the sums of inference input_tokens and output_tokens (absent counts as 0).'],
  ['total-turns', 'check', 'warning', 'session_end.total_turns lies between the successful and all inferences.', 'Failed inferences count only when they reported spend, which is not visible on disk, so this is a range check.'],
  ['task-end-counters', 'check', 'error', 'task_end counters equal the sums since its task_start.', 'turns (range, as for total-turns), input_tokens, output_tokens, tool_calls and shell_calls are counted from the task_start to the task_end.'],
  ['plan-counts', 'check', 'info', 'Plan step counts add up.', 'plan_start.step_count equals the number of steps; plan_end succeeded + failed + skipped does not exceed steps_total.'],
  ['session-start-first', 'check', 'warning', 'A session segment starts with session_start.', 'Lines written before session_start (for example artifact_pulled) precede it with a null parent.'],
  ['session-end-once', 'check', 'error', 'At most one session_end per segment, and only after session_start.', 'write_session_end_if_not_ended writes session_end once and only when the session started.'],
  ['after-session-end', 'check', 'info', 'After session_end only appender events, shell_lost or a torn fragment appear.', 'session_end is the writer\'s last line; resource and plan appenders and a later session\'s shell_lost may still append.'],
  ['monotonic', 'check', 'warning', 'event_ids and timestamps do not go backwards.',
    'Within one writer, ids (UUIDv7) and timestamps grow in file order. The session_start id is minted at open and control_change ids by the caller, so both are exempt; across writers up to a second of jitter is tolerated.'],
  ['task-nesting', 'check', 'warning', 'Task frames do not nest; each task_start has at most one task_end.', 'A capsule runs one task at a time.'],
  ['start-before-result', 'check', 'warning', 'A start event precedes its result.',
    'shell_detached before shell_completed/shell_abandoned (work_id), delegation_start before delegation (delegation_id), member_call_start before member_call (call_id), plan_start before plan_step_start/plan_step/plan_end (plan_id).'],
] as const satisfies readonly RuleEntry[];

/**
 * The murmur catalog; every murmur finding is made from it. Three rules are reported at a second severity,
 * as their explanations say.
 */
export const MURMUR_CATALOG = ruleCatalog('murmur', 'murmur', [...VERIFY_ENTRIES, ...CHECK_ENTRIES], {
  'line-json': { severity: 'warning', when: 'a torn fragment: the last line, or a line followed by shell_lost' },
  'event-id-format': { severity: 'warning', when: 'a control_change id, which the caller supplies' },
  'parent-exists': { severity: 'warning', when: 'a forward reference to the session_start by an appender that wrote before it' },
});

/** A murmur rule id. */
export type MurmurRuleId = Parameters<typeof MURMUR_CATALOG.finding>[0];

/** Every murmur rule. */
export const MURMUR_RULES = MURMUR_CATALOG.rules;
