// Harness ledger run (the harness-ledger specification, harness-ledger.md) in plato's enveloped JSONL form `{"v":1,"record":…}`.
// Eight turns, one tool call each, replaying cleanly through the run state machine (§6.2): a read, a read that
// fails (tool_failed), a read, `npm test` and the edit each approved by the human, `npm test` again, a
// `git push` the human denies (approval_denied), then the final answer and run_finished.
import { BASE_MS, Clock, Json, SampleFile, SeededIds, jsonl, sortKeysDeep, sortedJson } from './common';
import * as S from './story';

const RUN_ID = `run_${BASE_MS}_31337_0`;
const MODEL = '~anthropic/claude-sonnet-4.5';
const TOKEN_BUDGET = 4000;
const SYSTEM = `${S.SYSTEM_PROMPT} Use at most one tool call in a response. After a tool result, answer the user directly or request exactly one next tool call.`;

const TOOL_SCHEMAS = [
  { name: 'file_read', description: 'Read a UTF-8 text file inside the current workspace.', input_schema: { additionalProperties: false, properties: { path: { description: 'Relative path inside the current workspace.', type: 'string' } }, required: ['path'], type: 'object' } },
  { name: 'file_edit', description: 'Replace a workspace file with full proposed UTF-8 content after approval.', input_schema: { additionalProperties: false, properties: { content: { description: 'UTF-8 content to write.', type: 'string' }, path: { description: 'Relative path inside the current workspace.', type: 'string' } }, required: ['path', 'content'], type: 'object' } },
  { name: 'shell_exec', description: 'Run one approved shell command from the workspace root.', input_schema: { additionalProperties: false, properties: { command: { description: 'Shell command to run from the workspace root.', type: 'string' } }, required: ['command'], type: 'object' } },
];

/** How a proposed call ends. */
type Outcome =
  | { kind: 'finished'; summary: string; data: Json; approval: boolean; runMs: number }
  | { kind: 'failed'; reason: string }
  | { kind: 'denied'; reason: string };

interface Step {
  thought: string;
  tool: string;
  effect: 'read_only' | 'workspace_write' | 'external_side_effect';
  input: Json;
  outcome: Outcome;
  latency: number;
}

const shellData = (command: string, exitCode: number, stdout: string, ms: number): Json => ({
  command, cwd: S.CWD, duration_ms: ms, exit_code: exitCode, stderr: '', stderr_truncated: false,
  stdout, stdout_truncated: false, timed_out: false,
});

const STEPS: Step[] = [
  { thought: S.THOUGHTS.readTest, tool: 'file.read', effect: 'read_only', input: { path: S.TEST_PATH }, latency: 1730, outcome: { kind: 'finished', approval: false, runMs: 1, summary: `read ${S.byteLength(S.TEST_SOURCE)} bytes from ${S.TEST_PATH}`, data: { bytes: S.byteLength(S.TEST_SOURCE), content: S.TEST_SOURCE, path: S.TEST_PATH, truncated: false } } },
  { thought: S.THOUGHTS.readMissing, tool: 'file.read', effect: 'read_only', input: { path: S.MISSING_PATH }, latency: 1480, outcome: { kind: 'failed', reason: 'io error: No such file or directory (os error 2)' } },
  { thought: S.THOUGHTS.readSource, tool: 'file.read', effect: 'read_only', input: { path: S.SRC_PATH }, latency: 1290, outcome: { kind: 'finished', approval: false, runMs: 1, summary: `read ${S.byteLength(S.SRC_BEFORE)} bytes from ${S.SRC_PATH}`, data: { bytes: S.byteLength(S.SRC_BEFORE), content: S.SRC_BEFORE, path: S.SRC_PATH, truncated: false } } },
  { thought: S.THOUGHTS.runTests, tool: 'shell.exec', effect: 'external_side_effect', input: { command: S.TEST_COMMAND }, latency: 1610, outcome: { kind: 'finished', approval: true, runMs: 912, summary: 'shell.exec exited 1 in 912ms', data: shellData(S.TEST_COMMAND, 1, S.TEST_OUTPUT_FAIL, 912) } },
  { thought: S.THOUGHTS.edit, tool: 'file.edit', effect: 'workspace_write', input: { content: S.SRC_AFTER, path: S.SRC_PATH }, latency: 3520, outcome: { kind: 'finished', approval: true, runMs: 2, summary: `wrote ${S.byteLength(S.SRC_AFTER)} bytes to ${S.SRC_PATH}`, data: { bytes: S.byteLength(S.SRC_AFTER), path: S.SRC_PATH } } },
  { thought: S.THOUGHTS.rerun, tool: 'shell.exec', effect: 'external_side_effect', input: { command: S.TEST_COMMAND }, latency: 1180, outcome: { kind: 'finished', approval: true, runMs: 874, summary: 'shell.exec exited 0 in 874ms', data: shellData(S.TEST_COMMAND, 0, S.TEST_OUTPUT_PASS, 874) } },
  { thought: S.THOUGHTS.push, tool: 'shell.exec', effect: 'external_side_effect', input: { command: S.PUSH_COMMAND }, latency: 1390, outcome: { kind: 'denied', reason: 'approval denied by stdin' } },
];

const POLICY_REASON: Record<string, string> = {
  'shell.exec': 'shell.exec requires explicit local approval',
  'file.edit': 'mutable or networked tool call requires explicit policy allowance',
};

