import { ruleCatalog, RuleEntry } from '../../catalog/ruleEntries';

const ENTRIES = [
  ['line-json', 'verify', 'error', 'Every non-blank line parses as a JSON object.',
    'The ledger is JSONL: one object per line. A line that does not parse was torn or edited. A last line without a newline is a torn tail (a warning): the server counts only bytes up to the last newline as committed and truncates the rest on reopen.',
    '{"v":1,"record":{"seq":4,"occurred_at_ms":17'],
  ['line-shape', 'verify', 'error', 'A line is a bare RecordedEvent, a {v, record} envelope or the one voice_events line.',
    'RecordedEvent and the LedgerLine envelope are deny_unknown_fields: a bare record has exactly seq, occurred_at_ms and event (event tagged by "event"), an envelope exactly v and record. The server may also write a single {"voice_events":[…]} line.',
    '{"seq":0,"occurred_at_ms":1,"event":{"event":"run_started"},"note":"x"}'],
  ['envelope-version', 'verify', 'warning', 'The envelope version v is 1 or 2.',
    'plato writes v = 1 (legacy agent_id identity); the server writes v = 2 (profile identity) and accepts 1. plato\'s reader rejects any other value.',
    '{"v":3,"record":{…}}'],
  ['event-known', 'check', 'error', 'event.event is one of the 16 known event names.',
    'The 13 events of platonic-core 0.1.0 plus context_compacted, model_failed and tool_proposals_rejected from 0.2.0. An unknown tag fails deserialization in every version.',
    '{"seq":3,"occurred_at_ms":1,"event":{"event":"model_streamed","run_id":"r"}}'],
  ['nested-shape', 'check', 'error', 'Event fields have the declared types (ContextPack, Message, ToolCall, ToolResult, ModelUsage…).',
    'The nested structs are deny_unknown_fields and their enums closed (ContextLane, EffectClass, visibility, role, PolicyDecision). A violation means the kernel could not have deserialized the record.',
    '"call":{"id":"c1","tool":"file.read","effect":"read","input":{}}'],
  ['empty-id', 'check', 'error', 'Id-typed strings are non-empty after trimming.',
    'RunId, TurnId, AgentId, ToolCallId, ArtifactId, ToolName, ModelName and ActorId reject blank strings at deserialization with "<Type> cannot be empty".',
    '"run_id":"  "'],
  ['unknown-event-field', 'check', 'warning', 'An event carries a key its variant does not declare.',
    'platonic-core 0.1.0 ignores unknown keys inside event (and inside PolicyDecision); 0.3.0 rejects them. The file does not record its version, so this is a warning naming both behaviours.',
    '{"event":"tool_started","run_id":"r","call_id":"c","pid":42}'],
  ['seq-contiguous', 'verify', 'error', 'Per run, seq starts at 0 and increases by 1.',
    'The kernel\'s first pre-check: a record whose seq is not the run\'s next one is refused. A gap means lost or deleted records, a repeat a duplicated or replayed line, a swap reordered lines. After a mismatch the viewer continues from the record\'s own seq so each defect is reported once.',
    'seq 4 followed by seq 6'],
  ['run-id-bound', 'verify', 'error', 'Every record carries the run_id bound by run_started.',
    'The kernel\'s second pre-check. A record of another run inside a run\'s ledger means files were merged or a record was edited.',
    '"run_id":"run_2" inside the ledger of run_1'],
  ['transition', 'check', 'error', 'Each event is allowed in the run\'s current phase.',
    'Replays RunState::apply (§6.2 and the 0.2.0 deltas): e.g. tool_started needs an allow decision or a granted approval first, run_finished needs a concluded turn, and nothing may follow run_finished or run_failed. The viewer reports the kernel\'s error and continues from the event\'s own target phase.',
    'policy_evaluated require_approval followed by tool_started'],
  ['turn-reuse', 'check', 'error', 'context_built starts a new turn id.',
    'A turn id equal to the previous turn\'s is refused in every version; 0.3.0 refuses any earlier turn id (reported as a warning when the file shows no 0.3 evidence).',
    'two context_built with "turn_id":"turn_1"'],
  ['context-budget', 'check', 'error', 'The context fragments fit the token budget.',
    'Σ fragments[].estimated_tokens must not exceed context.token_budget.',
    '"token_budget":10,"fragments":[{…"estimated_tokens":11}]'],
  ['turn-match', 'check', 'error', 'Model and proposal events carry the pending turn id.',
    'model_requested, model_responded, model_failed and tool_call_proposed belong to the turn opened by the last context_built (or announced by context_compacted).',
    'context_built turn_2, then model_requested turn_1'],
  ['step-match', 'check', 'error', 'Model events carry the pending model step.',
    'step counts model responses across the run from 0; model_requested, model_responded and model_failed must carry the pending one.',
    'model_requested step 1 when step 0 is pending'],
  ['call-proposed', 'check', 'error', 'The validated tool call matches a model proposal.',
    'tool_call_proposed.call must have the tool and input of one of the pending proposals, compared as JSON values: key order is ignored, number kind is not (1 ≠ 1.0).',
    'proposal {"tool":"file.read","input":{"path":"a"}}, call input {"path":"b"}'],
  ['call-id-reuse', 'check', 'error', 'A call id is not reused within a run (0.3.0+).',
    'From platonic-core 0.3.0 call ids are unique per run; earlier versions accept a reuse, so without 0.3 evidence it is a warning.',
    'two tool_call_proposed with "id":"call_1"'],
  ['call-match', 'check', 'error', 'Tool path events name the current call.',
    'policy_evaluated, approval_*, tool_started, tool_failed (call_id) and tool_finished (result.call_id) must name the call proposed last. A mismatch often means an approval or result for a call that was never proposed.',
    'tool_call_proposed call_1, then approval_granted call_9'],
  ['compaction-range', 'check', 'error', 'context_compacted drops a non-empty turn range.',
    'dropped_turn_start must be below dropped_turn_end_exclusive.',
    '"dropped_turn_start":3,"dropped_turn_end_exclusive":3'],
  ['rejection-reason', 'check', 'error', 'tool_proposals_rejected gives a reason.',
    'The reason must not be blank.', '"reason":"  "'],
  ['terminal', 'check', 'warning', 'The run ends in run_finished or run_failed.',
    'A ledger that ends in any other phase belongs to a run still in flight or a crashed host. The message names the last phase and the host command the run waits for.',
    'a ledger ending after tool_started'],
  ['effect-policy', 'check', 'info', 'The policy decision differs from the default policy for the call\'s effect.',
    'Default policy: read_only → allow; workspace_write and network → require_approval; external_side_effect and secret_access → deny. Hosts may configure their own policy, so this is a fact, not a fault.',
    'effect external_side_effect with decision require_approval'],
] as const satisfies readonly RuleEntry[];

/**
 * The harness-ledger rule catalog, ids and severities as in the format doc's §9; every finding is made from
 * it. Three rules are warnings in one documented case each.
 */
export const HARNESS_CATALOG = ruleCatalog('harness', 'harness-ledger', ENTRIES, {
  'line-json': { severity: 'warning', when: 'a torn tail: the last line has no newline, so it is not committed' },
  'turn-reuse': { severity: 'warning', when: 'an earlier (not the previous) turn id again, accepted by platonic-core 0.1.0–0.2.x' },
  'call-id-reuse': { severity: 'warning', when: 'no evidence of platonic-core 0.3.0+ in the file (0.1.0–0.2.x accept a reused id)' },
});

/** A harness-ledger rule id. */
export type HarnessRuleId = Parameters<typeof HARNESS_CATALOG.finding>[0];

/** A harness-ledger rule with a documented override severity. */
export type HarnessOverrideId = Parameters<typeof HARNESS_CATALOG.overridden>[0];

/** The harness-ledger rules. */
export const HARNESS_RULES = HARNESS_CATALOG.rules;
