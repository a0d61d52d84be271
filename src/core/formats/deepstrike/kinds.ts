/** The 32 `SessionEvent` kinds of the core enum (seed `session.rs`), in declaration order. */
export const CORE_KINDS = [
  'run_started', 'llm_completed', 'tool_requested', 'tool_completed', 'compressed', 'page_out', 'page_in', 'run_terminal',
  'tool_argument_repaired', 'permission_requested', 'permission_resolved', 'tool_denied', 'capability_changed',
  'context_renewed', 'suspended', 'resumed', 'tool_gated', 'signal_delivery_disposed', 'budget_exceeded',
  'budget_usage_reported', 'operation_cancelled', 'checkpoint_taken', 'entropy_sample', 'entropy_alert', 'rollbacked',
  'agent_process_changed', 'milestone_advanced', 'milestone_blocked', 'memory_written', 'memory_queried',
  'memory_validation_failed', 'memory_retrieval_result',
] as const;

/** Kinds only the Node / Python SDKs write (§4). */
export const SDK_KINDS = [
  'prompt_measured', 'memory_write_failed', 'memory_query_failed', 'workflow_node_completed', 'workflow_nodes_submitted',
  'workflow_batch_spawned', 'workflow_completed', 'kernel_observation', 'summary_upgraded', 'group_member_joined',
  'group_budget_charged', 'round_started', 'round_paced',
] as const;

const KNOWN = new Set<string>([...CORE_KINDS, ...SDK_KINDS]);
/** True for a core or SDK-only kind. */
export function isKnownKind(kind: string): boolean {
  return KNOWN.has(kind);
}

/** Kinds that may occur outside a run (`deepstrike/event-outside-run`). */
export const OUTSIDE_RUN_KINDS: ReadonlySet<string> = new Set(['memory_retrieval_result', 'group_member_joined', 'group_budget_charged']);

/** Kernel-OS events (`is_kernel_os_event`): ignored when messages are rebuilt; shown in the turn's kernel lane. */
export const KERNEL_OS_KINDS: ReadonlySet<string> = new Set([
  'compressed', 'page_out', 'page_in', 'capability_changed', 'context_renewed', 'suspended', 'resumed', 'tool_gated',
  'signal_delivery_disposed', 'budget_exceeded', 'budget_usage_reported', 'operation_cancelled', 'checkpoint_taken',
  'entropy_sample', 'entropy_alert', 'rollbacked', 'agent_process_changed', 'milestone_advanced', 'milestone_blocked',
  'memory_written', 'memory_queried', 'memory_validation_failed',
]);

/** `category_for_kind` (DEL): the badge of a kind. */
export function kernelCategory(kind: string): 'syscall' | 'mm' | 'proc' | 'ipc' | 'sched' {
  if (kind === 'tool_gated' || kind === 'capability_changed') return 'syscall';
  if (kind === 'compressed' || kind === 'page_out' || kind === 'page_in' || kind === 'context_renewed' || kind.startsWith('memory_')) return 'mm';
  if (kind === 'agent_process_changed') return 'proc';
  if (kind === 'signal_delivery_disposed') return 'ipc';
  return 'sched';
}

/** `run_terminal.reason` values (DT, DNR), SDK-only ones included. */
export const TERMINATION_REASONS: ReadonlySet<string> = new Set([
  'completed', 'max_turns', 'token_budget', 'timeout', 'user_abort', 'error', 'milestone_exceeded', 'context_overflow',
  'no_progress', 'invalid_arg', 'milestone_pending',
]);

/** Enumerated fields and their known values (`deepstrike/enum-values`). */
export const TOOL_ERROR_KINDS: ReadonlySet<string> = new Set(['recoverable', 'fatal', 'governance_denied', 'provider_failure', 'timeout', 'user_interrupt']);
export const CANCELLATION_REASONS: ReadonlySet<string> = new Set(['user', 'deadline', 'lease_lost', 'host_shutdown']);
export const MEMORY_KINDS: ReadonlySet<string> = new Set(['user', 'feedback', 'project', 'reference']);
export const ROLLBACK_KINDS: ReadonlySet<string> = new Set(['fatal_tool_error', 'governance_denied', 'provider_failure', 'timeout', 'user_interrupt', 'malformed_replay']);
export const RESPONDERS: ReadonlySet<string> = new Set(['user', 'policy_gate', 'host']);
