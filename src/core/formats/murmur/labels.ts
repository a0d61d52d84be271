import { EventStatus } from '../../model';
import { formatCount, formatDuration, formatTokens, label, num, Obj, short, statusFromWord, str } from '../common';

/** What a person reads in the tree for one murmur event: its label and status. */
export interface MurmurView {
  label: string;
  status: EventStatus;
}

type Viewer = (o: Obj, model: string | null) => MurmurView;

const OK_WORDS = new Set(['ok', 'success', 'succeeded', 'completed', 'complete', 'done', 'seeded', 'trimmed', 'compacted', 'rotated', 'delivered']);

/** Status of an open-valued outcome word (`status`, `outcome`, `exit_status`): failures are errors, refusals warnings. */
export function wordStatus(word: string | null): EventStatus {
  if (word === null || OK_WORDS.has(word.toLowerCase())) return 'ok';
  return statusFromWord(word) ?? 'ok';
}

const v = (l: string, status: EventStatus = 'ok'): MurmurView => ({ label: l, status });
const ms = (o: Obj, k = 'duration_ms') => formatDuration(num(o, k));
const n = (o: Obj, k: string, unit: string, plural = `${unit}s`) => {
  const x = num(o, k);
  return x === null ? '' : `${formatCount(x)} ${x === 1 ? unit : plural}`;
};
const worst = (...s: EventStatus[]): EventStatus => (s.includes('error') ? 'error' : s.includes('warning') ? 'warning' : 'ok');
const exitStatus = (o: Obj, k = 'exit_code'): EventStatus => (num(o, k) !== null && num(o, k) !== 0 ? 'error' : 'ok');
const input = (o: Obj) => (o.input === undefined ? '' : short(typeof o.input === 'string' ? o.input : JSON.stringify(o.input) ?? '', 40));

function inferenceView(o: Obj, model: string | null): MurmurView {
  const origin = str(o, 'origin');
  const err = str(o, 'error_code');
  const turn = num(o, 'turn');
  const provider = num(o, 'provider_status');
  return v(
    label('inference', origin, turn !== null && `turn ${turn}`, str(o, 'model') ?? model, err ? `failed ${err}` : str(o, 'decision'),
      str(o, 'tool_name'), provider !== null && `HTTP ${provider}`, formatTokens(num(o, 'input_tokens') ?? num(o, 'input_tokens_actual'), num(o, 'output_tokens') ?? num(o, 'output_tokens_actual'))),
    err ? 'error' : 'ok',
  );
}

