import * as z from 'zod';
import { Obj } from '../common';

// Building blocks mirroring the writer's serde types (murmur.md notation: T, T|null, T?, [T]?∅).
const s = z.string();
const u = z.number().int().min(0);
const u16 = u.max(65535);
const i32 = z.number().int();
const b = z.boolean();
const strs = z.array(s);
/** `any` that must be present (serde_json::Value, never skipped). */
const anyv = z.custom<unknown>((v) => v !== undefined, { message: 'required key is missing' });
/** `[T]?∅`: omitted when empty, so a written list has at least one item. */
const nonEmpty = <T extends z.ZodType>(item: T) => z.array(item).min(1).optional();
const e = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values);

const containment = e(['advisory', 'scoped', 'sealed']);
const trust = e(['trusted', 'untrusted']);
const loose = z.looseObject;

const gateway = loose({ artifact: s, host: s, credential_source: s, metered: b });
const control = loose({ settings: strs, secrets: strs, agent_settings: nonEmpty(s) });
const choice = loose({ name: s, driver: s, model: s, credential_source: s, available: b });
const runtimeArtifact = loose({ name: s, version: s, origin: e(['runtime']), session: s, trust: s });
const planStep = loose({ step_id: s, kind: s, depends_on: strs, has_condition: b });
const credential = { source: s, credential: s.optional(), change: e(['rotated', 'rejected', 'unreadable']), trigger: s.optional(), status: u16.optional(), retried: b.optional(), reason: s.optional() };
const delegationStart = { delegation_id: s, capsule: s, version: s, child_session_id: s, child_workdir: s };
const delegation = { capsule: s, version: s, delegation_id: s.nullable(), child_session_id: s.nullable(), duration_ms: u, outcome: s, reason: s.nullable() };
const turnTask = { turn: u, task_id: s.nullable() };

