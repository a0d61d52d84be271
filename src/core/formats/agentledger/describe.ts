/**
 * What a person reads for one AgentLedger event: label, status, tokens, model and tool, from the row and its
 * payload (the `payload` field, or a Python inline `payload_ref`).
 */
import { EventStatus } from '../../model';
import { formatCount, formatTokens, isObj, label, Obj, short } from '../common';

/** The readable facts of one event. */
export interface Description {
  label: string;
  status: EventStatus;
  tokensIn: number | null;
  tokensOut: number | null;
  model: string | null;
  tool: string | null;
}

function str(p: Obj, k: string): string | null {
  const v = p[k];
  return typeof v === 'string' && v.length > 0 ? v : null;
}
function num(p: Obj, k: string): number | null {
  const v = p[k];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** The tool a payload names (`tool`, or `tool_name` on sandbox events). */
export function payloadTool(p: unknown): string | null {
  return isObj(p) ? str(p, 'tool') ?? str(p, 'tool_name') : null;
}

/** Input and output tokens of a model payload: Python `usage.prompt/completion_tokens`, Rust `input/output_tokens`. */
export function payloadTokens(p: unknown): { input: number | null; output: number | null; total: number | null } {
  if (!isObj(p)) return { input: null, output: null, total: null };
  const u = isObj(p.usage) ? p.usage : p;
  return {
    input: num(u, 'prompt_tokens') ?? num(u, 'input_tokens'),
    output: num(u, 'completion_tokens') ?? num(u, 'output_tokens'),
    total: num(u, 'total_tokens'),
  };
}

/** `error_type: message`, shortened, from a failure payload. */
function failureText(p: Obj): string | null {
  const type = str(p, 'error_type');
  const error = str(p, 'error');
  if (error && type && error.startsWith(type)) return short(error, 72);
  return short([type, error].filter(Boolean).join(': '), 72) || null;
}

function costText(p: Obj): string {
  const amount = num(p, 'amount');
  const unit = str(p, 'unit');
  if (amount === null) return '';
  if (unit === 'usd') return `$${amount < 1 ? Number(amount.toPrecision(3)) : amount.toFixed(2)}`;
  return `${formatCount(amount)} ${unit === 'token' ? 'tokens' : unit === 'call' ? (amount === 1 ? 'call' : 'calls') : unit ?? ''}`.trim();
}

/** Label and status of one event; `groupTool` is the tool of its call group when the payload does not say. */
export function describeEvent(type: string, payload: unknown, groupTool: string | null): Description {
  const p: Obj = isObj(payload) ? payload : {};
  const tool = payloadTool(p) ?? (type === 'cost_recorded' && str(p, 'category')?.startsWith('tool') ? str(p, 'name') : null) ?? groupTool;
  const t = type.startsWith('model_call_') ? payloadTokens(p) : { input: null, output: null, total: null };
  const model = str(p, 'model') ?? (type.startsWith('model_call_') ? str(p, 'provider') : null);
  const d: Description = { label: type, status: statusOf(type, p), tokensIn: t.input, tokensOut: t.output, model, tool };
  const tokens = formatTokens(t.input, t.output) || (t.total !== null ? `${formatCount(t.total)} tokens` : '');
  d.label = label(type, detail(type, p, tool, model, tokens));
  return d;
}

/** What a label needs besides the payload. */
interface DetailContext {
  tool: string | null;
  model: string | null;
  tokens: string;
}

type Detail = (p: Obj, c: DetailContext) => string;

const attemptText = (p: Obj) => (num(p, 'attempt') !== null ? `attempt ${num(p, 'attempt')}` : '');
const reasonText: Detail = (p) => (str(p, 'reason') ? short(str(p, 'reason')!, 60) : '');
const failure: Detail = (p) => failureText(p) ?? '';
const statePatch: Detail = (p) =>
  label(num(p, 'state_version') !== null ? `v${num(p, 'state_version')}` : '', isObj(p.patch) ? short(Object.keys(p.patch).join(', '), 48) : '');
const artifact: Detail = (p) => label(str(p, 'name'), str(p, 'kind'));
const model: Detail = (p, c) => label(c.model, c.tokens, num(p, 'total_usd') !== null ? `$${num(p, 'total_usd')}` : '');

/** The part of the label after the type, per event type; other types show their tool, if any. */
const DETAILS: Record<string, Detail> = {
  run_created: () => '',
  step_created: () => '',
  step_completed: () => '',
  step_claimed: (p) => label(attemptText(p), str(p, 'worker_id') && `by ${str(p, 'worker_id')}`),
  agent_started: (p) => label(str(p, 'agent_role'), attemptText(p)),
  tool_permission_decided: (p, c) =>
    label(c.tool, p.allowed === true ? 'allowed' : p.allowed === false ? `denied${str(p, 'reason') ? `: ${short(str(p, 'reason')!, 60)}` : ''}` : ''),
  tool_approval_required: (p, c) => label(c.tool, str(p, 'risk_level') && `risk ${str(p, 'risk_level')}`),
  tool_approval_decided: (p, c) => label(c.tool, str(p, 'status'), str(p, 'approver') && `by ${str(p, 'approver')}`),
  step_waiting_human: (p) => str(p, 'approval_id') ?? '',
  sandbox_completed: (p, c) => label(c.tool, p.ok === true ? 'ok' : p.ok === false ? `failed${str(p, 'error') ? `: ${short(str(p, 'error')!, 60)}` : ''}` : ''),
  tool_call_completed: (p, c) => label(c.tool, p.replayed_from_ledger === true ? 'replayed from ledger' : ''),
  tool_call_failed: (p, c) => label(c.tool, failureText(p)),
  budget_check_failed: failure,
  error_raised: failure,
  model_call_failed: failure,
  failure_classified: (p) => label(str(p, 'error_type'), p.retryable === true ? '(retryable)' : p.retryable === false ? '(not retryable)' : ''),
  step_failed: (p) => str(p, 'error_type') ?? '',
  step_retry_scheduled: (p) =>
    label(str(p, 'reason'), num(p, 'attempt') !== null ? `after attempt ${num(p, 'attempt')}${num(p, 'max_attempts') !== null ? ` of ${num(p, 'max_attempts')}` : ''}` : ''),
  run_cancel_requested: reasonText,
  step_cancelled: reasonText,
  run_cancelled: reasonText,
  lease_expired: reasonText,
  cost_recorded: (p) => label(str(p, 'category'), str(p, 'name'), costText(p), isObj(p.metadata) && p.metadata.replayed_from_ledger === true ? '(replayed)' : ''),
  model_call_requested: model,
  model_call_completed: model,
  state_patch_proposed: (p) => str(p, 'key') ?? '',
  state_committed: statePatch,
  state_patch_committed: statePatch,
  system_state_patch_applied: statePatch,
  artifact_created: artifact,
  media_artifact: artifact,
  stream_checkpoint: artifact,
};

function detail(type: string, p: Obj, tool: string | null, modelName: string | null, tokens: string): string {
  const f = Object.prototype.hasOwnProperty.call(DETAILS, type) ? DETAILS[type] : null;
  return f ? f(p, { tool, model: modelName, tokens }) : tool ?? '';
}

function statusOf(type: string, p: Obj): EventStatus {
  switch (type) {
    case 'error_raised': case 'step_failed': case 'tool_call_failed': case 'tool_call_blocked': case 'budget_check_failed': case 'model_call_failed':
      return 'error';
    case 'failure_classified':
      return p.retryable === true ? 'warning' : 'error';
    case 'sandbox_completed':
      return p.ok === false ? 'error' : 'ok';
    case 'tool_permission_decided':
      return p.allowed === false ? 'warning' : 'ok';
    case 'tool_approval_decided':
      return p.status === 'DENIED' ? 'warning' : 'ok';
    case 'step_retry_scheduled': case 'lease_expired': case 'run_cancel_requested': case 'step_cancelled': case 'run_cancelled':
      return 'warning';
    default:
      return 'ok';
  }
}