const VIEWS: Record<string, Viewer> = {
  session_start: (o, m) => v(label('session_start', str(o, 'capsule_name'), str(o, 'capsule_version'), m, str(o, 'containment_achieved'))),
  session_end: (o) => v(label('session_end', str(o, 'exit_status'), n(o, 'total_turns', 'turn'),
    formatTokens(num(o, 'total_input_tokens'), num(o, 'total_output_tokens')), n(o, 'total_tool_calls', 'tool call'), ms(o)), wordStatus(str(o, 'exit_status'))),
  task_start: (o) => v(label('task_start', str(o, 'task_id'), str(o, 'source'), str(o, 'origin'), str(o, 'trust'))),
  task_end: (o) => v(label('task_end', str(o, 'task_id'), str(o, 'exit_status'), n(o, 'turns', 'turn'),
    formatTokens(num(o, 'input_tokens'), num(o, 'output_tokens')), ms(o)), wordStatus(str(o, 'exit_status'))),
  task_canceled: (o) => v(label('task_canceled', str(o, 'task_id'), str(o, 'phase')), 'warning'),
  task_rejected: (o) => v(label('task_rejected', str(o, 'task_id'), str(o, 'cause')), 'warning'),
  task_failed: (o) => v(label('task_failed', str(o, 'task_id'), str(o, 'cause'), short(str(o, 'reason') ?? '', 60)), 'error'),
  task_reopened: (o) => v(label('task_reopened', str(o, 'task_id'), `#${num(o, 'reopen_number') ?? '?'}`, str(o, 'hook_name'), str(o, 'attempt_context')), 'warning'),
  task_continued: (o) => v(label('task_continued', str(o, 'task_id'), `#${num(o, 'continuation_number') ?? '?'}`, ms(o, 'waited_ms'))),
  context_seed: (o) => v(label('context_seed', str(o, 'hook_name'), str(o, 'outcome'), n(o, 'tokens', 'token')), str(o, 'outcome') === 'rejected' ? 'warning' : 'ok'),
  control_applied: (o) => v(label('control_applied', str(o, 'name'), short(JSON.stringify(o.value) ?? '', 30))),
  tools_refreshed: (o) => v(label('tools_refreshed', str(o, 'trigger'), Array.isArray(o.added) && `+${o.added.length}`, Array.isArray(o.removed) && `-${o.removed.length}`)),
  harness_start: (o) => v(label('harness_start', str(o, 'harness'), str(o, 'harness_version'), str(o, 'session_mode'))),
  harness_warning: (o) => v(label('harness_warning', str(o, 'code'), short(str(o, 'message') ?? '', 60)), 'warning'),
  harness_session: (o) => v(label('harness_session', str(o, 'harness_session_id'), str(o, 'model'))),
  harness_session_forgotten: (o) => v(label('harness_session_forgotten', str(o, 'harness_session_id'), str(o, 'requested_by'))),
  harness_retry: (o) => v(label('harness_retry', `attempt ${num(o, 'attempt') ?? '?'}`, short(str(o, 'reason') ?? '', 60)), 'warning'),
  harness_note: (o) => v(label('harness_note', short(str(o, 'text') ?? '', 60))),
  harness_failed: (o) => v(label('harness_failed', str(o, 'kind'), short(str(o, 'message') ?? '', 60)), 'error'),
  harness_interrupt: (o) => v(label('harness_interrupt', str(o, 'method'), o.delivered === false ? 'not delivered' : ''), 'warning'),
  harness_exit: (o) => v(label('harness_exit', str(o, 'cause'), num(o, 'code') !== null && `code ${num(o, 'code')}`, num(o, 'signal') !== null && `signal ${num(o, 'signal')}`, ms(o)),
    worst(exitStatus(o, 'code'), o.killed === true || num(o, 'signal') !== null ? 'warning' : 'ok')),
  inference: inferenceView,
  tool_call: (o) => v(label('tool_call', str(o, 'tool_name'), input(o), ms(o), str(o, 'status') !== 'ok' && str(o, 'status')), wordStatus(str(o, 'status'))),
  skill_call: (o) => v(label('skill_call', str(o, 'skill_name'), ms(o), str(o, 'status') !== 'ok' && str(o, 'status')), wordStatus(str(o, 'status'))),
  shell: (o) => v(label('shell', short(str(o, 'command') ?? str(o, 'binary') ?? '', 50), `exit ${num(o, 'exit_code') ?? '?'}`, ms(o), str(o, 'resource_limit')),
    worst(exitStatus(o), str(o, 'resource_limit') ? 'error' : 'ok')),
  shell_detached: (o) => v(label('shell_detached', str(o, 'work_id'), short(str(o, 'command') ?? '', 50))),
  shell_detach_unrecorded: (o) => v(label('shell_detach_unrecorded', str(o, 'work_id'), short(str(o, 'reason') ?? '', 50)), 'warning'),
  compaction: (o) => v(label('compaction', `${formatCount(num(o, 'tokens_before') ?? 0)}→${formatCount(num(o, 'tokens_after') ?? 0)} tokens`)),
  compaction_declined: (o) => v(label('compaction_declined', str(o, 'reason'), n(o, 'tokens', 'token')), 'warning'),
  spend_ceiling_reached: (o) => v(label('spend_ceiling_reached', str(o, 'limit'), num(o, 'used') !== null && `${formatCount(num(o, 'used')!)}/${formatCount(num(o, 'ceiling') ?? 0)}`), 'warning'),
  call_denied: (o) => v(label('call_denied', str(o, 'target'), 'by', str(o, 'hook_name')), 'warning'),
  tool_input_refused: (o) => v(label('tool_input_refused', str(o, 'tool_name'), Array.isArray(o.missing) && `missing ${o.missing.join(', ')}`), 'warning'),
  protected_path_denied: (o) => v(label('protected_path_denied', str(o, 'path'), str(o, 'rule')), 'warning'),
  shell_completed: (o) => v(label('shell_completed', str(o, 'work_id'), `exit ${num(o, 'exit_code') ?? '?'}`, ms(o)), worst(exitStatus(o), wordStatus(str(o, 'status')))),
  shell_abandoned: (o) => v(label('shell_abandoned', str(o, 'work_id'), ms(o, 'running_ms')), 'warning'),
  a2a_task_received: (o) => v(label('a2a_task_received', str(o, 'task_id'), str(o, 'caller_member') && `from ${str(o, 'caller_member')}`)),
  a2a_send: (o) => v(label('a2a_send', str(o, 'peer_url'), str(o, 'task_id'))),
  artifact_pulled: (o) => v(label('artifact_pulled', str(o, 'runtime'), str(o, 'name'), str(o, 'version'))),
  retention: (o) => v(label('retention', str(o, 'store'), str(o, 'reason'), `removed ${num(o, 'removed') ?? '?'}`)),
  hook_dispatch_error: (o) => v(label('hook_dispatch_error', str(o, 'hook_name'), str(o, 'event'), str(o, 'arm')), 'error'),
  resource_list: (o) => v(label('resource_list', str(o, 'root'), n(o, 'entry_count', 'entry', 'entries'), str(o, 'outcome')), wordStatus(str(o, 'outcome'))),
  resource_read: (o) => v(label('resource_read', str(o, 'path'), str(o, 'outcome')), wordStatus(str(o, 'outcome'))),
  formation_ended: (o) => v(label('formation_ended', str(o, 'formation_id'))),
  spawner_ended: (o) => v(label('spawner_ended', str(o, 'delegation_id'), str(o, 'spawned_by'))),
  peer_handle_mint: (o) => v(label('peer_handle_mint', str(o, 'path'), 'for', str(o, 'audience'), str(o, 'outcome')), wordStatus(str(o, 'outcome'))),
  peer_handle_redeem: (o) => v(label('peer_handle_redeem', str(o, 'handle_id'), str(o, 'outcome')), wordStatus(str(o, 'outcome'))),
  peer_file_fetch: (o) => v(label('peer_file_fetch', str(o, 'peer'), str(o, 'handle_id'), str(o, 'outcome')), wordStatus(str(o, 'outcome'))),
  delegation_start: (o) => v(label('delegation_start', str(o, 'capsule'), str(o, 'version'), str(o, 'delegation_id'))),
  delegation: (o) => v(label('delegation', str(o, 'capsule'), str(o, 'outcome'), ms(o)), wordStatus(str(o, 'outcome'))),
  member_call_start: (o) => v(label('member_call_start', str(o, 'member'), str(o, 'call_id'))),
  member_call_busy: (o) => v(label('member_call_busy', str(o, 'member'), `offer ${num(o, 'offer') ?? '?'}`), 'warning'),
  member_call: (o) => v(label('member_call', str(o, 'member'), str(o, 'status'), ms(o)), wordStatus(str(o, 'status'))),
  inference_credential: (o) => v(label('inference_credential', str(o, 'change'), str(o, 'source')), str(o, 'change') === 'rotated' ? 'ok' : 'warning'),
  gateway_credential: (o) => v(label('gateway_credential', str(o, 'artifact'), str(o, 'change')), str(o, 'change') === 'rotated' ? 'ok' : 'warning'),
  control_change: (o) => v(label('control_change', str(o, 'action'), str(o, 'kind'), str(o, 'name'), 'by', str(o, 'principal'))),
  control_refused: (o) => v(label('control_refused', str(o, 'name'), num(o, 'status') !== null && `HTTP ${num(o, 'status')}`, str(o, 'reason')), 'warning'),
  plan_start: (o) => v(label('plan_start', str(o, 'plan_id'), n(o, 'step_count', 'step'))),
  plan_step_start: (o) => v(label('plan_step_start', str(o, 'step_id'), str(o, 'kind'))),
  plan_step: (o) => v(label('plan_step', str(o, 'step_id'), str(o, 'kind'), str(o, 'status'), ms(o)), worst(wordStatus(str(o, 'status')), str(o, 'error') ? 'error' : 'ok')),
  plan_end: (o) => v(label('plan_end', str(o, 'plan_id'), str(o, 'outcome'), num(o, 'steps_total') !== null && `${num(o, 'steps_succeeded') ?? '?'}/${num(o, 'steps_total')} ok`, ms(o)),
    worst(wordStatus(str(o, 'outcome')), (num(o, 'steps_failed') ?? 0) > 0 ? 'error' : 'ok')),
  shell_lost: (o) => v(label('shell_lost', str(o, 'work_id'), short(str(o, 'command') ?? '', 50)), 'warning'),
};

/** Label and status of a murmur event; `model` is the session's model, used when an inference names none. */
export function murmurView(type: string, o: Obj, model: string | null): MurmurView {
  // The builder asks first and the loader's label check right after, with the same line: answer that once, unless
  // the model the view reads differs (a viewer that takes it declares a second parameter).
  const viewer = Object.prototype.hasOwnProperty.call(VIEWS, type) ? VIEWS[type] : undefined;
  const used = !viewer || viewer.length < 2 ? null : type === 'inference' ? str(o, 'model') ?? model : model;
  if (o === last.o && type === last.type && used === last.model) return last.view;
  const view = viewOf(viewer, type, o, model);
  last.o = o;
  last.type = type;
  last.model = used;
  last.view = view;
  return view;
}

const last: { o: Obj | null; type: string; model: string | null; view: MurmurView } = { o: null, type: '', model: null, view: v('') };

function viewOf(viewer: Viewer | undefined, type: string, o: Obj, model: string | null): MurmurView {
  if (viewer) return viewer(o, model);
  // A type newer than the spec: still readable, with whatever generic words it carries.
  const word = str(o, 'status') ?? str(o, 'outcome') ?? str(o, 'exit_status');
  return v(label(type, word, ms(o)), wordStatus(word));
}
