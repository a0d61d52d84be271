// AgentLedger evidence directory, Python dialect (the agentledger specification, agentledger.md §4.2, §7.5, §7.6, §8.1):
// `events.jsonl` (sorted keys, ", " separators), `bundle.json` (indent 2, bundle_hash over the canonical bundle)
// and `blobs/sha256/<hex>.json` (pretty JSON named by the SHA-256 of its canonical compact form).
// Attempt 1 reads, fails one read, runs the tests (red), asks the model for a patch and stops for approval of
// the high-risk write; a maintainer approves; attempt 2 writes, re-runs the tests (green) and commits.
import { BASE_MS, SampleFile, SeededIds, sha256Hex } from './common';
import { ToolRisk, decision } from './agentledgerPolicy';
import { PyFloat, PyValue, f, pyCanonical, pyDumps, pyDumpsUnsorted } from './pyjson';
import * as S from './story';

const ROLE = 'TestFixerAgent';
const MODEL = 'claude-sonnet-4-5';
const READ: ToolRisk = { tool: 'repo.read_file', risk: 'low', tier: 'L2', sideEffect: 'none' };
const TESTS: ToolRisk = { tool: 'tests.run', risk: 'low', tier: 'L2', sideEffect: 'none' };
const WRITE: ToolRisk = { tool: 'repo.write_file', risk: 'high', tier: 'L4', sideEffect: 'workspace_write' };
/** Event types whose payload Python stores as a blob (§4.2). */
const BLOB_BACKED = new Set(['tool_call_requested', 'tool_call_completed', 'tool_call_proposed', 'model_call_requested', 'model_call_completed', 'model_call_failed', 'artifact_created']);

type Row = { [key: string]: PyValue };

/** The Python runtime's view of one run: its event rows, blobs, costs and a microsecond clock. */
class PyRun {
  readonly ids = new SeededIds('agentledger');
  readonly runId = `run_${this.ids.hex(16)}`;
  readonly sessionId = `sess_${this.ids.hex(16)}`;
  readonly stepId = `step_${this.ids.hex(16)}`;
  readonly events: Row[] = [];
  readonly blobs = new Map<string, PyValue>();
  readonly costs: Row[] = [];
  private us = BASE_MS * 1000 + 517311;
  attempt = 0;
  lease = '';
  stateVersion = 0;

  /** Advances the clock and returns time.time() as Python would print it. */
  now(deltaUs = 1300): PyFloat {
    this.us += deltaUs;
    return f(this.us / 1e6);
  }

  /** The causal token of the current attempt: JSON text with sorted keys and compact separators. */
  causal(): string {
    return JSON.stringify({ attempt: this.attempt, event_seq: null, lease_token: this.lease, run_id: this.runId, state_version: this.stateVersion, step_id: this.stepId });
  }

  /** Appends an event row; blob-backed types store the payload as a blob and reference it. */
  append(type: string, payload: PyValue, ctx: { step?: boolean; role?: boolean; version?: boolean | number; causal?: boolean } = {}, deltaUs?: number): Row {
    let ref: string;
    let hash: string | null = null;
    if (BLOB_BACKED.has(type)) {
      const hex = sha256Hex(pyCanonical(payload));
      this.blobs.set(hex, payload);
      ref = `blob://sha256/${hex}.json`;
      hash = `sha256:${hex}`;
    } else ref = pyDumps(payload);
    const version = typeof ctx.version === 'number' ? ctx.version : ctx.version ? this.stateVersion : null;
    const row: Row = {
      agent_role: ctx.role ? ROLE : null, causal_token: ctx.causal ? this.causal() : null, event_id: `evt_${this.ids.hex(16)}`,
      payload, payload_hash: hash, payload_ref: ref, run_id: this.runId, seq: this.events.length + 1, session_id: this.sessionId,
      state_version: version, step_id: ctx.step === false ? null : this.stepId, timestamp: this.now(deltaUs), type,
    };
    this.events.push(row);
    return row;
  }

