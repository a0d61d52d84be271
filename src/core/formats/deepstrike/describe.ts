import { EventCategory, EventStatus } from '../../model';
import { formatCount, isObj, label, num, Obj, short, str } from '../common';
import { KERNEL_OS_KINDS, kernelCategory } from './kinds';
import { llmToolCalls } from './records';

/** The readable part of a session event. */
export interface DsDescription {
  category: EventCategory;
  label: string;
  status: EventStatus;
  tokensIn?: number | null;
  tokensOut?: number | null;
  model?: string | null;
  tool?: string | null;
}

function tail(s: string | null): string {
  return s ? `: ${short(s, 60)}` : '';
}

function contentText(c: unknown): string | null {
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((p) => (isObj(p) && typeof p.text === 'string' ? p.text : '')).join(' ').trim() || null;
  return null;
}

function describeLlm(e: Obj): DsDescription {
  const msg = isObj(e.message) ? e.message : null;
  const tokens = num(msg ?? e, 'token_count');
  const model = str(e.provider_replay, 'model');
  const names = llmToolCalls(e).map((c) => c.name ?? '?');
  const text = contentText(msg ? msg.content : e.content);
  return {
    category: 'inference', status: 'ok', tokensOut: tokens, model,
    label: label('llm_completed', `turn ${num(e, 'turn') ?? '?'}`, model, tokens !== null && `${formatCount(tokens)} tokens`,
      names.length > 0 ? `→ ${names.join(', ')}` : text ? `“${short(text, 40)}”` : ''),
  };
}

function describeResults(e: Obj, toolOf: (id: string) => string | null): DsDescription {
  const results = Array.isArray(e.results) ? e.results.filter(isObj) : [];
  const names = results.map((r) => (typeof r.call_id === 'string' ? toolOf(r.call_id) ?? r.call_id : '?'));
  const errors = results.filter((r) => r.is_error === true);
  const denied = errors.length > 0 && errors.every((r) => r.error_kind === 'governance_denied');
  const kinds = [...new Set(errors.map((r) => (typeof r.error_kind === 'string' ? r.error_kind : 'error')))];
  return {
    category: 'tool', status: errors.length === 0 ? 'ok' : denied ? 'warning' : 'error', tool: names.length === 1 ? names[0] : null,
    label: label('tool_completed', names.join(', '), errors.length === 0 ? 'ok' : kinds.join(', '))
      + (errors.length === 1 ? tail(typeof errors[0].output === 'string' ? errors[0].output : null) : ''),
  };
}

function terminalStatus(reason: string | null): EventStatus {
  if (reason === 'completed') return 'ok';
  return reason === 'user_abort' || reason === 'milestone_pending' ? 'warning' : 'error';
}

const WARN_KINDS = new Set(['tool_gated', 'rollbacked', 'operation_cancelled', 'entropy_alert', 'milestone_blocked', 'suspended']);
const ERROR_KINDS = new Set(['budget_exceeded', 'memory_validation_failed', 'memory_write_failed', 'memory_query_failed']);

/** Describes one session event; `toolOf` resolves a call id to its tool name. */
export function describeDsEvent(kind: string, e: Obj, toolOf: (id: string) => string | null): DsDescription {
  const turn = num(e, 'turn');
  const t = turn !== null ? `turn ${turn}` : '';
  switch (kind) {
    case 'run_started':
      return { category: 'run', status: 'ok', label: label('run', str(e, 'goal') && `“${short(str(e, 'goal')!, 60)}”`, str(e, 'agent_id') && `agent ${str(e, 'agent_id')}`) };
    case 'run_terminal': {
      const reason = str(e, 'reason');
      const total = num(e, 'total_tokens');
      return { category: 'run', status: terminalStatus(reason), label: label('run_terminal', reason, num(e, 'turns_used') !== null && `${num(e, 'turns_used')} turns`, total !== null && `${formatCount(total)} tokens`) };
    }
    case 'llm_completed': return describeLlm(e);
    case 'tool_requested': {
      const names = Array.isArray(e.calls) ? e.calls.map((c) => str(c, 'name') ?? '?') : [];
      return { category: 'tool', status: 'ok', tool: names.length === 1 ? names[0] : null, label: label('tool_requested', t, names.join(', ')) };
    }
    case 'tool_completed': return describeResults(e, toolOf);
    case 'tool_denied':
      return { category: 'policy', status: 'warning', tool: str(e, 'tool_name'), label: label('tool_denied', str(e, 'tool_name')) + tail(str(e, 'reason')) };
    case 'tool_gated':
      return { category: 'policy', status: 'warning', tool: str(e, 'tool'), label: label('tool_gated', str(e, 'tool')) + tail(str(e, 'reason')) };
    case 'tool_argument_repaired':
      return { category: 'tool', status: 'ok', tool: str(e, 'tool'), label: label('tool_argument_repaired', str(e, 'tool')) };
    case 'permission_requested':
      return { category: 'approval', status: 'ok', tool: str(e, 'tool'), label: label('permission_requested', str(e, 'tool')) + tail(str(e, 'reason')) };
    case 'permission_resolved': {
      const ok = e.approved === true;
      return { category: 'approval', status: ok ? 'ok' : 'warning', label: label('permission', ok ? 'approved' : 'denied', str(e, 'responder') && `by ${str(e, 'responder')}`) };
    }
    case 'prompt_measured': {
      const input = num(e.measurement, 'input_tokens');
      return { category: 'inference', status: 'ok', tokensIn: input, label: label('prompt_measured', t, input !== null && `${formatCount(input)} tokens`) };
    }
    case 'compressed': {
      const r = Array.isArray(e.archived_seq_range) ? e.archived_seq_range : [];
      return { category: 'other', status: 'ok', label: label('[mm] compressed', t, r.length === 2 && `seq ${String(r[0])}–${String(r[1])}`, str(e, 'action')) };
    }
    case 'rollbacked':
      return { category: 'other', status: 'warning', label: label('[sched] rollbacked', t, `to ${num(e, 'checkpoint_history_len') ?? '?'} messages`, str(e.reason, 'kind')) };
    default: {
      const badge = KERNEL_OS_KINDS.has(kind) ? `[${kernelCategory(kind)}] ` : '';
      const status: EventStatus = ERROR_KINDS.has(kind) ? 'error' : WARN_KINDS.has(kind) ? 'warning' : 'ok';
      const detail = str(e, 'reason') ?? str(e, 'state') ?? str(e, 'phase_id') ?? str(e, 'disposition');
      return { category: 'other', status, label: label(badge + kind, t, detail && short(detail, 40)) };
    }
  }
}
