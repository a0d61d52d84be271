import { EventStatus } from '../../model';
import { argsSummary, formatCount, formatDuration, formatTokens, label, num, Obj, short, statusFromWord, str, toolResultLabel } from '../common';


/**
 * A type's label (`model`: the session's model, for the viewers that declare it) and its status, when the status
 * is not always 'ok'. Apart, so that a read takes the status of every line and leaves the label to the line
 * (`EventDraft.lineLabel`), made again only for the rows shown.
 */
type Viewer = readonly [label: (o: Obj, model: string | null) => string, status?: (o: Obj) => EventStatus];

const OK_WORDS = new Set(['ok', 'success', 'succeeded', 'completed', 'complete', 'done', 'seeded', 'trimmed', 'compacted', 'rotated', 'delivered']);

/** Status of an open-valued outcome word (`status`, `outcome`, `exit_status`): failures are errors, refusals warnings. */
export function wordStatus(word: string | null): EventStatus {
  if (word === null || OK_WORDS.has(word.toLowerCase())) return 'ok';
  return statusFromWord(word) ?? 'ok';
}

const ms = (o: Obj, k = 'duration_ms') => formatDuration(num(o, k));
const n = (o: Obj, k: string, unit: string, plural = `${unit}s`) => {
  const x = num(o, k);
  return x === null ? '' : `${formatCount(x)} ${x === 1 ? unit : plural}`;
};
const worst = (...s: EventStatus[]): EventStatus => (s.includes('error') ? 'error' : s.includes('warning') ? 'warning' : 'ok');
const exitStatus = (o: Obj, k = 'exit_code'): EventStatus => (num(o, k) !== null && num(o, k) !== 0 ? 'error' : 'ok');
const input = (o: Obj) => (o.input === undefined ? '' : short(typeof o.input === 'string' ? o.input : JSON.stringify(o.input) ?? '', 40));

/** What a failed tool call said: its output (without a leading `error:`), else its status word when that is more than "error". */
function toolError(o: Obj): string | null {
  const out = str(o, 'output')?.replace(/^\s*error:\s*/i, '').trim();
  if (out) return out;
  const status = str(o, 'status');
  return status && status !== 'error' ? status : null;
}

function inferenceLabel(o: Obj, model: string | null): string {
  const origin = str(o, 'origin');
  const err = str(o, 'error_code');
  const turn = num(o, 'turn');
  const provider = num(o, 'provider_status');
  return label('inference', origin, turn !== null && `turn ${turn}`, str(o, 'model') ?? model, err ? `failed ${err}` : str(o, 'decision'),
    str(o, 'tool_name'), provider !== null && `HTTP ${provider}`, formatTokens(num(o, 'input_tokens') ?? num(o, 'input_tokens_actual'), num(o, 'output_tokens') ?? num(o, 'output_tokens_actual')));
}