  /** cost_recorded plus the bundle's cost row (written a moment before the event). */
  cost(category: 'model' | 'tool', name: string, amount: number, unit: string, metadata: PyValue): void {
    const costId = `cost_${this.ids.hex(16)}`;
    const createdAt = this.now(900);
    this.costs.push({ amount: f(amount), category, cost_id: costId, created_at: createdAt, metadata_json: pyDumpsUnsorted(metadata), name, run_id: this.runId, session_id: this.sessionId, step_id: this.stepId, unit });
    this.append('cost_recorded', { amount: f(amount), category, cost_id: costId, metadata, name, unit }, {}, 150);
  }
}

/** One tool call as the runtime records it; returns the request and completion rows. */
function toolCall(run: PyRun, t: ToolRisk, args: PyValue, result: { ok: PyValue } | { error: string; errorType: string }): { request: Row; done: Row } {
  const request = run.append('tool_call_requested', { args, tool: t.tool }, { role: true, version: true, causal: true }, 2100);
  const d = decision(t, ROLE, t.risk === 'high' ? 'APPROVED' : 'NONE');
  run.append('tool_permission_decided', { allowed: d.allowed, decision: d.decision, reason: d.reason, tool: t.tool }, { role: true, version: true, causal: true });
  if ('error' in result) {
    const done = run.append('tool_call_failed', { error: result.error, error_type: result.errorType, tool: t.tool }, { role: true, version: true, causal: true }, 700);
    return { request, done };
  }
  const done = run.append('tool_call_completed', result.ok, { role: true, version: true, causal: true }, 2800);
  run.cost('tool', t.tool, 1, 'call', { side_effect: t.sideEffect, sandboxed: false, sandbox_executor: null });
  return { request, done };
}

/** A model call: request and completion blobs plus the token cost. */
function modelCall(run: PyRun, messages: PyValue[], content: string, promptTokens: number, completionTokens: number): void {
  run.append('model_call_requested', { max_tokens: 2048, messages, model: MODEL, provider: 'anthropic' }, { role: true, version: true }, 1800);
  const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
  run.append('model_call_completed', { content, provider: 'anthropic', usage }, { role: true, version: true }, 2_140_000);
  run.cost('model', 'anthropic', usage.total_tokens, 'token', { usage });
}

/** step_claimed + agent_started for a new attempt with a fresh lease. */
function claim(run: PyRun): { leaseUntil: PyFloat; heartbeat: PyFloat } {
  run.attempt += 1;
  run.lease = `lease_${run.ids.hex(16)}`;
  const heartbeat = run.now(800);
  const leaseUntil = f(heartbeat.value + 60);
  run.append('step_claimed', { attempt: run.attempt, lease_token: run.lease, lease_until: leaseUntil, worker_id: 'worker-local' }, {}, 400);
  run.append('agent_started', { agent_role: ROLE, attempt: run.attempt, execution_mode: 'normal', source_run_id: null }, { role: true, version: true });
  return { leaseUntil, heartbeat };
}

