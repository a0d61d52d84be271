import { EventCategory, HashRef, IdMention } from '../../model';
import { isObj, Obj } from '../common';

/**
 * Where an event's parent comes from (murmur.md §2, §3.2): `root` = always null (session_start); `S` = the
 * session_start; `T` = the open task_start, else the session; `U` = the open turn (last agent-loop inference),
 * else the task, else the session; `A` = the session event id fixed when an appender opens; `P` = the plan node
 * (plan_end: else A); `lost` = shell_lost, the prior session's session_start or omitted; `inference` = T for
 * agent-loop records, U for hook-origin records.
 */
export type MurmurParentRule = 'root' | 'S' | 'T' | 'U' | 'A' | 'P' | 'lost' | 'inference';

/** Which of the four writers appends the event (§1.3); counters and cursors only concern `trace`. */
export type MurmurWriter = 'trace' | 'resource' | 'plan' | 'prior';

/** What the catalogue knows about one `event_type`. */
export interface MurmurEventType {
  parent: MurmurParentRule;
  writer: MurmurWriter;
  category: EventCategory;
}

const t = (parent: MurmurParentRule, category: EventCategory, writer: MurmurWriter = 'trace'): MurmurEventType => ({ parent, writer, category });

/** The 61 `event_type` values of murmur.md §2 (40 TraceWriter, 16 resource, 4 plan, 1 prior-session). */
export const MURMUR_EVENT_TYPES: Readonly<Record<string, MurmurEventType>> = {
  // §2.1 session frame
  session_start: t('root', 'session'),
  session_end: t('S', 'session'),
  // §2.2 task frame
  task_start: t('S', 'task'),
  task_end: t('T', 'task'),
  task_canceled: t('T', 'task'),
  task_rejected: t('T', 'task'),
  task_failed: t('T', 'task'),
  task_reopened: t('T', 'task'),
  task_continued: t('T', 'task'),
  context_seed: t('T', 'message'),
  control_applied: t('T', 'policy'),
  tools_refreshed: t('T', 'other'),
  harness_start: t('T', 'run'),
  harness_warning: t('T', 'run'),
  harness_session: t('T', 'run'),
  harness_session_forgotten: t('T', 'run'),
  harness_retry: t('T', 'run'),
  harness_note: t('T', 'run'),
  harness_failed: t('T', 'run'),
  harness_interrupt: t('T', 'run'),
  harness_exit: t('T', 'run'),
  // §2.3 turn level
  inference: t('inference', 'inference'),
  tool_call: t('U', 'tool'),
  skill_call: t('U', 'tool'),
  shell: t('U', 'tool'),
  shell_detached: t('U', 'tool'),
  shell_detach_unrecorded: t('U', 'tool'),
  compaction: t('U', 'other'),
  compaction_declined: t('U', 'other'),
  spend_ceiling_reached: t('U', 'policy'),
  call_denied: t('U', 'policy'),
  tool_input_refused: t('U', 'policy'),
  protected_path_denied: t('U', 'policy'),
  // §2.4 session level
  shell_completed: t('S', 'tool'),
  shell_abandoned: t('S', 'tool'),
  a2a_task_received: t('S', 'message'),
  a2a_send: t('S', 'message'),
  artifact_pulled: t('S', 'other'),
  retention: t('S', 'other'),
  hook_dispatch_error: t('S', 'error'),
  // §2.5 ResourceTraceAppender
  resource_list: t('A', 'other', 'resource'),
  resource_read: t('A', 'other', 'resource'),
  formation_ended: t('A', 'session', 'resource'),
  spawner_ended: t('A', 'session', 'resource'),
  peer_handle_mint: t('A', 'other', 'resource'),
  peer_handle_redeem: t('A', 'other', 'resource'),
  peer_file_fetch: t('A', 'other', 'resource'),
  delegation_start: t('A', 'run', 'resource'),
  delegation: t('A', 'run', 'resource'),
  member_call_start: t('A', 'message', 'resource'),
  member_call_busy: t('A', 'message', 'resource'),
  member_call: t('A', 'message', 'resource'),
  inference_credential: t('A', 'policy', 'resource'),
  gateway_credential: t('A', 'policy', 'resource'),
  control_change: t('A', 'policy', 'resource'),
  control_refused: t('A', 'policy', 'resource'),
  // §2.6 PlanTraceAppender
  plan_start: t('A', 'run', 'plan'),
  plan_step_start: t('P', 'task', 'plan'),
  plan_step: t('P', 'task', 'plan'),
  plan_end: t('P', 'run', 'plan'),
  // §2.7 PriorSessionTraceAppender
  shell_lost: t('lost', 'tool', 'prior'),
};