/** Type-specific fields per event type (murmur.md §2.1–§2.8, checked against the seed's structs). The envelope is checked apart. */
const SHAPES: Record<string, z.ZodRawShape> = {
  session_start: {
    capsule_name: s, capsule_version: s, model: s, max_turns: u, max_session_tokens: u.nullable(), machine_tokens_per_day: u.nullable(),
    capabilities: strs, tools_declared: strs, containment_declared: containment, containment_achieved: containment, workdir_exec: b,
    userns_grant: s.nullable(), effective_grants: loose({}), system_prompt_source: e(['cli', 'manifest', 'none']), system_prompt_sha256: s.nullable(),
    credential_source: s, gateways: z.array(gateway), control: control.optional(), inference_choices: nonEmpty(choice), tool_refresh: s.nullable(),
    runtime_artifacts: z.array(runtimeArtifact), resumed_from: s.nullable(), context_id: s.nullable(), spawned_by: s.optional(),
    delegation_id: s.optional(), formation_id: s.optional(), formation_member: s.optional(), formation_callees: strs.optional(),
  },
  session_end: { total_turns: u, total_input_tokens: u, total_output_tokens: u, total_tool_calls: u, total_shell_calls: u, duration_ms: u, exit_status: s },
  task_start: { task_id: s, context_id: s, source: s, origin: e(['user', 'peer', 'schedule', 'event', 'completion', 'system']), trust, lane: e(['user', 'peer', 'bg']), message_parts_bytes: u },
  task_end: { task_id: s, exit_status: s, duration_ms: u, turns: u, input_tokens: u, output_tokens: u, tool_calls: u, shell_calls: u, reopen_count: u },
  task_canceled: { task_id: s, turn: u.optional(), phase: s, detached_work_ids: strs, delegation_ids: strs },
  task_rejected: { task_id: s, context_id: s, source: s, cause: e(['session_ended', 'session_stopped']), reason: s },
  task_failed: {
    task_id: s.optional(), turn: u.optional(), reason: s,
    cause: e(['driver_error', 'credential_rejected', 'malformed_response', 'compaction_hook', 'input_timeout', 'reopen_budget_exhausted', 'runtime_error']),
  },
  task_reopened: { task_id: s, hook_name: s, reason: s, reopen_number: u, attempt_context: e(['continued', 'restarted']), turns_remaining: u },
  task_continued: { task_id: s, continuation_number: u, member_calls: strs, delegations: strs, waited_ms: u, turns_remaining: u },
  context_seed: {
    task_id: s.nullable(), hook_name: s, tokens: u, proposed_tokens: u, budget_tokens: u, outcome: e(['seeded', 'trimmed', 'compacted', 'rejected']),
    reason: e(['message_over_budget', 'overflow_over_limit', 'no_budget', 'unsupported_transport']).optional(), message_ids: strs,
  },
  control_applied: { ...turnTask, name: s, value: anyv, change_id: s },
  tools_refreshed: { ...turnTask, trigger: s, added: strs, removed: strs, tools: strs },
  harness_start: {
    task_id: s.nullable(), driver: s, driver_version: s, harness: s, binary: s, binary_source: s, harness_version: s.nullable(), version_tested: b,
    harness_session_id: s, session_mode: s, args_count: u, env_names: strs, files: strs, bridge_tools: strs, stdin_bytes: u, keep_stdin_open: b,
  },
  harness_warning: { task_id: s.nullable(), code: s, message: s },
  harness_session: { task_id: s.nullable(), harness_session_id: s, auth: s, model: s.nullable() },
  harness_session_forgotten: { task_id: s.nullable(), context_id: s, harness_session_id: s, requested_by: s },
  harness_retry: { task_id: s.nullable(), attempt: u, reason: s },
  harness_note: { task_id: s.nullable(), text: s },
  harness_failed: { task_id: s.nullable(), kind: s, message: s, source: s },
  harness_interrupt: { task_id: s.nullable(), method: s, delivered: b, grace_ms: u },
  harness_exit: { task_id: s.nullable(), code: i32.nullable(), signal: i32.nullable(), cause: s, killed: b, duration_ms: u },
  inference: {
    ...turnTask, input_tokens: u.optional(), output_tokens: u.optional(), decision: s, stop_reason: s.optional(), tool_name: s.nullable(),
    input_tokens_actual: u.optional(), output_tokens_actual: u.optional(), cached_tokens: u.optional(), cache_write_tokens: u.optional(),
    thinking_tokens: u.optional(), origin: s.optional(), driver_choice: s.optional(), model: s.optional(), message_ids: nonEmpty(s),
    system_sha: s.optional(), tools_sha: s.optional(), response_sha: s.optional(), message_shas: nonEmpty(s),
    error_code: e(['credential_rejected', 'driver_error', 'driver_failed', 'malformed_response', 'harness_auth', 'harness_quota', 'harness_error', 'harness_other', 'harness_inactive']).optional(),
    error: s.optional(), provider_status: u16.optional(),
  },
  tool_call: {
    ...turnTask, tool_name: s, tool_call_id: s.nullable(), input: anyv, input_bytes: u, output: s.optional(), output_bytes: u, duration_ms: u,
    status: s, state_effect: s.optional(), resource_id: s.optional(),
  },
  skill_call: { ...turnTask, skill_name: s, output_bytes: u, duration_ms: u, status: s, origin: e(['operator', 'runtime']), trust },
  shell: { ...turnTask, binary: s, command: s, exit_code: i32, stdout_bytes: u, stderr_bytes: u, duration_ms: u, resource_limit: s.optional() },
  shell_detached: { ...turnTask, work_id: s, binary: s, command: s, grace_ms: u },
  shell_detach_unrecorded: { ...turnTask, work_id: s, binary: s, reason: s },
  compaction: { ...turnTask, tokens_before: u, tokens_after: u },
  compaction_declined: { ...turnTask, tokens: u, reason: e(['no_hook_replacement', 'unresolved_tool_call']) },
  // SpendRefusal is flattened from spend.rs [ext]: checked when present, not required.
  spend_ceiling_reached: { ...turnTask, limit: e(['session', 'machine']).optional(), ceiling: u.optional(), used: u.optional(), requested: u.optional(), origin: s.optional() },
  call_denied: { turn: u, event: s, hook_name: s, target: s, reason: s },
  tool_input_refused: { turn: u, tool_name: s, tool_call_id: s.nullable(), missing: strs, reason: s },
  protected_path_denied: { turn: u, call: s, target: s, path: s, rule: s, signal: s, reason: s },
  shell_completed: {
    work_id: s, binary: s, command: s, exit_code: i32, duration_ms: u, output_path: s, output_bytes: u, resource_limit: s.optional(), status: s, completion_task_id: s,
  },
  shell_abandoned: { work_id: s, binary: s, command: s, running_ms: u, exit_code: i32.optional(), output_path: s.optional(), output_bytes: u.optional() },
  a2a_task_received: { task_id: s, context_id: s, message_id: s, traceparent_from_caller: s.nullable(), caller_member: s.optional() },
  a2a_send: { peer_url: s, message_id: s, task_id: s, context_id: s, traceparent: s.nullable(), trust: s },
  artifact_pulled: { name: s, version: s, runtime: s, origin: e(['runtime', 'operator']), session: s.nullable(), trust },
  retention: { store: e(['sessions', 'records']), reason: e(['max_sessions', 'max_age', 'max_messages']), removed: u, targets: strs, messages_dropped: u.optional() },
  hook_dispatch_error: { hook_name: s, event: s, arm: s },
  resource_list: { root: s, entry_count: u, total_bytes: u, generation: u, containment_achieved: containment, outcome: s, reason: s.nullable() },
  resource_read: { path: s, outcome: s, bytes: u.nullable(), sha256: s.nullable(), generation: u, containment_achieved: containment, reason: s.nullable() },
  formation_ended: { formation_id: s },
  spawner_ended: { spawned_by: s.optional(), delegation_id: s.optional() },
  peer_handle_mint: { handle_id: s.nullable(), path: s, audience: s, expires_at_ms: u.nullable(), outcome: s, reason: s.nullable() },
  peer_handle_redeem: { handle_id: s, path: s.nullable(), generation: u, audience_asserted: s.nullable(), bytes: u.nullable(), sha256: s.nullable(), outcome: s, reason: s.nullable() },
  peer_file_fetch: { peer: s, handle_id: s, stored_path: s.nullable(), bytes: u.nullable(), sha256: s.nullable(), outcome: s, reason: s.nullable() },
  delegation_start: delegationStart,
  delegation,
  member_call_start: { task_id: s, call_id: s, member: s, member_task_id: s },
  member_call_busy: { task_id: s, call_id: s, member: s, offer: u, waited_ms: u, message: s },
  member_call: {
    task_id: s, call_id: s, member: s, member_task_id: s.optional(), status: s, duration_ms: u, output: s, truncated: b, delivered: b,
    no_answer_below: nonEmpty(loose({ member: s, status: s })),
  },
  inference_credential: credential,
  gateway_credential: { artifact: s, ...credential },
  control_change: {
    principal: s, token_id: s.optional(), kind: s, name: s, action: s, previous: z.unknown(), value: z.unknown(), applies_from: s.optional(), replaced: b.optional(),
  },
  control_refused: { principal: s, status: u16, reason: s, kind: s.optional(), name: s.optional(), token_id: s.optional() },
  plan_start: { plan_id: s, step_count: u, steps: z.array(planStep) },
  plan_step_start: { plan_id: s, step_id: s, kind: s, depends_on: strs },
  plan_step: {
    // input is Option<Value>: a Some(null) is written as null, so null is allowed here.
    plan_id: s, step_id: s, kind: s, status: s, attempts: u, duration_ms: u, error: s.optional(), input: z.unknown(), state_effect: s.optional(), resource_id: s.optional(),
  },
  plan_end: {
    plan_id: s, outcome: s, failed_step: s.optional(), steps_total: u, steps_succeeded: u, steps_failed: u, steps_skipped: u, duration_ms: u, reason: s.optional(),
  },
  shell_lost: { work_id: s, binary: s, command: s, detached_at_ms: u, reconciled_by_session: s, reconciled_task_id: s },
};

