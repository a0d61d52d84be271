// Per-tool scenario definitions for scripts/corpus/generate.mjs.
//
// A case = one scratch HOME + one project folder, one or more CLI invocations ("steps"), each step
// preceded by setting the mock's scenario. After the steps, `collect` lists which files the tool wrote
// are kept (paths relative to the scratch HOME -> relative to the case's output folder).

import { readdirSync, statSync, existsSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

export function walk(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out.sort();
}

export const MOCK_SCRIPTS = {
  text: 'one text answer ("Hello! This is a scripted answer from the loopback mock model.")',
  'shell-ok': 'request 1: shell tool call `echo hello` (with a short text / reasoning summary first); request 2 (1 tool result present): text answer quoting the output',
  'shell-fail': 'request 1: shell tool call `ls /nonexistent` (the real command exits 2); request 2: text answer saying it failed',
  subagent: 'main request 1: `Agent` tool call (subagent_type general-purpose, prompt tagged SUBAGENT-TASK); subagent request 1: Bash `echo hello`; subagent request 2: text "Report: ..."; main requests after the tool result: "still running" text until the report is in the request, then the final text',
  'resume-1': 'text answer stating a code word (PLUM)',
  'resume-2': 'text answer recalling the code word (only if the earlier turn is in the request, which shows the resume carried the history)',
  'fork-2': 'text answer recalling the code word in the fork (only if the origin\'s turn is in the request, which shows the fork carried the history)',
};

// ---------------------------------------------------------------- codex
export const codex = {
  key: 'codex',
  setup({ home, mockUrl }) {
    mkdirSync(path.join(home, '.codex'), { recursive: true });
    writeFileSync(path.join(home, '.codex', 'config.toml'), codexConfig(mockUrl));
  },
  env: () => ({ MOCK_API_KEY: 'dummy-key-for-loopback-mock', CODEX_HOME: undefined, RUST_LOG: 'error' }),
  bin: (toolsDir) => path.join(toolsDir, 'node_modules', '.bin', 'codex'),
  display: 'codex',
  cases: [
    { id: 'text', title: 'text answer', steps: [{ mock: 'text', stdout: 'exec.jsonl', args: () => ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', 'Say hello.'] }] },
    { id: 'shell-ok', title: 'one shell call that succeeds, then an answer', steps: [{ mock: 'shell-ok', stdout: 'exec.jsonl', args: () => ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', 'Run echo hello and tell me what it printed.'] }] },
    { id: 'shell-fail', title: 'one shell call that exits non-zero, then an answer', steps: [{ mock: 'shell-fail', stdout: 'exec.jsonl', args: () => ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', 'List the folder /nonexistent.'] }] },
    {
      id: 'resume', title: 'a session, then `codex exec resume --last` continuing it',
      steps: [
        { mock: 'resume-1', stdout: 'exec-1.jsonl', args: () => ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', 'Remember the code word PLUM.'] },
        { mock: 'resume-2', stdout: 'exec-2.jsonl', args: () => ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', 'resume', '--last', 'What was the code word?'] },
      ],
    },
    {
      id: 'fork', title: 'a session, then `codex exec fork <thread_id>` continuing a copy of it as a new session',
      steps: [
        { mock: 'resume-1', stdout: 'exec-1.jsonl', args: () => ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', 'Remember the code word PLUM.'] },
        { mock: 'fork-2', stdout: 'exec-2.jsonl', args: (prev) => ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', 'fork', codexThreadId(prev[0].stdout), 'What was the code word?'], argsDisplay: ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', 'fork', '<thread_id of step 1>', 'What was the code word?'] },
      ],
    },
  ],
  collect({ home }) {
    const root = path.join(home, '.codex', 'sessions');
    return walk(root).filter((f) => /rollout-.*\.jsonl$/.test(f)).map((f) => ({ src: f, rel: path.join('sessions', path.relative(root, f)) }));
  },
  notes: [
    'Rollout (`sessions/YYYY/MM/DD/rollout-<ts>-<thread_id>.jsonl`): every line is `{timestamp, ordinal, type, payload}`. Types seen: `session_meta` (once per file, also after a resume: the resumed turn is appended to the same file), `turn_context`, `world_state`, `response_item` (payload.type `message` role developer/user/assistant, `reasoning`, `function_call` {name `exec_command`, arguments JSON string, call_id}, `function_call_output` {call_id, output text with "Process exited with code N"}), `event_msg` (payload.type `task_started`, `thread_settings_applied`, `item_completed`, `token_count`, `task_complete`), `token_usage_record` (per model response, `response_id` + `usage`).',
    'Totals: `event_msg`/`token_count` carries `info.total_token_usage` (running sum for the thread) and `info.last_token_usage` (the last response); `token_usage_record` has per-response usage. `task_complete` has `last_agent_message`, `duration_ms`.',
    'Fork (`codex exec fork <thread_id>`): a new rollout with a new id whose `session_meta` has `forked_from_id`, `forked_from_ordinal_exclusive` and `history_base` {thread_id, end_ordinal_exclusive, end_byte_offset (of the unscrubbed file)}; the origin\'s lines are not copied, the fork\'s ordinals go on from `forked_from_ordinal_exclusive`, and its running totals (`total_token_usage`, `thread_token_usage`) go on from the origin\'s.',
    '`codex exec --json` stdout: `thread.started` {thread_id}, `turn.started`, `item.started` / `item.completed` {item: {id `item_N`, type `reasoning` | `command_execution` (command, aggregated_output, exit_code, status `completed`/`failed`) | `agent_message`}}, `turn.completed` {usage: input_tokens, cached_input_tokens, output_tokens, reasoning_output_tokens} — usage is for the turn, not the thread.',
  ],
  configNote: (mockUrl) => '`$HOME/.codex/config.toml` written by the generator:\n\n```toml\n' + codexConfig(mockUrl || 'http://127.0.0.1:<port>') + '```\n',
};

function codexThreadId(stdout) {
  for (const line of stdout.split('\n')) {
    try {
      const o = JSON.parse(line);
      if (o.type === 'thread.started' && o.thread_id) return o.thread_id;
    } catch { /* not json */ }
  }
  throw new Error('no thread_id in the first run\'s exec --json');
}

function codexConfig(mockUrl) {
  return [
    'model = "gpt-5.5"', // a model with metadata bundled in the binary (gpt-5-codex triggers a "Model metadata not found" error item)
    'model_provider = "mock"',
    'check_for_update_on_startup = false',
    '',
    '[model_providers.mock]',
    'name = "mock"',
    `base_url = "${mockUrl}/v1"`,
    'wire_api = "responses"',
    'env_key = "MOCK_API_KEY"',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[feedback]',
    'enabled = false',
    '',
  ].join('\n');
}

// ---------------------------------------------------------------- claude code
// --tools and --disable-slash-commands keep the transcripts small (the tool schemas and the skill listing are
// copied into every transcript's prompt_snapshot / api-request-shape records).
const claudeCommon = ['--output-format', 'stream-json', '--verbose', '--tools', 'Bash,Agent', '--disable-slash-commands', '--allowedTools', 'Bash Agent'];
export const claudeCode = {
  key: 'claude-code',
  setup() {},
  env: ({ mockUrl }) => ({
    ANTHROPIC_BASE_URL: mockUrl,
    ANTHROPIC_API_KEY: 'dummy-key-for-loopback-mock',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  }),
  bin: (toolsDir) => path.join(toolsDir, 'node_modules', '.bin', 'claude'),
  display: 'claude',
  cases: [
    { id: 'text', title: 'text answer', steps: [{ mock: 'text', stdout: 'stream-json.jsonl', args: () => ['-p', 'Say hello.', ...claudeCommon] }] },
    { id: 'shell-ok', title: 'one Bash call that succeeds, then an answer', steps: [{ mock: 'shell-ok', stdout: 'stream-json.jsonl', args: () => ['-p', 'Run echo hello and tell me what it printed.', ...claudeCommon] }] },
    { id: 'shell-fail', title: 'one Bash call that exits non-zero (is_error tool_result), then an answer', steps: [{ mock: 'shell-fail', stdout: 'stream-json.jsonl', args: () => ['-p', 'List the folder /nonexistent.', ...claudeCommon] }] },
    { id: 'subagent', title: 'an Agent (subagent) call; the subagent runs Bash and reports back', steps: [{ mock: 'subagent', stdout: 'stream-json.jsonl', args: () => ['-p', 'Use a subagent to run echo hello.', ...claudeCommon] }] },
    {
      id: 'resume', title: 'a session, then `claude -p --resume <session_id>` continuing it',
      steps: [
        { mock: 'resume-1', stdout: 'stream-json-1.jsonl', args: () => ['-p', 'Remember the code word PLUM.', ...claudeCommon] },
        { mock: 'resume-2', stdout: 'stream-json-2.jsonl', args: (prev) => ['-p', 'What was the code word?', '--resume', claudeSessionId(prev[0].stdout), ...claudeCommon], argsDisplay: ['-p', 'What was the code word?', '--resume', '<session_id of step 1>', ...claudeCommon] },
      ],
    },
    {
      id: 'fork', title: 'a session, then `claude -p --resume <session_id> --fork-session` continuing a copy of it as a new session',
      steps: [
        { mock: 'resume-1', stdout: 'stream-json-1.jsonl', args: () => ['-p', 'Remember the code word PLUM.', ...claudeCommon] },
        { mock: 'fork-2', stdout: 'stream-json-2.jsonl', args: (prev) => ['-p', 'What was the code word?', '--resume', claudeSessionId(prev[0].stdout), '--fork-session', ...claudeCommon], argsDisplay: ['-p', 'What was the code word?', '--resume', '<session_id of step 1>', '--fork-session', ...claudeCommon] },
      ],
    },
  ],
  collect({ home }) {
    const root = path.join(home, '.claude', 'projects');
    return walk(root).map((f) => ({ src: f, rel: path.join('projects', path.relative(root, f)) }));
  },
  notes: [
    'Transcript (`projects/<dash-encoded cwd>/<session_id>.jsonl`): conversation lines `user` / `assistant` / `attachment` carry `uuid` + `parentUuid` (a chain; the first user line has `parentUuid: null`), `isSidechain`, `sessionId`, `timestamp`, `cwd`, `version`. One API response with text + tool_use is written as TWO `assistant` lines with the same `message.id` and `requestId`, one content block each, each repeating the same `message.usage`, so summing usage per line double-counts. Bookkeeping lines without uuid: `queue-operation`, `atis-latch`, `api-request-shape`, `api-request-blob`, `api-request`, `tools-used`, `last-prompt`, `cost-state` (session totals: totalCostUSD, modelUsage), `mode`.',
    'Subagent: the main transcript has the `Agent` tool_use and a tool_result "Async agent launched successfully" (the agent runs in the background), later a `user` line with a `<task-notification>` text. The subagent\'s own lines are in `<session_id>/subagents/agent-<agentId>.jsonl` (`isSidechain: true`, `agentId` on every line, its first user line has `parentUuid: null`) with `agent-<agentId>.meta.json` (`toolUseId` links back to the parent tool_use id).',
    'Fork (`--resume <id> --fork-session`): a new transcript with a new `sessionId`; after its own `mode`/`atis-latch`/`queue-operation` lines it copies the origin\'s conversation lines (same uuid, parentUuid, timestamp; its own sessionId; copied `assistant` lines add `requestSessionId` = the origin\'s id and repeat its usage), then its own lines. Its `cost-state` (same `startTime`) includes the origin\'s tokens and cost; its stream-json prints only the new run.',
    'stream-json stdout: `system`/`init` (session_id, tools, model), `assistant` / `user` lines (`parent_tool_use_id` is the Agent tool_use id for subagent lines, which also have `agent_id`), `system` subtypes `task_started`/`task_progress`/`task_updated`/`task_notification`/`background_tasks_changed`, and a final `result` (subtype `success`, `usage` = the run\'s totals, `modelUsage`, `total_cost_usd`, `num_turns`; note `type` is not the first key). With a background subagent there are two `system/init` and two `result` lines in one stdout (result_index 0, 1). `--resume` keeps the same session_id and appends to the same transcript file.',
  ],
  configNote: () => 'No config file; environment only (see above). Run as root, so `--dangerously-skip-permissions` is refused by the CLI; `--allowedTools "Bash Agent"` is used instead. `--tools Bash,Agent` and `--disable-slash-commands` keep the transcripts small (the full default tool set and the skill listing are otherwise copied into every transcript, ~140 KB each).\n',
};

function claudeSessionId(stdout) {
  for (const line of stdout.split('\n')) {
    try {
      const o = JSON.parse(line);
      if (o.session_id) return o.session_id;
    } catch { /* not json */ }
  }
  throw new Error('no session_id in the first run\'s stream-json');
}

// ---------------------------------------------------------------- gemini cli
const GEMINI_SETTINGS = {
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
};
const geminiCommon = ['--yolo', '-m', 'gemini-2.5-pro'];
export const geminiCli = {
  key: 'gemini-cli',
  setup({ home }) {
    mkdirSync(path.join(home, '.gemini'), { recursive: true });
    writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify(GEMINI_SETTINGS, null, 2) + '\n');
  },
  env: ({ mockUrl }) => ({ GEMINI_API_KEY: 'dummy-key-for-loopback-mock', GOOGLE_GEMINI_BASE_URL: mockUrl }),
  bin: (toolsDir) => path.join(toolsDir, 'node_modules', '.bin', 'gemini'),
  display: 'gemini',
  cases: [
    { id: 'text', title: 'text answer, `--output-format json`', steps: [{ mock: 'text', stdout: 'output.json', args: () => ['-p', 'Say hello.', '--output-format', 'json', ...geminiCommon] }] },
    { id: 'shell-ok', title: 'one run_shell_command call that succeeds, then an answer', steps: [{ mock: 'shell-ok', stdout: 'stream-json.jsonl', args: () => ['-p', 'Run echo hello and tell me what it printed.', '--output-format', 'stream-json', ...geminiCommon] }] },
    { id: 'shell-fail', title: 'one run_shell_command call that exits non-zero, then an answer', steps: [{ mock: 'shell-fail', stdout: 'stream-json.jsonl', args: () => ['-p', 'List the folder /nonexistent.', '--output-format', 'stream-json', ...geminiCommon] }] },
    {
      id: 'resume', title: 'a session, then `gemini --resume latest` continuing it',
      steps: [
        { mock: 'resume-1', stdout: 'stream-json-1.jsonl', args: () => ['-p', 'Remember the code word PLUM.', '--output-format', 'stream-json', ...geminiCommon] },
        { mock: 'resume-2', stdout: 'stream-json-2.jsonl', args: () => ['-p', 'What was the code word?', '--resume', 'latest', '--output-format', 'stream-json', ...geminiCommon] },
      ],
    },
  ],
  collect({ home }) {
    const root = path.join(home, '.gemini', 'tmp');
    return walk(root).filter((f) => /\/chats\//.test(f) || /logs\.json$/.test(f)).map((f) => ({ src: f, rel: path.join('tmp', path.relative(root, f)) }));
  },
  notes: [
    'Chat recording (`tmp/<project>/chats/session-<date>-<short id>.jsonl`): line 1 is a header `{sessionId, projectHash, startTime, lastUpdated, kind: "main"}`; message lines `{id, timestamp, type: "user" | "gemini", content, ...}` (gemini lines have `tokens` {input, output, cached, thoughts, tool, total}, `model`, and `toolCalls` [{id, name, args, result[{functionResponse}], status, resultDisplay}]); `{"$set": {...}}` lines patch the session (`lastUpdated`, or the whole `messages` array). A `gemini` message is written again under the SAME id once its tool result is in (second copy has `toolCalls`); readers must keep the last version per id. The functionResponse of the tool result is also recorded as a `user` message. On `--resume` the file gets a second header line and a `$set.messages` with the full history.',
    'No fork: 0.61.0 has `--resume` (and `--session-file`, `--session-id`) but no command or flag that forks a session, so there is no `fork` case.',
    'A failing shell command is NOT a failed tool call: `tool_result.status` is `success`; the exit code is only inside the output text (`Exit Code: 2`).',
    'stream-json stdout: `init` {session_id, model}, `message` (role user, or assistant with `delta: true` chunks to be concatenated), `tool_use` {tool_name, tool_id, parameters}, `tool_result` {tool_id, status, output}, `result` {status, stats: total_tokens, input_tokens, output_tokens, cached, tool_calls, models{...}}. `--output-format json` writes one pretty-printed object {session_id, response, stats.models.<model>.tokens / api / roles, stats.tools, stats.files}.',
  ],
  configNote: () => '`$HOME/.gemini/settings.json` written by the generator:\n\n```json\n' + JSON.stringify(GEMINI_SETTINGS, null, 2) + '\n```\n\n(`security.auth.selectedType` must be set: with `GOOGLE_GEMINI_BASE_URL` alone the CLI picks the "gateway" auth type, which non-interactive mode rejects with "Invalid auth method selected.")\n',
};

export const TOOLS = [codex, claudeCode, geminiCli];