/** The agentledger sample: `agentledger/<run_id>/events.jsonl`, `bundle.json`, `blobs/sha256/…`. */
export function generateAgentledger(): SampleFile[] {
  const run = new PyRun();
  const initialState = { repo: S.REPO, task: S.PROMPT };
  const createdAt = run.now(0);
  run.append('run_created', { initial_state: initialState, retry_policy: { max_attempts: 3 } }, { step: false }, 800);
  run.append('step_created', { retry_policy: { max_attempts: 3 }, step_id: run.stepId }, {}, 120);
  claim(run);
  const user = { content: S.PROMPT, role: 'user' };
  modelCall(run, [user], `${S.THOUGHTS.readTest} Then I will open the source and run the tests.`, 1312, 58);
  toolCall(run, READ, { path: S.TEST_PATH }, { ok: { bytes: S.byteLength(S.TEST_SOURCE), content: S.TEST_SOURCE, path: S.TEST_PATH } });
  toolCall(run, READ, { path: S.MISSING_PATH }, { error: `FileNotFoundError: [Errno 2] No such file or directory: '${S.MISSING_PATH}'`, errorType: 'FileNotFoundError' });
  toolCall(run, READ, { path: S.SRC_PATH }, { ok: { bytes: S.byteLength(S.SRC_BEFORE), content: S.SRC_BEFORE, path: S.SRC_PATH } });
  toolCall(run, TESTS, { command: S.TEST_COMMAND }, { ok: { command: S.TEST_COMMAND, exit_code: 1, stdout: S.TEST_OUTPUT_FAIL } });
  const context = `${S.TEST_PATH}:\n${S.TEST_SOURCE}\n${S.SRC_PATH}:\n${S.SRC_BEFORE}\n${S.TEST_COMMAND}:\n${S.TEST_OUTPUT_FAIL}`;
  modelCall(run, [user, { content: context, role: 'user' }], `${S.THOUGHTS.edit} Write ${S.SRC_PATH} with an escapeHtml helper.`, 2264, 231);
  const writeArgs = { content: S.SRC_AFTER, path: S.SRC_PATH };
  const approval = requestApproval(run, writeArgs);
  const second = claim(run);
  const write = toolCall(run, WRITE, writeArgs, { ok: { bytes: S.byteLength(S.SRC_AFTER), path: S.SRC_PATH } });
  toolCall(run, TESTS, { command: S.TEST_COMMAND }, { ok: { command: S.TEST_COMMAND, exit_code: 0, stdout: S.TEST_OUTPUT_PASS } });
  const patch = { fix: { file: S.SRC_PATH, summary: 'escape HTML in formatGreeting' }, tests: { failed: 0, passed: 2 } };
  run.append('state_patch_proposed', { key: 'fix', patch: patch.fix }, { role: true, version: true });
  run.append('state_patch_proposed', { key: 'tests', patch: patch.tests }, { role: true, version: true });
  run.stateVersion = 1;
  run.append('state_committed', { patch, state_version: 1 }, { version: true });
  const finishedAt = run.now(40);
  run.append('step_completed', { step_id: run.stepId }, { version: true }, 30);
  const finalState = { ...initialState, ...patch };
  const ledger = ledgerRow(run, write);
  const bundle = buildBundle(run, { createdAt, finishedAt, finalState, initialState, ledger, approval, heartbeat: second.heartbeat, leaseUntil: second.leaseUntil });
  return writeFiles(run, bundle);
}

/** The refused first try of the write: permission, approval request, wait, human decision, retry. */
function requestApproval(run: PyRun, args: PyValue): Row {
  const request = run.append('tool_call_requested', { args, tool: WRITE.tool }, { role: true, version: true, causal: true }, 2100);
  const requestHash = request.payload_hash as string;
  const d = decision(WRITE, ROLE, 'NONE');
  run.append('tool_permission_decided', { allowed: false, decision: d.decision, reason: d.reason, tool: WRITE.tool }, { role: true, version: true, causal: true });
  const approvalId = `approval_${run.ids.hex(16)}`;
  const approvalKey = `${run.runId}:${run.stepId}:${WRITE.tool}:${requestHash}`;
  const createdAt = run.now(200);
  run.append('tool_approval_required', { approval_id: approvalId, approval_key: approvalKey, decision: d.decision, risk_level: WRITE.risk, tool: WRITE.tool }, { role: true, version: true, causal: true });
  run.append('step_waiting_human', { approval_id: approvalId, reason: `approval required for tool ${WRITE.tool}` });
  const decidedAt = run.now(48_210_000); // the maintainer read the diff for 48 s
  run.append('tool_approval_decided', { approval_id: approvalId, approver: 'maintainer@example.com', reason: 'escaping fix reviewed', status: 'APPROVED', tool: WRITE.tool });
  run.append('step_retry_scheduled', { reason: 'approval_granted', step_id: run.stepId });
  return {
    approval_id: approvalId, approval_key: approvalKey, approved_by: 'maintainer@example.com', created_at: createdAt,
    decision_reason: 'escaping fix reviewed', reason: d.reason, request_hash: requestHash, request_ref: request.payload_ref,
    requested_by: ROLE, risk_level: WRITE.risk, run_id: run.runId, session_id: run.sessionId, status: 'APPROVED',
    step_id: run.stepId, tool_name: WRITE.tool, updated_at: decidedAt,
  };
}

