/**
 * AgentLedger vocabularies (format doc §3, §5): event types, failure events and call-group members.
 * Defined once here and used by the adapter, the verifier and the conformance checks.
 */
import { EventCategory } from '../../model';

/** The 28 event types the Rust runtime emits (§5.1). */
export const RUST_EVENT_TYPES = [
  'run_created', 'step_created', 'step_claimed', 'lease_expired', 'step_retry_scheduled', 'run_cancel_requested',
  'step_cancelled', 'run_cancelled', 'state_patch_committed', 'step_completed', 'failure_classified', 'error_raised',
  'step_waiting_human', 'step_failed', 'tool_approval_decided', 'cost_recorded', 'agent_started', 'tool_call_requested',
  'tool_permission_decided', 'tool_approval_required', 'budget_check_failed', 'sandbox_started', 'sandbox_completed',
  'tool_call_failed', 'tool_call_completed', 'artifact_created', 'model_call_completed', 'agent_result_returned',
] as const;

/** Names from §5.2: contract types, Python-only types and types only named by readers. */
export const OTHER_EVENT_TYPES = [
  'state_committed', 'system_state_patch_applied', 'tool_call_blocked', 'lease_heartbeat', 'model_call_requested',
  'model_call_failed', 'tool_call_proposed', 'state_patch_proposed',
] as const;

/** Every known event type (§5.1 ∪ §5.2). Unknown types are shown, never rejected. */
export const KNOWN_EVENT_TYPES: ReadonlySet<string> = new Set<string>([...RUST_EVENT_TYPES, ...OTHER_EVENT_TYPES]);

/** Span names that are not events: media artifacts and stream checkpoints follow the event spans (§6.1). */
export const EXTRA_SPAN_NAMES: ReadonlySet<string> = new Set(['media_artifact', 'stream_checkpoint']);

/** Rust events whose `step_id` is None (§4.1); every other Rust event carries a step. */
export const RUN_LEVEL_TYPES: ReadonlySet<string> = new Set(['run_created', 'run_cancel_requested', 'run_cancelled']);

/** Events of one tool call after its `tool_call_requested` (§5.4); `cost_recorded` joins by adjacency. */
export const CALL_MEMBER_TYPES: ReadonlySet<string> = new Set([
  'tool_permission_decided', 'tool_approval_required', 'budget_check_failed', 'sandbox_started', 'sandbox_completed',
  'tool_call_failed', 'tool_call_completed', 'tool_call_blocked',
]);

/** Events after which an attempt is over: the step waits, retries or ends (§5.5 attempts). */
export const ATTEMPT_CLOSING_TYPES: ReadonlySet<string> = new Set([
  'step_retry_scheduled', 'step_waiting_human', 'lease_expired', 'step_completed', 'step_failed', 'step_cancelled',
]);

/** Upstream review #11 `no_blocking_failure_events`. */
export const BLOCKING_FAILURE_TYPES: ReadonlySet<string> = new Set(['error_raised', 'step_failed', 'tool_call_failed', 'tool_call_blocked']);

/** Python blob-backed event types: their `payload_ref` is a `blob://` ref and `payload` is the blob (§4.2). */
export const PYTHON_BLOB_TYPES: ReadonlySet<string> = new Set([
  'tool_call_requested', 'tool_call_completed', 'tool_call_proposed', 'model_call_requested', 'model_call_completed',
  'model_call_failed', 'artifact_created',
]);

/** Ledger statuses review #5 accepts. */
export const KNOWN_LEDGER_STATUSES: ReadonlySet<string> = new Set(['SUCCEEDED', 'FAILED_NO_EFFECT', 'PENDING_VERIFICATION', 'COMPENSATED', 'RUNNING', 'RESERVED']);

/** Risk levels review #10 requires decisions for; `financial_or_legal` is high risk too but omitted upstream. */
export const REVIEW_HIGH_RISK_LEVELS: ReadonlySet<string> = new Set(['high', 'destructive', 'sensitive']);

/** The category a viewer groups an event type under. */
export function categoryOfType(type: string): EventCategory {
  if (type.startsWith('run_') || type === 'state_committed' || type === 'system_state_patch_applied') return 'run';
  if (type === 'step_claimed' || type === 'agent_started' || type === 'agent_result_returned') return 'turn';
  if (type.startsWith('model_call_')) return 'inference';
  if (type.startsWith('tool_approval_') || type === 'step_waiting_human') return 'approval';
  if (type === 'tool_permission_decided' || type === 'budget_check_failed') return 'policy';
  if (type.startsWith('tool_call_') || type.startsWith('sandbox_')) return 'tool';
  if (type === 'failure_classified' || type === 'error_raised') return 'error';
  if (type.startsWith('step_') || type === 'lease_expired' || type === 'state_patch_committed') return 'task';
  if (EXTRA_SPAN_NAMES.has(type)) return 'span';
  return 'other';
}