const SCHEMAS = new Map(Object.entries(SHAPES).map(([type, shape]) => [type, z.looseObject(shape)]));

/** One schema violation, already mapped onto a murmur rule. */
export interface FieldIssue {
  rule: 'murmur/required-fields' | 'murmur/field-type' | 'murmur/field-value';
  message: string;
}

function valueAt(o: Obj, path: readonly PropertyKey[]): unknown {
  let v: unknown = o;
  for (const k of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

function pathText(path: readonly PropertyKey[]): string {
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join('');
}

/** Validates the type-specific fields of a known event type; unknown types and extra keys pass (forward compatibility). */
export function validateMurmurFields(type: string, o: Obj): FieldIssue[] {
  const schema = SCHEMAS.get(type);
  if (!schema) return [];
  const result = schema.safeParse(o);
  if (result.success) return [];
  const out: FieldIssue[] = [];
  for (const issue of result.error.issues) {
    const field = pathText(issue.path);
    const value = valueAt(o, issue.path);
    if (value === undefined) out.push({ rule: 'murmur/required-fields', message: `${type} has no ${field} key; the writer always writes it.` });
    else if (value === null) out.push({ rule: 'murmur/required-fields', message: `${type}.${field} is null; the writer never writes null here (optional keys are omitted).` });
    else if (Array.isArray(value) && value.length === 0 && issue.code === 'too_small') out.push({ rule: 'murmur/required-fields', message: `${type}.${field} is an empty list; the writer omits it when empty.` });
    else if (issue.code === 'invalid_value') out.push({ rule: 'murmur/field-value', message: `${type}.${field} is ${JSON.stringify(value)}; ${issue.message.replace(/^Invalid option: /, '')}.` });
    else out.push({ rule: 'murmur/field-type', message: `${type}.${field} is ${short(value)}: ${issue.message.replace(/^Invalid input: /, '')}.` });
  }
  return out;
}

function short(v: unknown): string {
  const t = JSON.stringify(v) ?? String(v);
  return t.length > 40 ? t.slice(0, 39) + '…' : t;
}

/** The event types with a schema (the 61 of murmur.md §2). */
export function murmurSchemaTypes(): string[] {
  return [...SCHEMAS.keys()];
}
