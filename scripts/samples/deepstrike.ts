// DeepStrike session log (the deepstrike specification, deepstrike.md), SDK dialect as the Python `FileSessionLog` writes it:
// `{"seq":N,"event":{…}}` lines, keys in insertion order, compact separators, flat `llm_completed` with
// JSON-string arguments, results carrying `content.blocks`. One run from `run_started` to `run_terminal`.
import { Json, SampleFile, SeededIds, jsonl } from './common';
import { pyDumpsUnsorted } from './pyjson';
import * as S from './story';

const REPLAY = { protocol: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5' };

interface Call {
  name: string;
  args: Json;
  output: string;
  isError?: boolean;
  errorKind?: string;
  /** Ask the user first; `false` = the user declines. */
  permission?: boolean;
}

interface Turn {
  thought: string;
  call?: Call;
  checkpoint?: number;
}

const TURNS: Turn[] = [
  { thought: S.THOUGHTS.readTest, checkpoint: 2, call: { name: 'read_file', args: { path: S.TEST_PATH }, output: S.TEST_SOURCE } },
  { thought: S.THOUGHTS.readMissing, call: { name: 'read_file', args: { path: S.MISSING_PATH }, output: `file not found: ${S.MISSING_PATH}`, isError: true, errorKind: 'recoverable' } },
  { thought: S.THOUGHTS.readSource, call: { name: 'read_file', args: { path: S.SRC_PATH }, output: S.SRC_BEFORE } },
  { thought: S.THOUGHTS.runTests, call: { name: 'run_command', args: { command: S.TEST_COMMAND }, output: `exit code 1\n${S.TEST_OUTPUT_FAIL}`, permission: true } },
  { thought: S.THOUGHTS.edit, checkpoint: 10, call: { name: 'edit_file', args: { path: S.SRC_PATH, old: S.SRC_BEFORE, new: S.SRC_AFTER }, output: `edited ${S.SRC_PATH} (1 replacement)` } },
  { thought: S.THOUGHTS.rerun, call: { name: 'run_command', args: { command: S.TEST_COMMAND }, output: `exit code 0\n${S.TEST_OUTPUT_PASS}`, permission: true } },
  { thought: S.THOUGHTS.push, call: { name: 'run_command', args: { command: S.PUSH_COMMAND }, output: `permission denied: ${S.PUSH_DENIAL}`, permission: false } },
  { thought: S.FINAL_ANSWER },
];

/** The deepstrike sample: `deepstrike/.sessions/<session_id>.jsonl`. */
export function generateDeepstrike(): SampleFile[] {
  const ids = new SeededIds('deepstrike');
  const sessionId = ids.uuid4();
  const events: Json[] = [];
  const push = (event: Json): void => void events.push(event);
  push({ kind: 'run_started', run_id: ids.uuid4(), goal: S.PROMPT, criteria: ['npm test passes', 'only src/greeting.js changes'], agent_id: 'test-fixer', system_prompt: S.SYSTEM_PROMPT });
  let totalTokens = 0;
  TURNS.forEach((t, i) => {
    const turn = i + 1;
    if (t.checkpoint !== undefined) push({ kind: 'checkpoint_taken', turn, history_len: t.checkpoint });
    const calls = t.call ? [{ id: `toolu_01${ids.base62(22)}`, name: t.call.name, arguments: pyDumpsUnsorted(t.call.args) }] : [];
    const tokenCount = 18 + Math.round(t.thought.length / 4);
    totalTokens += tokenCount + 1650 + 120 * i;
    push({ kind: 'llm_completed', turn, content: t.thought, tool_calls: calls, token_count: tokenCount, provider_replay: REPLAY });
    if (t.call) toolEvents(push, turn, calls[0], t.call);
  });
  push({ kind: 'run_terminal', reason: 'completed', turns_used: TURNS.length, total_tokens: totalTokens });
  const lines = events.map((event, seq) => JSON.stringify({ seq, event }));
  return [{ path: `deepstrike/.sessions/${sessionId}.jsonl`, data: jsonl(lines) }];
}

/** tool_requested, the permission exchange if any, then the result (an error result after a denial). */
function toolEvents(push: (e: Json) => void, turn: number, call: { id: string; name: string; arguments: string }, c: Call): void {
  push({ kind: 'tool_requested', turn, calls: [call] });
  if (c.permission !== undefined) {
    push({ kind: 'permission_requested', turn, tool: c.name, arguments: call.arguments, reason: `${c.name} executes a shell command` });
    push({ kind: 'permission_resolved', turn, approved: c.permission, responder: 'user' });
    if (!c.permission) push({ kind: 'tool_denied', turn, call_id: call.id, tool_name: c.name, reason: `user declined: ${S.PUSH_DENIAL}` });
  }
  const denied = c.permission === false;
  push({
    kind: 'tool_completed', turn,
    results: [{
      call_id: call.id, output: c.output, is_error: denied || (c.isError ?? false), is_fatal: false,
      error_kind: denied ? 'governance_denied' : (c.errorKind ?? null), token_count: denied ? null : 4 + Math.round(c.output.length / 4),
      content: { blocks: [{ type: 'text', text: c.output }] },
    }],
  });
}
