// murmur session in `trace.capture: content` mode (the murmur specification, murmur.md): `trace.jsonl` plus `blobs/<sha256>`.
// Two tasks in one session; the first has eight agent-loop turns (read, failing read, read, shell red, edit,
// shell green, a push refused by the gatekeeper hook, answer), the second one turn.
import { BASE_MS, Clock, Json, SampleFile, SeededIds, jsonl, sha256Hex, sortKeysDeep, sortedJson } from './common';
import * as S from './story';

const MODEL = 'claude-sonnet-4-5';
const WIRE_MODEL = 'claude-sonnet-4-5-20250929';
const WIRE_SYSTEM = `[Capsule] you are test-fixer.\n${S.SYSTEM_PROMPT}`;

const TOOLS: Json = [
  {
    name: 'read_file',
    description: 'Read a UTF-8 text file inside the workdir.',
    input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
  {
    name: 'edit_file',
    description: 'Replace old_text with new_text in one file inside the workdir.',
    input_schema: {
      type: 'object',
      properties: { path: { type: 'string' }, old_text: { type: 'string' }, new_text: { type: 'string' } },
      required: ['path', 'old_text', 'new_text'],
    },
  },
  {
    name: 'shell',
    description: 'Run one shell command in the workdir.',
    input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  },
];

/** What the tool did with one agent-loop turn's call. */
type Effect =
  | { kind: 'tool_call'; status: 'ok' | 'error'; durationMs: number; stateEffect?: string }
  | { kind: 'shell'; exitCode: number; durationMs: number }
  | { kind: 'denied'; hookName: string };

interface Turn {
  thought: string;
  call?: { tool: string; input: Json; result: string; isError: boolean; effect: Effect };
  /** Model latency before the inference line, ms. */
  latency: number;
}

const TASK1: Turn[] = [
  { thought: S.THOUGHTS.readTest, latency: 1840, call: { tool: 'read_file', input: { path: S.TEST_PATH }, result: S.TEST_SOURCE, isError: false, effect: { kind: 'tool_call', status: 'ok', durationMs: 3, stateEffect: 'read' } } },
  { thought: S.THOUGHTS.readMissing, latency: 1520, call: { tool: 'read_file', input: { path: S.MISSING_PATH }, result: `error: no such file or directory: ${S.MISSING_PATH}`, isError: true, effect: { kind: 'tool_call', status: 'error', durationMs: 1, stateEffect: 'read' } } },
  { thought: S.THOUGHTS.readSource, latency: 1310, call: { tool: 'read_file', input: { path: S.SRC_PATH }, result: S.SRC_BEFORE, isError: false, effect: { kind: 'tool_call', status: 'ok', durationMs: 2, stateEffect: 'read' } } },
  { thought: S.THOUGHTS.runTests, latency: 1690, call: { tool: 'shell', input: { command: S.TEST_COMMAND }, result: `${S.TEST_OUTPUT_FAIL}\n[exit code 1]`, isError: true, effect: { kind: 'shell', exitCode: 1, durationMs: 912 } } },
  { thought: S.THOUGHTS.edit, latency: 3410, call: { tool: 'edit_file', input: S.EDIT_INPUT, result: `replaced 1 occurrence in ${S.SRC_PATH}`, isError: false, effect: { kind: 'tool_call', status: 'ok', durationMs: 4, stateEffect: 'write' } } },
  { thought: S.THOUGHTS.rerun, latency: 1210, call: { tool: 'shell', input: { command: S.TEST_COMMAND }, result: `${S.TEST_OUTPUT_PASS}\n[exit code 0]`, isError: false, effect: { kind: 'shell', exitCode: 0, durationMs: 874 } } },
  { thought: S.THOUGHTS.push, latency: 1460, call: { tool: 'shell', input: { command: S.PUSH_COMMAND }, result: `denied by hook gatekeeper: ${S.PUSH_DENIAL}`, isError: true, effect: { kind: 'denied', hookName: 'gatekeeper' } } },
  { thought: S.FINAL_ANSWER, latency: 2650 },
];

/** Accumulates the session's lines and blobs, minting ids and keeping the cursor rules of murmur.md §3.2. */
class SessionWriter {
  readonly lines: string[] = [];
  readonly blobs = new Map<string, string>();
  readonly ids = new SeededIds('murmur');
  readonly sessionId = `ses_${this.ids.hex(32)}`;
  readonly clock = new Clock(BASE_MS);
  readonly openedAt = BASE_MS;
  readonly sessionEventId = `evt_${this.ids.uuid7(BASE_MS)}`;
  readonly messages: Json[] = [];
  readonly messageIds: string[] = [];
  totals = { turns: 0, input: 0, output: 0, toolCalls: 0, shellCalls: 0 };

  /** Writes one line; the common envelope comes first, in serde declaration order. */
  event(type: string, parentId: string | null, fields: Record<string, Json>, eventId?: string, delta = 1): string {
    const ts = this.clock.tick(delta);
    const id = eventId ?? `evt_${this.ids.uuid7(ts)}`;
    const line = { event_type: type, event_id: id, parent_id: parentId, session_id: this.sessionId, timestamp: ts, ...fields };
    this.lines.push(JSON.stringify(line));
    return id;
  }

  /** Stores a blob under the SHA-256 of its exact bytes (never rewritten) and returns the sha. */
  put(text: string): string {
    const sha = sha256Hex(text);
    if (!this.blobs.has(sha)) this.blobs.set(sha, text);
    return sha;
  }

  /** Appends a message to the wire conversation with its entity id. */
  addMessage(message: Json): void {
    this.messages.push(message);
    this.messageIds.push(`msg_${this.ids.hex(32)}`);
  }

  count(kind: 'turns' | 'toolCalls' | 'shellCalls', n = 1): void {
    this.totals[kind] += n;
  }
}

/** The murmur sample: `murmur/<session_id>/trace.jsonl` and its `blobs/`. */
export function generateMurmur(): SampleFile[] {
  const w = new SessionWriter();
  const promptSha = w.put(S.SYSTEM_PROMPT);
  w.event('session_start', null, sessionStartFields(promptSha), w.sessionEventId, 3);
  runTask(w, { id: 'tsk_1', prompt: S.PROMPT, turns: TASK1 });
  runTask(w, { id: 'tsk_2', prompt: S.FOLLOW_UP, turns: [{ thought: S.CHANGELOG_LINE, latency: 1980 }] });
  const end = w.clock.ms + 3;
  w.event('session_end', w.sessionEventId, {
    total_turns: w.totals.turns,
    total_input_tokens: w.totals.input,
    total_output_tokens: w.totals.output,
    total_tool_calls: w.totals.toolCalls,
    total_shell_calls: w.totals.shellCalls,
    duration_ms: end - w.openedAt,
    exit_status: 'ok',
  }, undefined, 3);
  const dir = `murmur/${w.sessionId}`;
  const blobs = [...w.blobs.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([sha, text]) => ({ path: `${dir}/blobs/${sha}`, data: text }));
  return [{ path: `${dir}/trace.jsonl`, data: jsonl(w.lines) }, ...blobs];
}

function sessionStartFields(promptSha: string): Record<string, Json> {
  return {
    capsule_name: 'test-fixer',
    capsule_version: '0.4.2',
    model: MODEL,
    max_turns: 24,
    max_session_tokens: 400000,
    machine_tokens_per_day: null,
    capabilities: ['shell'],
    tools_declared: ['read_file', 'edit_file'],
    containment_declared: 'scoped',
    containment_achieved: 'scoped',
    workdir_exec: false,
    userns_grant: 'profile_confining',
    effective_grants: {
      network_allow: [],
      state_stores: [],
      configured_artifacts: ['test-fixer'],
      preopens: [{ artifact: 'test-fixer', role: 'workdir', scope: null, surface: 'whole-workdir' }],
      interpreter_runtime_grants: ['node: /usr/lib/node_modules (list_dir)'],
      userns_grant: 'profile_confining',
    },
    system_prompt_source: 'manifest',
    system_prompt_sha256: promptSha,
    credential_source: 'env',
    gateways: [],
    tool_refresh: null,
    runtime_artifacts: [],
    resumed_from: null,
    context_id: null,
  };
}

interface TaskSpec {
  id: string;
  prompt: string;
  turns: Turn[];
}

/** One task frame: task_start, its turns and task_end with the counters of that frame. */
function runTask(w: SessionWriter, task: TaskSpec): void {
  const before = { ...w.totals };
  const startMs = w.clock.ms + 2;
  const taskEventId = w.event('task_start', w.sessionEventId, {
    task_id: task.id,
    context_id: 'ctx_1',
    source: 'a2a',
    origin: 'user',
    trust: 'trusted',
    lane: 'user',
    message_parts_bytes: S.byteLength(task.prompt),
  }, undefined, 2);
  w.addMessage({ role: 'user', content: task.prompt });
  task.turns.forEach((turn, index) => runTurn(w, task.id, taskEventId, index, turn));
  const endMs = w.clock.ms + 2;
  w.event('task_end', taskEventId, {
    task_id: task.id,
    exit_status: 'ok',
    duration_ms: endMs - startMs,
    turns: w.totals.turns - before.turns,
    input_tokens: w.totals.input - before.input,
    output_tokens: w.totals.output - before.output,
    tool_calls: w.totals.toolCalls - before.toolCalls,
    shell_calls: w.totals.shellCalls - before.shellCalls,
    reopen_count: 0,
  }, undefined, 2);
}

/** One agent-loop inference (the turn node) and what its tool call produced. */
function runTurn(w: SessionWriter, taskId: string, taskEventId: string, turn: number, spec: Turn): void {
  const content: Json[] = [{ type: 'text', text: spec.thought }];
  const toolUseId = spec.call ? `toolu_01${w.ids.base62(22)}` : null;
  if (spec.call) content.push({ type: 'tool_use', id: toolUseId, name: spec.call.tool, input: spec.call.input });
  const wireBytes = w.messages.reduce<number>((n, m) => n + sortedJson(m).length, 0);
  const inputTokens = 1040 + Math.round(wireBytes / 4);
  const outputTokens = 14 + Math.round(sortedJson(content).length / 4);
  const stop = spec.call ? 'tool_use' : 'end_turn';
  const response = JSON.stringify({
    id: `msg_01${w.ids.base62(22)}`, type: 'message', role: 'assistant', model: WIRE_MODEL, content,
    stop_reason: stop, stop_sequence: null, usage: { input_tokens: inputTokens + 23, output_tokens: outputTokens - 2 },
  });
  const hashes = {
    system_sha: w.put(WIRE_SYSTEM),
    tools_sha: w.put(sortedJson(TOOLS)),
    response_sha: w.put(response),
    message_shas: w.messages.map((m) => w.put(sortedJson(m))),
  };
  const turnId = w.event('inference', taskEventId, {
    turn,
    task_id: taskId,
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    decision: spec.call ? 'tool_call' : 'end_turn',
    stop_reason: spec.call ? 'tool_call' : 'end_turn',
    tool_name: spec.call?.tool ?? null,
    input_tokens_actual: inputTokens + 23,
    output_tokens_actual: outputTokens - 2,
    cached_tokens: turn === 0 ? 0 : 1024,
    message_ids: [...w.messageIds],
    ...hashes,
  }, undefined, spec.latency);
  w.count('turns');
  w.totals.input += inputTokens;
  w.totals.output += outputTokens;
  w.addMessage({ role: 'assistant', content });
  if (!spec.call || !toolUseId) return;
  writeCallEffect(w, taskId, turnId, turn, toolUseId, spec.call);
  const result: Json = { type: 'tool_result', tool_use_id: toolUseId, content: spec.call.result };
  if (spec.call.isError) result.is_error = true;
  w.addMessage({ role: 'user', content: [result] });
}

function writeCallEffect(w: SessionWriter, taskId: string, turnId: string, turn: number, toolUseId: string, call: NonNullable<Turn['call']>): void {
  const e = call.effect;
  if (e.kind === 'tool_call') {
    // serde writes the parsed input Value with sorted keys; input_bytes counts that text.
    const input = sortKeysDeep(call.input);
    const inputText = JSON.stringify(input);
    w.event('tool_call', turnId, {
      turn, task_id: taskId, tool_name: call.tool, tool_call_id: toolUseId, input,
      input_bytes: S.byteLength(inputText), output: call.result, output_bytes: S.byteLength(call.result),
      duration_ms: e.durationMs, status: e.status, ...(e.stateEffect ? { state_effect: e.stateEffect } : {}),
    }, undefined, e.durationMs + 2);
    w.count('toolCalls');
  } else if (e.kind === 'shell') {
    const stdout = call.result.replace(/\n\[exit code \d+\]$/, '');
    w.event('shell', turnId, {
      turn, task_id: taskId, binary: 'npm', command: (call.input as { command: string }).command, exit_code: e.exitCode,
      stdout_bytes: S.byteLength(stdout), stderr_bytes: 0, duration_ms: e.durationMs,
    }, undefined, e.durationMs + 3);
    w.count('shellCalls');
  } else {
    // The gatekeeper hook runs its own (counted) inference under the turn, then refuses the call.
    w.event('inference', turnId, {
      turn, task_id: taskId, input_tokens: 236, output_tokens: 18, decision: 'end_turn', stop_reason: 'end_turn',
      tool_name: null, input_tokens_actual: 241, output_tokens_actual: 18, origin: `hook:${e.hookName}`, model: 'claude-haiku-4-5',
    }, undefined, 640);
    w.count('turns');
    w.totals.input += 236;
    w.totals.output += 18;
    w.event('call_denied', turnId, {
      turn, event: 'on-tool-call', hook_name: e.hookName, target: `shell: ${(call.input as { command: string }).command}`, reason: S.PUSH_DENIAL,
    }, undefined, 2);
  }
}