/** Writes records with contiguous seq from 0 and a host clock that only moves forward. */
class Recorder {
  readonly lines: string[] = [];
  readonly clock = new Clock(BASE_MS);
  private seq = 0;

  record(event: Record<string, Json>, delta: number): void {
    const rec = { seq: this.seq++, occurred_at_ms: this.clock.tick(delta), event };
    this.lines.push(JSON.stringify({ v: 1, record: rec }));
  }
}

/** The harness-ledger sample: `harness-ledger/<run_id>.jsonl`. */
export function generateHarness(): SampleFile[] {
  const ids = new SeededIds('harness');
  const r = new Recorder();
  const messages: Json[] = [{ role: 'user', content: [{ type: 'text', text: S.PROMPT }] }];
  r.record({ event: 'run_started', run_id: RUN_ID, agent_id: 'plato' }, 0);
  let step = 0;
  STEPS.forEach((s, i) => {
    const turnId = `turn_${i + 1}`;
    modelTurn(r, turnId, step++, messages, s.latency, s.thought, [{ tool: s.tool, input: sortKeysDeep(s.input) }]);
    const callId = `call_${ids.base62(24)}`;
    const resultText = toolPath(r, turnId, callId, s);
    messages.push({ role: 'assistant', content: [{ type: 'text', text: s.thought }, { type: 'tool_use', id: callId, name: s.tool, input: sortKeysDeep(s.input) }] });
    messages.push({ role: 'tool', content: [{ type: 'tool_result', tool_call_id: callId, content: resultText, is_error: s.outcome.kind !== 'finished' }] });
  });
  modelTurn(r, `turn_${STEPS.length + 1}`, step, messages, 2480, S.FINAL_ANSWER, []);
  r.record({ event: 'run_finished', run_id: RUN_ID }, 1);
  return [{ path: `harness-ledger/${RUN_ID}.jsonl`, data: jsonl(r.lines) }];
}

/** context_built → model_requested → model_responded for one turn. */
function modelTurn(r: Recorder, turnId: string, step: number, messages: Json[], latency: number, text: string, proposed: Json[]): void {
  const fragments = [
    fragment('system_contract', 'system_prompt', SYSTEM),
    fragment('recent_turns', 'model.messages', JSON.stringify(messages)),
    fragment('tool_schemas', 'model.tools', JSON.stringify(TOOL_SCHEMAS)),
  ];
  const used = fragments.reduce((n, f) => n + f.estimated_tokens, 0);
  if (used > TOKEN_BUDGET) throw new Error(`harness sample: context of ${turnId} uses ${used} tokens, over the budget`);
  r.record({ event: 'context_built', run_id: RUN_ID, turn_id: turnId, context: { token_budget: TOKEN_BUDGET, fragments } }, 2);
  r.record({ event: 'model_requested', run_id: RUN_ID, turn_id: turnId, step, model: MODEL }, 1);
  const inputTokens = 600 + used;
  r.record({
    event: 'model_responded', run_id: RUN_ID, turn_id: turnId, step,
    output: { role: 'assistant', content: text }, proposed_calls: proposed,
    usage: { input_tokens: inputTokens, output_tokens: 12 + Math.round(text.length / 4) },
  }, latency);
}

/** plato estimates one token per four characters, plus one. */
function fragment(lane: string, source: string, content: string): { lane: string; source: string; content: string; estimated_tokens: number } {
  return { lane, source, content, estimated_tokens: Math.floor([...content].length / 4) + 1 };
}

/** tool_call_proposed → policy_evaluated → [approval] → tool_started → finished | failed; returns the tool message text. */
function toolPath(r: Recorder, turnId: string, callId: string, s: Step): string {
  r.record({ event: 'tool_call_proposed', run_id: RUN_ID, turn_id: turnId, call: { id: callId, tool: s.tool, effect: s.effect, input: sortKeysDeep(s.input) } }, 1);
  const needsApproval = s.outcome.kind === 'denied' || (s.outcome.kind === 'finished' && s.outcome.approval);
  const decision: Json = needsApproval ? { decision: 'require_approval', reason: POLICY_REASON[s.tool] } : { decision: 'allow' };
  r.record({ event: 'policy_evaluated', run_id: RUN_ID, call_id: callId, decision }, 0);
  if (s.outcome.kind === 'denied') {
    r.record({ event: 'approval_denied', run_id: RUN_ID, call_id: callId, actor_id: 'stdin', reason: s.outcome.reason }, 6240);
    return s.outcome.reason;
  }
  if (needsApproval) r.record({ event: 'approval_granted', run_id: RUN_ID, call_id: callId, actor_id: 'stdin' }, 4870);
  r.record({ event: 'tool_started', run_id: RUN_ID, call_id: callId }, 1);
  if (s.outcome.kind === 'failed') {
    r.record({ event: 'tool_failed', run_id: RUN_ID, call_id: callId, reason: s.outcome.reason }, 1);
    return s.outcome.reason;
  }
  const data = sortKeysDeep(s.outcome.data);
  r.record({ event: 'tool_finished', run_id: RUN_ID, result: { call_id: callId, summary: s.outcome.summary, data, artifacts: [], visibility: 'both' } }, s.outcome.runMs);
  return sortedJson(data);
}
