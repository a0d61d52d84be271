/**
 * Per-line conformance (format doc §4, §5, §13): required fields, known types, payload keys, Rust step ids,
 * causal tokens and the order of events inside one tool call (§5.4).
 */
import { Finding } from '../../model';
import { isObj } from '../common';
import { Dialect, effectivePayload, LedgerRow, parseCausalToken } from './rows';
import { CALL_MEMBER_TYPES, EXTRA_SPAN_NAMES, KNOWN_EVENT_TYPES, RUN_LEVEL_TYPES } from './vocab';
import { payloadTool } from './describe';
import { At, finding } from './catalog';
import { payloadSchema, rowProblems, schemaProblems } from './schemas';

/** required-fields for a row of a known dialect, or for a foreign line in a file of `fileDialect`. */
export function checkRequired(dialect: Dialect, value: unknown, at: At, foreign: boolean): Finding[] {
  const problems = rowProblems(dialect, value);
  if (problems.length === 0 && !foreign) return [];
  const what = foreign ? `The line is not an AgentLedger ${dialect.endsWith('span') ? 'span' : 'event row'}` : 'Required fields';
  return [finding('required-fields', at, `${what}: ${problems.join('; ') || 'unrecognised shape'}.`)];
}

/** event-type-known (first line of each unknown type), payload-schema, step-id-null and causal-token. */
export class RowRules {
  private readonly unknownTypes = new Set<string>();

  check(row: LedgerRow, at: At): Finding[] {
    const out: Finding[] = [];
    const type = row.type;
    if (type !== null && !KNOWN_EVENT_TYPES.has(type) && !EXTRA_SPAN_NAMES.has(type) && !this.unknownTypes.has(type)) {
      this.unknownTypes.add(type);
      out.push(finding('event-type-known', at, `Event type ${JSON.stringify(type)} is not one the AgentLedger runtimes or contract name; it is shown as is.`));
    }
    const payload = effectivePayload(row);
    const schema = type !== null && payload !== undefined ? payloadSchema(type, row.dialect) : null;
    if (schema) {
      const problems = schemaProblems(schema, payload);
      if (problems.length > 0) out.push(finding('payload-schema', at, `${type} payload: ${problems.map((p) => p.replace(/^\(row\)/, 'payload')).join('; ')}.`));
    }
    if (row.dialect === 'rust-event' && type !== null && KNOWN_EVENT_TYPES.has(type)) {
      const runLevel = RUN_LEVEL_TYPES.has(type);
      if (runLevel && row.stepId !== null) out.push(finding('step-id-null', at, `${type} is a run event, but step_id is ${row.stepId}; Rust writes null.`));
      if (!runLevel && row.stepId === null) out.push(finding('step-id-null', at, `${type} is a step event, but step_id is null.`));
    }
    if (row.causalToken !== null) out.push(...checkCausalToken(row, at));
    return out;
  }
}

const PY_TOKEN_KEYS = ['attempt', 'event_seq', 'lease_token', 'run_id', 'state_version', 'step_id'];
/** The TypeScript runtime's token: `JSON.stringify({run_id, step_id, attempt, state_version, lease_token})`. */
const TS_TOKEN_KEYS = ['attempt', 'lease_token', 'run_id', 'state_version', 'step_id'];

function checkCausalToken(row: LedgerRow, at: At): Finding[] {
  const token = row.causalToken!;
  const t = parseCausalToken(token);
  const rust = row.dialect === 'rust-event';
  const keysWanted = row.dialect === 'ts-event' ? TS_TOKEN_KEYS : PY_TOKEN_KEYS;
  const expectedForm = rust ? '{run_id}:{step_id}:{attempt}:{state_version}' : `JSON with keys ${keysWanted.join(', ')}`;
  if (!t || t.form !== (rust ? 'rust' : 'python')) return [finding('causal-token', at, `causal_token ${JSON.stringify(token.slice(0, 80))} is not ${expectedForm}.`)];
  const problems: string[] = [];
  if (t.form === 'python') {
    const keys = Object.keys(JSON.parse(token) as object).sort();
    if (keys.join(',') !== keysWanted.join(',')) problems.push(`keys are ${keys.join(', ')}`);
  }
  if (t.runId !== row.runId) problems.push(`run_id ${t.runId} but the row's run_id is ${row.runId}`);
  if (t.stepId !== row.stepId) problems.push(`step_id ${t.stepId} but the row's step_id is ${row.stepId}`);
  if (rust && t.stateVersion !== row.stateVersion) problems.push(`state_version ${t.stateVersion} but the row's state_version is ${row.stateVersion}`);
  return problems.length === 0 ? [] : [finding('causal-token', at, `causal_token does not match its row: ${problems.join('; ')}.`)];
}

interface CallState {
  token: string | null;
  tool: string | null;
  permission: boolean;
  denied: boolean;
  sandboxStarted: boolean;
  completed: boolean;
}

/** call-order: the §5.4 order inside each tool call, tracked per run and step. */
export class CallOrder {
  private readonly open = new Map<string, CallState | null>();

  check(row: LedgerRow, at: At): Finding[] {
    const type = row.type ?? '';
    const key = `${row.runId}\u0000${row.stepKnown ? row.stepId : ''}`;
    const payload = effectivePayload(row);
    const p = isObj(payload) ? payload : {};
    const tool = payloadTool(p);
    if (type === 'tool_call_requested') {
      this.open.set(key, { token: row.causalToken, tool, permission: false, denied: false, sandboxStarted: false, completed: false });
      return [];
    }
    const call = this.open.get(key) ?? null;
    if (type === 'cost_recorded') {
      this.open.set(key, null);
      const toolCost = p.category === 'tool' || p.category === 'tool_shadow';
      if (call && toolCost && (call.tool === null || p.name === undefined || p.name === call.tool) && !call.completed) {
        return [finding('call-order', at, `Tool cost for ${call.tool ?? 'the call'} is recorded before its tool_call_completed.`)];
      }
      return [];
    }
    if (!CALL_MEMBER_TYPES.has(type)) {
      this.open.set(key, null);
      return [];
    }
    const same = call && (row.causalToken === null || call.token === null || row.causalToken === call.token) && (tool === null || call.tool === null || tool === call.tool);
    if (!call || !same) {
      return [finding('call-order', at, `${type}${tool ? ` for ${tool}` : ''} has no preceding tool_call_requested for the same call.`)];
    }
    call.tool ??= tool;
    return memberOrder(call, type, p, at);
  }
}

function memberOrder(call: CallState, type: string, p: Record<string, unknown>, at: At): Finding[] {
  const out: Finding[] = [];
  if (call.denied && (type === 'sandbox_started' || type === 'sandbox_completed' || type === 'tool_call_completed')) {
    out.push(finding('call-order', at, `${type} after the call's permission was denied; a denied call stops.`));
  }
  if (type === 'tool_call_failed' && p.phase === 'input_validation' && call.permission) {
    out.push(finding('call-order', at, 'Input validation failed after the permission decision; validation comes first.'));
  }
  if (type === 'sandbox_completed' && !call.sandboxStarted) out.push(finding('call-order', at, 'sandbox_completed without a preceding sandbox_started.'));
  if (type === 'tool_permission_decided') {
    call.permission = true;
    if (p.allowed === false) call.denied = true;
  }
  if (type === 'sandbox_started') call.sandboxStarted = true;
  if (type === 'tool_call_completed') call.completed = true;
  return out;
}