/** The catalogue entry of a type, or undefined for types newer than the spec. */
export function murmurEventType(type: string): MurmurEventType | undefined {
  return Object.prototype.hasOwnProperty.call(MURMUR_EVENT_TYPES, type) ? MURMUR_EVENT_TYPES[type] : undefined;
}

/** `evt_` + 32 lowercase hex (UUIDv7 simple form), §2.0. */
export const MURMUR_EVENT_ID = /^evt_[0-9a-f]{32}$/;
/** A blob reference: bare lowercase SHA-256 hex. */
export const MURMUR_SHA = /^[0-9a-f]{64}$/;

/** Blob-reference fields per event type (§2.9). Every other sha256 field (resource_read.sha256, …) is not a blob. */
export const MURMUR_BLOB_FIELDS: Readonly<Record<string, readonly string[]>> = {
  session_start: ['system_prompt_sha256'],
  inference: ['system_sha', 'tools_sha', 'response_sha', 'message_shas'],
};

/** The four wire-hash keys an inference carries under `meta` and `content` capture. */
export const MURMUR_WIRE_HASH_FIELDS = ['system_sha', 'tools_sha', 'response_sha', 'message_shas'] as const;

/** True for a hook-origin inference (it hangs off the turn instead of becoming one). */
export function isHookInference(o: Obj): boolean {
  return o.event_type === 'inference' && o.origin !== undefined && o.origin !== null;
}

/** The blob references an event holds, with exact field paths (`message_shas[2]`); malformed values are left out. */
export function murmurHashRefs(o: Obj, type: string): HashRef[] {
  const fields = MURMUR_BLOB_FIELDS[type];
  if (!fields) return [];
  const out: HashRef[] = [];
  const add = (field: string, v: unknown) => {
    if (typeof v === 'string' && MURMUR_SHA.test(v)) out.push({ field, digest: v, algorithm: 'sha256', raw: v });
  };
  for (const f of fields) {
    const v = o[f];
    if (Array.isArray(v)) v.forEach((x, i) => add(`${f}[${i}]`, x));
    else add(f, v);
  }
  return out;
}

/** Scalar id fields of §2.9 (entity references other than parent_id and the event's own id). */
const MENTION_FIELDS: ReadonlySet<string> = new Set([
  'task_id', 'context_id', 'completion_task_id', 'reconciled_task_id', 'reconciled_by_session', 'member_task_id',
  'work_id', 'delegation_id', 'child_session_id', 'spawned_by', 'resumed_from', 'call_id', 'plan_id', 'step_id',
  'failed_step', 'change_id', 'harness_session_id', 'formation_id', 'handle_id', 'message_id', 'traceparent',
  'traceparent_from_caller', 'tool_call_id', 'session', 'caller_member', 'member',
]);
/** Array id fields of §2.9. */
const MENTION_ARRAYS: ReadonlySet<string> = new Set(['detached_work_ids', 'delegation_ids', 'delegations', 'member_calls', 'depends_on', 'message_ids', 'formation_callees', 'targets']);

/** The ids an event names (§2.9), for hover and jump navigation; field paths are exact (`message_ids[1]`). */
export function murmurMentions(o: Obj): IdMention[] {
  const out: IdMention[] = [];
  // One pass over the event's own keys (in file order) is cheaper than probing every known field.
  for (const f in o) {
    const v = o[f];
    if (typeof v === 'string') {
      if (v.length > 0 && MENTION_FIELDS.has(f)) out.push({ field: f, id: v });
    } else if (Array.isArray(v) && MENTION_ARRAYS.has(f)) {
      v.forEach((x, i) => typeof x === 'string' && x.length > 0 && out.push({ field: `${f}[${i}]`, id: x }));
    }
  }
  if (Array.isArray(o.steps)) {
    o.steps.forEach((s, i) => {
      if (isObj(s) && typeof s.step_id === 'string') out.push({ field: `steps[${i}].step_id`, id: s.step_id });
    });
  }
  return out;
}