const VIEWS: Record<string, Viewer> = {
  session_start: [(o, m) => label('session_start', str(o, 'capsule_name'), str(o, 'capsule_version'), m, str(o, 'containment_achieved'))],
  session_end: [(o) => label('session_end', str(o, 'exit_status'), n(o, 'total_turns', 'turn'),
    formatTokens(num(o, 'total_input_tokens'), num(o, 'total_output_tokens')), n(o, 'total_tool_calls', 'tool call'), ms(o)), (o) => wordStatus(str(o, 'exit_status'))],
  task_start: [(o) => label('task_start', str(o, 'task_id'), str(o, 'source'), str(o, 'origin'), str(o, 'trust'))],
  task_end: [(o) => label('task_end', str(o, 'task_id'), str(o, 'exit_status'), n(o, 'turns', 'turn'),
    formatTokens(num(o, 'input_tokens'), num(o, 'output_tokens')), ms(o)), (o) => wordStatus(str(o, 'exit_status'))],
  task_canceled: [(o) => label('task_canceled', str(o, 'task_id'), str(o, 'phase')), () => 'warning'],
  task_rejected: [(o) => label('task_rejected', str(o, 'task_id'), str(o, 'cause')), () => 'warning'],
  task_failed: [(o) => label('task_failed', str(o, 'task_id'), str(o, 'cause'), short(str(o, 'reason') ?? '', 60)), () => 'error'],
  task_reopened: [(o) => label('task_reopened', str(o, 'task_id'), `#${num(o, 'reopen_number') ?? '?'}`, str(o, 'hook_name'), str(o, 'attempt_context')), () => 'warning'],
  task_continued: [(o) => label('task_continued', str(o, 'task_id'), `#${num(o, 'continuation_number') ?? '?'}`, ms(o, 'waited_ms'))],
  context_seed: [(o) => label('context_seed', str(o, 'hook_name'), str(o, 'outcome'), n(o, 'tokens', 'token')), (o) => str(o, 'outcome') === 'rejected' ? 'warning' : 'ok'],
  control_applied: [(o) => label('control_applied', str(o, 'name'), short(JSON.stringify(o.value) ?? '', 30))],
  tools_refreshed: [(o) => label('tools_refreshed', str(o, 'trigger'), Array.isArray(o.added) && `+${o.added.length}`, Array.isArray(o.removed) && `-${o.removed.length}`)],
  harness_start: [(o) => label('harness_start', str(o, 'harness'), str(o, 'harness_version'), str(o, 'session_mode'))],
  harness_warning: [(o) => label('harness_warning', str(o, 'code'), short(str(o, 'message') ?? '', 60)), () => 'warning'],
  harness_session: [(o) => label('harness_session', str(o, 'harness_session_id'), str(o, 'model'))],
  harness_session_forgotten: [(o) => label('harness_session_forgotten', str(o, 'harness_session_id'), str(o, 'requested_by'))],
  harness_retry: [(o) => label('harness_retry', `attempt ${num(o, 'attempt') ?? '?'}`, short(str(o, 'reason') ?? '', 60)), () => 'warning'],
  harness_note: [(o) => label('harness_note', short(str(o, 'text') ?? '', 60))],
  harness_failed: [(o) => label('harness_failed', str(o, 'kind'), short(str(o, 'message') ?? '', 60)), () => 'error'],
  harness_interrupt: [(o) => label('harness_interrupt', str(o, 'method'), o.delivered === false ? 'not delivered' : ''), () => 'warning'],
  harness_exit: [(o) => label('harness_exit', str(o, 'cause'), num(o, 'code') !== null && `code ${num(o, 'code')}`, num(o, 'signal') !== null && `signal ${num(o, 'signal')}`, ms(o)), (o) => worst(exitStatus(o, 'code'), o.killed === true || num(o, 'signal') !== null ? 'warning' : 'ok')],
  inference: [inferenceLabel, (o) => (str(o, 'error_code') ? 'error' : 'ok')],
  // A call and its outcome in one line, worded as every agent's tool rows are (common.ts): `read_file: src/a.ts → ok, 3 ms`.
  tool_call: [(o) => toolResultLabel({ tool: str(o, 'tool_name'), arg: typeof o.input === 'string' ? o.input : argsSummary(o.input) ?? input(o), durationMs: num(o, 'duration_ms'), failed: wordStatus(str(o, 'status')) !== 'ok', error: toolError(o) }), (o) => wordStatus(str(o, 'status'))],
  skill_call: [(o) => label('skill_call', str(o, 'skill_name'), ms(o), str(o, 'status') !== 'ok' && str(o, 'status')), (o) => wordStatus(str(o, 'status'))],
  // `shell: npm test → exit 1, 912 ms` (and the limit it hit, if any).
  shell: [(o) => label(toolResultLabel({ tool: 'shell', arg: str(o, 'command') ?? str(o, 'binary'), exitCode: num(o, 'exit_code'), durationMs: num(o, 'duration_ms') }), str(o, 'resource_limit') && `(${str(o, 'resource_limit')})`), (o) => worst(exitStatus(o), str(o, 'resource_limit') ? 'error' : 'ok')],
  shell_detached: [(o) => label('shell_detached', str(o, 'work_id'), short(str(o, 'command') ?? '', 50))],
  shell_detach_unrecorded: [(o) => label('shell_detach_unrecorded', str(o, 'work_id'), short(str(o, 'reason') ?? '', 50)), () => 'warning'],
  compaction: [(o) => label('compaction', `${formatCount(num(o, 'tokens_before') ?? 0)}→${formatCount(num(o, 'tokens_after') ?? 0)} tokens`)],
  compaction_declined: [(o) => label('compaction_declined', str(o, 'reason'), n(o, 'tokens', 'token')), () => 'warning'],
  spend_ceiling_reached: [(o) => label('spend_ceiling_reached', str(o, 'limit'), num(o, 'used') !== null && `${formatCount(num(o, 'used')!)}/${formatCount(num(o, 'ceiling') ?? 0)}`), () => 'warning'],
  call_denied: [(o) => label('call_denied', str(o, 'target'), 'by', str(o, 'hook_name')), () => 'warning'],
  tool_input_refused: [(o) => label('tool_input_refused', str(o, 'tool_name'), Array.isArray(o.missing) && `missing ${o.missing.join(', ')}`), () => 'warning'],
  protected_path_denied: [(o) => label('protected_path_denied', str(o, 'path'), str(o, 'rule')), () => 'warning'],
  shell_completed: [(o) => label('shell_completed', str(o, 'work_id'), `exit ${num(o, 'exit_code') ?? '?'}`, ms(o)), (o) => worst(exitStatus(o), wordStatus(str(o, 'status')))],
  shell_abandoned: [(o) => label('shell_abandoned', str(o, 'work_id'), ms(o, 'running_ms')), () => 'warning'],
  a2a_task_received: [(o) => label('a2a_task_received', str(o, 'task_id'), str(o, 'caller_member') && `from ${str(o, 'caller_member')}`)],
  a2a_send: [(o) => label('a2a_send', str(o, 'peer_url'), str(o, 'task_id'))],
  artifact_pulled: [(o) => label('artifact_pulled', str(o, 'runtime'), str(o, 'name'), str(o, 'version'))],
  retention: [(o) => label('retention', str(o, 'store'), str(o, 'reason'), `removed ${num(o, 'removed') ?? '?'}`)],
  hook_dispatch_error: [(o) => label('hook_dispatch_error', str(o, 'hook_name'), str(o, 'event'), str(o, 'arm')), () => 'error'],
  resource_list: [(o) => label('resource_list', str(o, 'root'), n(o, 'entry_count', 'entry', 'entries'), str(o, 'outcome')), (o) => wordStatus(str(o, 'outcome'))],
  resource_read: [(o) => label('resource_read', str(o, 'path'), str(o, 'outcome')), (o) => wordStatus(str(o, 'outcome'))],
  formation_ended: [(o) => label('formation_ended', str(o, 'formation_id'))],
  spawner_ended: [(o) => label('spawner_ended', str(o, 'delegation_id'), str(o, 'spawned_by'))],
  peer_handle_mint: [(o) => label('peer_handle_mint', str(o, 'path'), 'for', str(o, 'audience'), str(o, 'outcome')), (o) => wordStatus(str(o, 'outcome'))],
  peer_handle_redeem: [(o) => label('peer_handle_redeem', str(o, 'handle_id'), str(o, 'outcome')), (o) => wordStatus(str(o, 'outcome'))],
  peer_file_fetch: [(o) => label('peer_file_fetch', str(o, 'peer'), str(o, 'handle_id'), str(o, 'outcome')), (o) => wordStatus(str(o, 'outcome'))],
  delegation_start: [(o) => label('delegation_start', str(o, 'capsule'), str(o, 'version'), str(o, 'delegation_id'))],
  delegation: [(o) => label('delegation', str(o, 'capsule'), str(o, 'outcome'), ms(o)), (o) => wordStatus(str(o, 'outcome'))],
  member_call_start: [(o) => label('member_call_start', str(o, 'member'), str(o, 'call_id'))],
  member_call_busy: [(o) => label('member_call_busy', str(o, 'member'), `offer ${num(o, 'offer') ?? '?'}`), () => 'warning'],
  member_call: [(o) => label('member_call', str(o, 'member'), str(o, 'status'), ms(o)), (o) => wordStatus(str(o, 'status'))],
  inference_credential: [(o) => label('inference_credential', str(o, 'change'), str(o, 'source')), (o) => str(o, 'change') === 'rotated' ? 'ok' : 'warning'],
  gateway_credential: [(o) => label('gateway_credential', str(o, 'artifact'), str(o, 'change')), (o) => str(o, 'change') === 'rotated' ? 'ok' : 'warning'],
  control_change: [(o) => label('control_change', str(o, 'action'), str(o, 'kind'), str(o, 'name'), 'by', str(o, 'principal'))],
  control_refused: [(o) => label('control_refused', str(o, 'name'), num(o, 'status') !== null && `HTTP ${num(o, 'status')}`, str(o, 'reason')), () => 'warning'],
  plan_start: [(o) => label('plan_start', str(o, 'plan_id'), n(o, 'step_count', 'step'))],
  plan_step_start: [(o) => label('plan_step_start', str(o, 'step_id'), str(o, 'kind'))],
  plan_step: [(o) => label('plan_step', str(o, 'step_id'), str(o, 'kind'), str(o, 'status'), ms(o)), (o) => worst(wordStatus(str(o, 'status')), str(o, 'error') ? 'error' : 'ok')],
  plan_end: [(o) => label('plan_end', str(o, 'plan_id'), str(o, 'outcome'), num(o, 'steps_total') !== null && `${num(o, 'steps_succeeded') ?? '?'}/${num(o, 'steps_total')} ok`, ms(o)), (o) => worst(wordStatus(str(o, 'outcome')), (num(o, 'steps_failed') ?? 0) > 0 ? 'error' : 'ok')],
  shell_lost: [(o) => label('shell_lost', str(o, 'work_id'), short(str(o, 'command') ?? '', 50)), () => 'warning'],
};

const viewerOf = (type: string): Viewer | undefined => (Object.prototype.hasOwnProperty.call(VIEWS, type) ? VIEWS[type] : undefined);

/** A type newer than the spec: its generic outcome word. */
const wordOf = (o: Obj) => str(o, 'status') ?? str(o, 'outcome') ?? str(o, 'exit_status');

/** Status of a murmur event, without its label. */
export function murmurStatus(type: string, o: Obj): EventStatus {
  const viewer = viewerOf(type);
  if (!viewer) return wordStatus(wordOf(o));
  return viewer[1] ? viewer[1](o) : 'ok';
}

/** Label of a murmur event; `model` is the session's model, used when an inference names none. */
export function murmurLabelOf(type: string, o: Obj, model: string | null): string {
  const viewer = viewerOf(type);
  // A type newer than the spec: still readable, with whatever generic words it carries.
  return viewer ? viewer[0](o, model) : label(type, wordOf(o), ms(o));
}