/** The Tool Ledger row of the managed side effect (the approved write). */
function ledgerRow(run: PyRun, write: { request: Row; done: Row }): Row {
  const requestHash = write.request.payload_hash as string;
  return {
    causal_token: write.request.causal_token, created_at: f((write.request.timestamp as PyFloat).value + 0.0004), error_type: null, external_id: null,
    idempotency_key: `${run.runId}:${run.stepId}:${WRITE.tool}:${requestHash}`, ledger_id: `ledger_${run.ids.hex(16)}`,
    request_hash: requestHash, request_ref: write.request.payload_ref, response_hash: write.done.payload_hash, response_ref: write.done.payload_ref,
    run_id: run.runId, session_id: run.sessionId, status: 'SUCCEEDED', step_id: run.stepId, tool_call_id: `toolcall_${run.ids.hex(16)}`,
    tool_name: WRITE.tool, tool_version: 'v1', updated_at: f((write.done.timestamp as PyFloat).value - 0.0002),
  };
}

interface BundleParts {
  createdAt: PyFloat;
  finishedAt: PyFloat;
  finalState: { [key: string]: PyValue };
  initialState: { [key: string]: PyValue };
  ledger: Row;
  approval: Row;
  heartbeat: PyFloat;
  leaseUntil: PyFloat;
}

/** bundle.json (§8.1) with bundle_hash = sha256_json(bundle without bundle_hash). */
function buildBundle(run: PyRun, p: BundleParts): Row {
  const modelTokens = run.costs.filter((c) => c.category === 'model').reduce((n, c) => n + (c.amount as PyFloat).value, 0);
  const toolCalls = run.costs.filter((c) => c.category === 'tool').length;
  const costSummary = { by_category: { 'model:token': f(modelTokens), 'tool:call': f(toolCalls) }, model_tokens: f(modelTokens), tool_calls: f(toolCalls), total_usd: 0 };
  const bundle: Row = {
    approval_requests: [p.approval], artifacts: [], cost_records: run.costs, events: run.events, final_state: p.finalState, media_artifacts: [],
    run: { created_at: p.createdAt, initial_state: p.initialState, run_id: run.runId, session_id: run.sessionId, state_json: pyDumpsUnsorted(p.finalState), state_version: 1, status: 'completed', updated_at: p.finishedAt },
    schema_version: 'agentledger.evidence.v1',
    steps: [{
      attempt: 2, cancelled_at: null, checkpoint_id: `ckpt:${run.runId}:${run.stepId}:2`, created_at: p.createdAt,
      last_error: `approval required for tool ${WRITE.tool}`, last_error_type: 'ApprovalRequired', last_heartbeat_at: p.heartbeat, lease_token: run.lease,
      lease_until: p.leaseUntil, next_wake_condition: null, owner: 'worker-local', retry_policy_json: '{"max_attempts": 3}', run_id: run.runId,
      session_id: run.sessionId, state_version: 1, status: 'completed', step_id: run.stepId, updated_at: p.finishedAt,
    }],
    stream_checkpoints: [],
    summary: {
      approval_count: 1, artifact_count: 0, cost_summary: costSummary, event_count: run.events.length, has_failed_steps: false,
      has_pending_approvals: false, has_pending_verification: false, media_artifact_count: 0, step_count: 1, stream_checkpoint_count: 0, tool_ledger_count: 1,
    },
    tool_ledger: [p.ledger],
  };
  return { ...bundle, bundle_hash: `sha256:${sha256Hex(pyCanonical(bundle))}` };
}

function writeFiles(run: PyRun, bundle: Row): SampleFile[] {
  const dir = `agentledger/${run.runId}`;
  const blobs = [...run.blobs.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([hex, value]) => ({ path: `${dir}/blobs/sha256/${hex}.json`, data: pyDumps(value, { indent: 2 }) }));
  return [
    { path: `${dir}/events.jsonl`, data: run.events.map((e) => `${pyDumps(e)}\n`).join('') },
    { path: `${dir}/bundle.json`, data: `${pyDumps(bundle, { indent: 2 })}\n` },
    ...blobs,
  ];
}
