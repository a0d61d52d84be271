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

const EDIT_PROMPT = 'Read README.md, write notes.txt, edit it, then try to read missing.txt.';

export const MOCK_SCRIPTS = {
  text: 'one text answer ("Hello! This is a scripted answer from the loopback mock model.")',
  'shell-ok': 'request 1: shell tool call `echo hello` (with a short text / reasoning summary first); request 2 (1 tool result present): text answer quoting the output',
  'shell-fail': 'request 1: shell tool call `ls /nonexistent` (the real command exits 2); request 2: text answer saying it failed',
  subagent: 'main request 1: a subagent tool call (Anthropic: `Agent` / `Task`; Chat Completions: the tool named `task`, `agent` or `Subagent`, its arguments filled from its schema; agent type general-purpose, or `general` where the tool lists that; prompt tagged SUBAGENT-TASK); subagent request 1: the shell tool, `echo hello`; subagent request 2: text "Report: ..."; main requests after the tool result: "still running" text until the report is in the request, then the final text',
  'resume-1': 'text answer stating a code word (PLUM)',
  'resume-2': 'text answer recalling the code word (only if the earlier turn is in the request, which shows the resume carried the history)',
  edit: 'the CLI\'s own file tools, found by name in the request\'s tool list and their arguments filled from its schema: request 1: read README.md (with a short text); request 2: write notes.txt ("Notes from the corpus run.\\nStatus: draft\\n"); request 3: edit notes.txt ("Status: draft" → "Status: edited"); request 4: read missing.txt (fails: no such file); request 5: text answer. A step whose tool the CLI does not offer is skipped, and an edit refused because the file was not read first is followed by a read of it and the edit again (see the format notes)',
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
    { id: 'edit', title: 'apply_patch adds notes.txt, apply_patch edits it, apply_patch on a missing file fails, then an answer (no read-file tool)', steps: [{ mock: 'edit', stdout: 'exec.jsonl', args: () => ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', EDIT_PROMPT] }] },
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
const claudeEdit = ['--output-format', 'stream-json', '--verbose', '--tools', 'Read,Write,Edit', '--disable-slash-commands', '--allowedTools', 'Read Write Edit'];
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
    { id: 'edit', title: 'Read README.md, Write notes.txt, Edit it, Read a missing file (is_error), then an answer', steps: [{ mock: 'edit', stdout: 'stream-json.jsonl', args: () => ['-p', EDIT_PROMPT, ...claudeEdit] }] },
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
    { id: 'edit', title: 'read_file README.md, write_file notes.txt, replace in it, read_file a missing file (error), then an answer', steps: [{ mock: 'edit', stdout: 'stream-json.jsonl', args: () => ['-p', EDIT_PROMPT, '--output-format', 'stream-json', ...geminiCommon] }] },
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

// ---------------------------------------------------------------- shared: OpenAI Chat Completions tools
// Copilot CLI (BYOK), pi, Qwen Code, opencode and Continue are each pointed at the mock's Chat Completions
// route (`/v1/chat/completions`, streamed SSE). The mock finds their shell / subagent tools by name.
const CHAT_MODEL = 'gpt-4.1';
const jsonLinesOf = (stdout) => stdout.split('\n').flatMap((l) => { try { return [JSON.parse(l)]; } catch { return []; } });
function firstField(stdout, pick, what) {
  for (const o of jsonLinesOf(stdout)) { const v = pick(o); if (v) return v; }
  throw new Error(`no ${what} in the first run's stdout`);
}

// ---------------------------------------------------------------- github copilot cli
const copilotCommon = ['--allow-all-tools', '--output-format', 'json', '--disable-client-telemetry', '--no-auto-update'];
export const copilotCli = {
  key: 'copilot-cli',
  setup() {},
  env: ({ mockUrl, home }) => ({
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: `${mockUrl}/v1`,
    COPILOT_PROVIDER_TYPE: 'openai',
    COPILOT_PROVIDER_API_KEY: 'dummy-key-for-loopback-mock',
    COPILOT_MODEL: CHAT_MODEL,
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_OTEL_EXPORTER_TYPE: 'file',
    COPILOT_OTEL_FILE_EXPORTER_PATH: path.join(home, 'otel', 'copilot-otel.jsonl'),
  }),
  bin: (toolsDir) => path.join(toolsDir, 'node_modules', '.bin', 'copilot'),
  display: 'copilot',
  cases: [
    { id: 'text', title: 'text answer', steps: [{ mock: 'text', stdout: 'output.jsonl', args: () => ['-p', 'Say hello.', ...copilotCommon] }] },
    { id: 'shell-ok', title: 'one bash call that succeeds, then an answer', steps: [{ mock: 'shell-ok', stdout: 'output.jsonl', args: () => ['-p', 'Run echo hello and tell me what it printed.', ...copilotCommon] }] },
    { id: 'shell-fail', title: 'one bash call that exits non-zero, then an answer', steps: [{ mock: 'shell-fail', stdout: 'output.jsonl', args: () => ['-p', 'List the folder /nonexistent.', ...copilotCommon] }] },
    { id: 'edit', title: 'read README.md, write notes.txt, edit it, read a missing file (fails), then an answer', steps: [{ mock: 'edit', stdout: 'output.jsonl', args: () => ['-p', EDIT_PROMPT, ...copilotCommon] }] },
    { id: 'subagent', title: 'a `task` (subagent) call; the subagent runs bash and reports back', steps: [{ mock: 'subagent', stdout: 'output.jsonl', args: () => ['-p', 'Use a subagent to run echo hello.', ...copilotCommon] }] },
    {
      id: 'resume', title: 'a session, then `copilot -p --resume <sessionId>` continuing it',
      steps: [
        { mock: 'resume-1', stdout: 'output-1.jsonl', args: () => ['-p', 'Remember the code word PLUM.', ...copilotCommon] },
        { mock: 'resume-2', stdout: 'output-2.jsonl', args: (prev) => ['-p', 'What was the code word?', '--resume', firstField(prev[0].stdout, (o) => o.type === 'result' && o.sessionId, 'sessionId'), ...copilotCommon], argsDisplay: ['-p', 'What was the code word?', '--resume', '<sessionId of step 1>', ...copilotCommon] },
      ],
    },
  ],
  collect({ home }) {
    const state = path.join(home, '.copilot', 'session-state');
    return [
      ...walk(state).filter((f) => /\/(events\.jsonl|workspace\.yaml)$/.test(f)).map((f) => ({ src: f, rel: path.join('.copilot', 'session-state', path.relative(state, f)) })),
      ...walk(path.join(home, 'otel')).map((f) => ({ src: f, rel: path.join('otel', path.basename(f)) })),
    ];
  },
  bulky: [/^\.cache\/copilot\/pkg\//],
  notes: [
    'Session (`.copilot/session-state/<sessionId>/events.jsonl`): one event a line, `{type, data, id, timestamp, parentId}`; `parentId` chains every event to the one written before it, from `session.start` (parentId null: sessionId, version, producer `copilot-agent`, copilotVersion, selectedModel, context.cwd). Types seen: `system.message` (the system prompt), `user.message` (content, transformedContent, turnId, interactionId), `assistant.turn_start` / `assistant.turn_end` (turnId), `assistant.message` (messageId, content, `toolRequests` [{toolCallId, name, arguments}], outputTokens), `session.usage_record` (one per model request: `usage` {model, inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, reasoningTokens, cost (0 for BYOK), duration, initiator `user` / `agent` / `sub-agent`, isByok, …}), `tool.execution_start` (toolCallId, toolName, arguments) / `tool.execution_complete` (toolCallId, success, result.content, `shellExecution.exitCode`, toolTelemetry), `subagent.started` / `subagent.configured` / `subagent.completed` (`toolCallId` = the `task` call, agentName, totalTokens), `session.model_change`, `session.shutdown` (accountingSnapshot: modelMetrics per model {requests, usage totals}, agentMetrics per agent, codeChanges), and on a resumed run `session.resume` (eventCount, eventsFileSizeBytes) appended to the same file, followed by a second `session.shutdown`.',
    'Subagent: its events are in the parent\'s file, interleaved, with `agentId` on the event and `parentToolCallId` (= the `task` call\'s toolCallId) in `data` of its user.message / assistant.message / tool events; its `session.usage_record`s have initiator `sub-agent`.',
    'A failing shell command is NOT a failed tool call: `ls /nonexistent` gives `tool.execution_complete` with `success: true` and `shellExecution.exitCode: 2` (the exit code is also in the result text).',
    'Usage semantics: `inputTokens` is the API\'s `prompt_tokens`, which INCLUDES the cached part (`cacheReadTokens` is a part of it, not an addition); `session.shutdown` holds the session\'s running totals per model (after a resume, the second shutdown\'s totals cover both runs).',
    '`--output-format json` stdout: the same events minus `session.start` / `system.message` / usage records, plus ephemeral ones (`"ephemeral": true`: `session.skills_loaded`, `session.mcp_servers_loaded`, `session.tools_updated`, `model.call_start` / `model.call_finished` / `model.call_final_result`, `assistant.message_start` / `assistant.message_delta`, `assistant.tool_call_delta`, `tool.shell_output`, `tool.execution_partial_result`, `session.background_tasks_changed`, `assistant.idle`); an event\'s `parentId` may name an event that only the session file has. The last line is `{type: "result", sessionId, exitCode, usage {premiumRequests, totalApiDurationMs, sessionDurationMs, codeChanges}}` (no tokens).',
    'OpenTelemetry file export (`otel/copilot-otel.jsonl`): one JSON object a line, `type` `span` or `metric`. Spans: `traceId`, `spanId`, `parentSpanId`, `name` (`invoke_agent` (root), `chat <model>`, `execute_tool <tool>`, and for a subagent `invoke_agent <agent>` under the `execute_tool task` span), `kind`, `startTime` / `endTime` as `[seconds, nanoseconds]`, plain `attributes` maps (`gen_ai.operation.name`, `gen_ai.conversation.id` = sessionId, `gen_ai.usage.input_tokens` (cache included) / `output_tokens` / `cache_read.input_tokens`, `gen_ai.tool.call.id`, …; an `invoke_agent` span\'s usage is the sum of ITS OWN chat spans, the subagent\'s are on the nested invoke_agent), `status`, `events`, `resource`, `instrumentationScope`. Metrics: `name` (`gen_ai.client.operation.duration`, `gen_ai.client.inference.usage.*`, `gen_ai.invoke_agent.*`, `github.copilot.*`), `dataPoints` with histogram / sum values. Not OTLP/JSON: no resourceSpans wrapper, times are arrays.',
  ],
  configNote: () => 'No config file; BYOK environment only (see above): `COPILOT_PROVIDER_BASE_URL` = the mock\'s `/v1` (wire API "completions", the default: the CLI POSTs `/v1/chat/completions`), `COPILOT_OFFLINE=true` (no GitHub login, telemetry or update check), `COPILOT_MODEL=gpt-4.1`; `COPILOT_OTEL_EXPORTER_TYPE=file` with `COPILOT_OTEL_FILE_EXPORTER_PATH=$HOME/otel/copilot-otel.jsonl` turns on the OpenTelemetry file export. `--allow-all-tools` is required in `-p` mode.\n',
};

// ---------------------------------------------------------------- pi
function piModels(mockUrl) {
  return {
    providers: {
      mock: {
        baseUrl: `${mockUrl}/v1`,
        api: 'openai-completions',
        apiKey: 'dummy-key-for-loopback-mock',
        models: [{ id: CHAT_MODEL, name: 'GPT-4.1 (loopback mock)', reasoning: false, input: ['text'], contextWindow: 128000, maxTokens: 16000, cost: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 } }],
      },
    },
  };
}
const piCommon = ['-p', '--mode', 'json', '--provider', 'mock', '--model', CHAT_MODEL];
export const pi = {
  key: 'pi',
  setup({ home, mockUrl }) {
    mkdirSync(path.join(home, '.pi', 'agent'), { recursive: true });
    writeFileSync(path.join(home, '.pi', 'agent', 'models.json'), JSON.stringify(piModels(mockUrl), null, 2) + '\n');
  },
  ownFiles: ['.pi/agent/models.json'],
  env: () => ({ PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1' }),
  bin: (toolsDir) => path.join(toolsDir, 'node_modules', '.bin', 'pi'),
  display: 'pi',
  cases: [
    { id: 'text', title: 'text answer', steps: [{ mock: 'text', stdout: 'mode-json.jsonl', args: () => [...piCommon, 'Say hello.'] }] },
    { id: 'shell-ok', title: 'one bash call that succeeds, then an answer', steps: [{ mock: 'shell-ok', stdout: 'mode-json.jsonl', args: () => [...piCommon, 'Run echo hello and tell me what it printed.'] }] },
    { id: 'shell-fail', title: 'one bash call that exits non-zero, then an answer', steps: [{ mock: 'shell-fail', stdout: 'mode-json.jsonl', args: () => [...piCommon, 'List the folder /nonexistent.'] }] },
    { id: 'edit', title: 'read README.md, write notes.txt, edit it, read a missing file (isError), then an answer', steps: [{ mock: 'edit', stdout: 'mode-json.jsonl', args: () => [...piCommon, EDIT_PROMPT] }] },
    {
      id: 'resume', title: 'a session, then `pi -p --continue` continuing it',
      steps: [
        { mock: 'resume-1', stdout: 'mode-json-1.jsonl', args: () => [...piCommon, 'Remember the code word PLUM.'] },
        { mock: 'resume-2', stdout: 'mode-json-2.jsonl', args: () => [...piCommon, '--continue', 'What was the code word?'] },
      ],
    },
  ],
  collect({ home }) {
    const root = path.join(home, '.pi', 'agent', 'sessions');
    return walk(root).map((f) => ({ src: f, rel: path.join('.pi', 'agent', 'sessions', path.relative(root, f)) }));
  },
  notes: [
    'Session (`.pi/agent/sessions/--<cwd with / as ->--/<ISO time>_<uuid>.jsonl`): line 1 `{type: "session", version, id, timestamp, cwd}`; then entries `{type, id (8 hex), parentId, timestamp}` forming a tree (each entry names its parent; a branch would start a second child): `model_change` {provider, modelId}, `thinking_level_change`, `message` {message: {role `user` | `assistant` | `toolResult`, content [{type `text` | `toolCall` {id, name, arguments}}], …}}. Assistant messages carry `api`, `provider`, `model`, `stopReason` (`toolUse`, `stop`), `responseId` and `usage` {input, output, cacheRead, cacheWrite, totalTokens, cost {input, output, cacheRead, cacheWrite, total}}; toolResult messages carry `toolCallId`, `toolName`, `isError`. `--continue` appends to the same file.',
    'Usage semantics: pi\'s `usage.input` is the prompt MINUS the cached part (the mock sends `prompt_tokens` with the cache included; pi subtracts `cached_tokens` into `cacheRead`), so input + cacheRead = the API\'s prompt tokens. `cost` is pi\'s own computation from the per-million rates in models.json (2 / 8 / 0.5 USD here).',
    '`--mode json` stdout: an event stream without ids: `session` (the header), `agent_start`, `turn_start`, `message_start` / `message_update` (assistantMessageEvent deltas) / `message_end` (the whole message, usage included: count usage here only), `tool_execution_start` / `tool_execution_update` / `tool_execution_end` (toolCallId, toolName, result, isError), `turn_end`, `agent_end` (all messages of the run).',
    'No subagent tool in pi\'s built-in tool set (read, bash, edit, write), so no subagent case.',
  ],
  configNote: (mockUrl) => '`$HOME/.pi/agent/models.json` written by the generator (a custom OpenAI-compatible provider, Chat Completions):\n\n```json\n' + JSON.stringify(piModels(mockUrl || 'http://127.0.0.1:<port>'), null, 2) + '\n```\n',
};

// ---------------------------------------------------------------- qwen code
const QWEN_SETTINGS = {
  general: { enableAutoUpdate: false, disableAutoUpdate: true },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
};
const qwenCommon = ['--auth-type', 'openai', '-m', 'qwen3-coder-plus', '--yolo', '--chat-recording'];
export const qwenCode = {
  key: 'qwen-code',
  setup({ home }) {
    mkdirSync(path.join(home, '.qwen'), { recursive: true });
    writeFileSync(path.join(home, '.qwen', 'settings.json'), JSON.stringify(QWEN_SETTINGS, null, 2) + '\n');
  },
  ownFiles: ['.qwen/settings.json'],
  env: ({ mockUrl }) => ({ OPENAI_API_KEY: 'dummy-key-for-loopback-mock', OPENAI_BASE_URL: `${mockUrl}/v1`, QWEN_CODE_SUPPRESS_YOLO_WARNING: '1' }),
  bin: (toolsDir) => path.join(toolsDir, 'node_modules', '.bin', 'qwen'),
  display: 'qwen',
  cases: [
    { id: 'text', title: 'text answer, `-o json`', steps: [{ mock: 'text', stdout: 'output.json', args: () => [...qwenCommon, '-o', 'json', 'Say hello.'] }] },
    { id: 'shell-ok', title: 'one run_shell_command call that succeeds, then an answer', steps: [{ mock: 'shell-ok', stdout: 'stream-json.jsonl', args: () => [...qwenCommon, '-o', 'stream-json', 'Run echo hello and tell me what it printed.'] }] },
    { id: 'shell-fail', title: 'one run_shell_command call that exits non-zero, then an answer', steps: [{ mock: 'shell-fail', stdout: 'stream-json.jsonl', args: () => [...qwenCommon, '-o', 'stream-json', 'List the folder /nonexistent.'] }] },
    { id: 'edit', title: 'read_file README.md, write_file notes.txt, edit it, read_file a missing file (error), then an answer', steps: [{ mock: 'edit', stdout: 'stream-json.jsonl', args: () => [...qwenCommon, '-o', 'stream-json', EDIT_PROMPT] }] },
    { id: 'subagent', title: 'an `agent` (subagent) call; the subagent runs run_shell_command and reports back', steps: [{ mock: 'subagent', stdout: 'stream-json.jsonl', args: () => [...qwenCommon, '-o', 'stream-json', 'Use a subagent to run echo hello.'] }] },
    {
      id: 'resume', title: 'a session, then `qwen --resume <session_id>` continuing it',
      steps: [
        { mock: 'resume-1', stdout: 'stream-json-1.jsonl', args: () => [...qwenCommon, '-o', 'stream-json', 'Remember the code word PLUM.'] },
        { mock: 'resume-2', stdout: 'stream-json-2.jsonl', args: (prev) => [...qwenCommon, '-o', 'stream-json', '--resume', firstField(prev[0].stdout, (o) => o.session_id, 'session_id'), 'What was the code word?'], argsDisplay: [...qwenCommon, '-o', 'stream-json', '--resume', '<session_id of step 1>', 'What was the code word?'] },
      ],
    },
  ],
  collect({ home }) {
    const q = path.join(home, '.qwen');
    return [...walk(path.join(q, 'projects')), ...walk(path.join(q, 'usage')), ...walk(q).filter((f) => path.dirname(f) === q && /usage.*\.jsonl$/.test(f))]
      .filter((f) => !/\/memory\/MEMORY\.md$/.test(f))
      .map((f) => ({ src: f, rel: path.join('.qwen', path.relative(q, f)) }));
  },
  notes: [
    'Chat recording (`.qwen/projects/<dash-encoded cwd>/chats/<sessionId>.jsonl`, written with `--chat-recording`): Claude-Code-like lines `{uuid, parentUuid, sessionId, timestamp, type, provenance, cwd, version, …}` in one parentUuid chain. `type` `user` (message {role user, parts [{text}]}; subtype `notification` for a background task\'s report), `assistant` (provenance `assistant_output`, `model`, message {role `model`, parts: Gemini-style [{text} | {functionCall {id, name, args}}]}, `usageMetadata` {promptTokenCount, candidatesTokenCount, thoughtsTokenCount, totalTokenCount, cachedContentTokenCount}, contextWindowSize), `tool_result` (message {role user, parts [{functionResponse {id, name, response {output | error}}}]}, `toolCallResult` {callId, status `success` | `error`, resultDisplay}), `system` (subtype `ui_telemetry`: systemPayload.uiEvent = `qwen-code.api_response` (input / output / cached token counts per request) or `qwen-code.tool_call` (duration, success); subtype `attribution_snapshot`). `--resume` appends to the same file.',
    'A failing shell command IS a failed tool call here: `tool_result.toolCallResult.status` is `error` and the functionResponse holds `error` (with `Exit Code: 2`).',
    'Subagent (`agent` tool; Qwen runs it in the background): the main chat has the `agent` functionCall, its `tool_result` ("launched"), later a `user` line with subtype `notification` carrying the report; the subagent\'s own lines are in `projects/<cwd>/subagents/<sessionId>/agent-<agentType>-<callId>.jsonl` (same line shapes plus `agentId`, `agentName`, `isSidechain: true` and the parent\'s sessionId; one model response with text + functionCall is written as TWO assistant lines there, the usageMetadata on the first only) with `agent-…meta.json` {agentId, agentType, parentSessionId, toolUseId = the `agent` call id, status, isBackgrounded, persistedCliFlags (incl. the mock\'s loopback baseUrl)}.',
    'Usage semantics: `promptTokenCount` (and the stream-json / json `input_tokens`) INCLUDE the cached tokens (`cachedContentTokenCount` / `cache_read_input_tokens` is a part of them), unlike Claude Code\'s `input_tokens`, where cache reads are separate.',
    'stream-json stdout (shaped like the Claude Agent SDK\'s): `system`/`init` (session_id, cwd, tools, model, qwen_code_version, …), `stream_event` (goal state), `assistant` (message.content text / tool_use blocks, `usage`), `user` (tool_result blocks; `parent_tool_use_id`), `system` `task_started` / `task_notification` (background subagent), `result` (subtype `success`, `usage` {input_tokens, output_tokens, cache_read_input_tokens, total_tokens} = the run\'s totals, `num_turns`, `duration_ms`; no cost). `-o json` writes one JSON array of the same messages.',
    'Also written: `.qwen/usage_record.jsonl` (one line per run: per-model request and token totals, tool counts) and per-project `meta.json` / `extract-cursor.json` (memory extraction bookkeeping). A side request (the managed auto-memory extractor, no tools) follows the main turn in some runs. With usage statistics on (the default; turned off here, as the other tools\' telemetry is), Qwen also writes `.qwen/usage/token-usage-<YYYY-MM>.jsonl` (one line per model request: sessionId, model, source `main` / side agent, inputTokens incl. cache, outputTokens, cachedTokens) and `.qwen/installation_id`; seen in a trial run, not in these files.',
  ],
  configNote: () => '`$HOME/.qwen/settings.json` written by the generator:\n\n```json\n' + JSON.stringify(QWEN_SETTINGS, null, 2) + '\n```\n\nThe model API is chosen by `--auth-type openai` with `OPENAI_BASE_URL` = the mock\'s `/v1` (Chat Completions). The package declares `node >=22`; it ran here on the machine\'s Node (see the runs table).\n',
};

// ---------------------------------------------------------------- opencode
function opencodeConfig(mockUrl) {
  return {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    model: `mock/${CHAT_MODEL}`,
    small_model: `mock/${CHAT_MODEL}`,
    provider: {
      mock: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Loopback mock',
        options: { baseURL: `${mockUrl}/v1`, apiKey: 'dummy-key-for-loopback-mock' },
        models: { [CHAT_MODEL]: { name: 'GPT-4.1 (loopback mock)', cost: { input: 2, output: 8, cache_read: 0.5 }, limit: { context: 128000, output: 16000 } } },
      },
    },
    permission: { bash: 'allow', edit: 'allow' },
  };
}
const opencodeSessionIds = (stdout) => [...new Set(stdout.match(/ses_[A-Za-z0-9]+/g) || [])];
export const opencode = {
  key: 'opencode',
  setup({ home, mockUrl }) {
    mkdirSync(path.join(home, '.config', 'opencode'), { recursive: true });
    writeFileSync(path.join(home, '.config', 'opencode', 'opencode.json'), JSON.stringify(opencodeConfig(mockUrl), null, 2) + '\n');
  },
  ownFiles: ['.config/opencode/opencode.json'],
  env: () => ({ OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_LSP_DOWNLOAD: '1', OPENCODE_DISABLE_SHARE: '1' }),
  bin: (toolsDir) => path.join(toolsDir, 'node_modules', '.bin', 'opencode'),
  display: 'opencode',
  cases: [
    { id: 'text', title: 'text answer, then `opencode export`', steps: [
      { mock: 'text', stdout: 'run.jsonl', args: () => ['run', '--format', 'json', 'Say hello.'] },
      { stdout: 'export.json', args: (prev) => ['export', opencodeSessionIds(prev[0].stdout)[0]], argsDisplay: ['export', '<sessionID of step 1>'] },
    ] },
    { id: 'shell-ok', title: 'one bash call that succeeds, then an answer; then `opencode export`', steps: [
      { mock: 'shell-ok', stdout: 'run.jsonl', args: () => ['run', '--format', 'json', 'Run echo hello and tell me what it printed.'] },
      { stdout: 'export.json', args: (prev) => ['export', opencodeSessionIds(prev[0].stdout)[0]], argsDisplay: ['export', '<sessionID of step 1>'] },
    ] },
    { id: 'shell-fail', title: 'one bash call that exits non-zero, then an answer; then `opencode export`', steps: [
      { mock: 'shell-fail', stdout: 'run.jsonl', args: () => ['run', '--format', 'json', 'List the folder /nonexistent.'] },
      { stdout: 'export.json', args: (prev) => ['export', opencodeSessionIds(prev[0].stdout)[0]], argsDisplay: ['export', '<sessionID of step 1>'] },
    ] },
    { id: 'edit', title: 'read README.md, write notes.txt, edit it, read a missing file (error), then an answer; then `opencode export`', steps: [
      { mock: 'edit', stdout: 'run.jsonl', args: () => ['run', '--format', 'json', EDIT_PROMPT] },
      { stdout: 'export.json', args: (prev) => ['export', opencodeSessionIds(prev[0].stdout)[0]], argsDisplay: ['export', '<sessionID of step 1>'] },
    ] },
    { id: 'subagent', title: 'a `task` (subagent) call; the subagent runs bash and reports back; then `opencode export` of both sessions', steps: [
      { mock: 'subagent', stdout: 'run.jsonl', args: () => ['run', '--format', 'json', 'Use a subagent to run echo hello.'] },
      { stdout: 'export.json', args: (prev) => ['export', opencodeSessionIds(prev[0].stdout)[0]], argsDisplay: ['export', '<sessionID of step 1>'] },
      { stdout: 'export-subagent.json', args: (prev) => { const child = opencodeSessionIds(prev[0].stdout + prev[1].stdout).find((id) => id !== opencodeSessionIds(prev[0].stdout)[0]); if (!child) throw new Error('no child session id in the run or the export'); return ['export', child]; }, argsDisplay: ['export', '<the task\'s child sessionID>'] },
    ] },
    {
      id: 'resume', title: 'a session, then `opencode run --continue` continuing it; then `opencode export`',
      steps: [
        { mock: 'resume-1', stdout: 'run-1.jsonl', args: () => ['run', '--format', 'json', 'Remember the code word PLUM.'] },
        { mock: 'resume-2', stdout: 'run-2.jsonl', args: () => ['run', '--continue', '--format', 'json', 'What was the code word?'] },
        { stdout: 'export.json', args: (prev) => ['export', opencodeSessionIds(prev[0].stdout)[0]], argsDisplay: ['export', '<sessionID of step 1>'] },
      ],
    },
  ],
  collect({ home }) {
    const root = path.join(home, '.local', 'share', 'opencode');
    return walk(path.join(root, 'log')).map((f) => ({ src: f, rel: path.join('.local', 'share', 'opencode', path.relative(root, f)) }));
  },
  bulky: [/^\.npm\//, /^\.cache\/opencode\//],
  notes: [
    'Store: opencode keeps its sessions in SQLite (`.local/share/opencode/opencode.db` with `-wal` / `-shm`, listed below, not kept: binary, ~1 MB a case). `opencode export <sessionID>` prints one session as pretty-printed JSON, kept as `export.json`: `{info, messages: [{info, parts}]}`. Session `info`: {id `ses_…`, slug, projectID, directory, path (the cwd without its leading slash), parentID (only on a subagent\'s session), title, agent, model, version, summary, `cost` and `tokens` {input, output, reasoning, cache {read, write}} = the session\'s totals (a parent\'s totals do NOT include its subagent session\'s), permission, time}. Message `info`: role `user` | `assistant`, id `msg_…`, sessionID; assistant: `parentID` = the user message it answers (every assistant message of a turn names the same user message), mode / agent, modelID, providerID, `cost`, `tokens` {total, input, output, reasoning, cache {read, write}}, finish, time. Parts {id `prt_…`, sessionID, messageID, type}: `text`, `reasoning`, `step-start`, `step-finish` (`reason` `tool-calls` | `stop`, `tokens`, `cost`: one model call), `tool` {tool, callID, state {status `completed` | `error`, input, output or error, metadata {output, exit, truncated} for bash, {sessionId, parentSessionId, model} for task, title, time}}.',
    'A failing shell command is NOT a failed tool call: `ls /nonexistent` gives a tool part with status `completed` and `metadata.exit: 2`. A tool that throws (e.g. an unknown agent type) has status `error` and `state.error`.',
    'Subagent (`task` tool, agent `general`): the subagent runs as its own session (`export-subagent.json`: `info.parentID` = the main session, title "<description> (@general subagent)"); the main session\'s task part names it in `state.metadata.sessionId`. `run --format json` prints only the main session\'s parts.',
    'Usage semantics: `tokens.input` EXCLUDES the cache read (`tokens.cache.read`), so input + cache.read = the API\'s prompt tokens; `cost` is computed from the config\'s rates (2 / 8 / 0.5 USD per million here), per step and summed per message and session.',
    '`run --format json` stdout: one event a line `{type, timestamp, sessionID, part}` with `type` `step_start`, `text`, `reasoning`, `tool_use` (the finished tool part), `step_finish` (tokens, cost); parts carry `messageID`. The user message and the session info are not in it. Note: the user text is recorded in quotes (`"\\"Say hello.\\""`) as `opencode run` passed it.',
    'The provider package `@ai-sdk/openai-compatible` is installed by opencode itself at first use, from the npm registry (the `.npm/` cache below); the title comes from a side request with no tools (answered "Mock session").',
  ],
  configNote: (mockUrl) => '`$HOME/.config/opencode/opencode.json` written by the generator:\n\n```json\n' + JSON.stringify(opencodeConfig(mockUrl || 'http://127.0.0.1:<port>'), null, 2) + '\n```\n',
};

// ---------------------------------------------------------------- continue cli
const continueConfig = (mockUrl) => [
  'name: Loopback mock',
  'version: 1.0.0',
  'schema: v1',
  'models:',
  '  - name: GPT-4.1 (loopback mock)',
  '    provider: openai',
  `    model: ${CHAT_MODEL}`,
  `    apiBase: ${mockUrl}/v1`,
  '    apiKey: dummy-key-for-loopback-mock',
  '    roles: [chat, edit, apply]',
  // the Subagent tool (--beta-subagent-tool) offers the models with role `subagent` and a base system message
  '  - name: general-purpose',
  '    provider: openai',
  `    model: ${CHAT_MODEL}`,
  `    apiBase: ${mockUrl}/v1`,
  '    apiKey: dummy-key-for-loopback-mock',
  '    roles: [subagent]',
  '    chatOptions:',
  '      baseSystemMessage: You are a general-purpose subagent. Do the task, then report what you found.',
  '',
].join('\n');
const cnCommon = (home) => ['-p', '--config', path.join(home, '.continue', 'config.yaml'), '--auto', '--format', 'json'];
const cnShown = ['-p', '--config', '~/.continue/config.yaml', '--auto', '--format', 'json'];
const shQuote = (a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
export const continueCli = {
  key: 'continue',
  setup({ home, mockUrl }) {
    mkdirSync(path.join(home, '.continue'), { recursive: true });
    writeFileSync(path.join(home, '.continue', 'config.yaml'), continueConfig(mockUrl));
  },
  ownFiles: ['.continue/config.yaml'],
  env: () => ({ CONTINUE_CLI_ENABLE_TELEMETRY: '0', CONTINUE_METRICS_ENABLED: '0' }),
  bin: (toolsDir) => path.join(toolsDir, 'node_modules', '.bin', 'cn'),
  display: 'cn',
  cases: [
    { id: 'text', title: 'text answer', steps: [{ mock: 'text', stdout: 'output.json', args: (prev, { home }) => [...cnCommon(home), 'Say hello.'], argsDisplay: [...cnShown, 'Say hello.'] }] },
    { id: 'shell-ok', title: 'one Bash call that succeeds, then an answer', steps: [{ mock: 'shell-ok', stdout: 'output.json', args: (prev, { home }) => [...cnCommon(home), 'Run echo hello and tell me what it printed.'], argsDisplay: [...cnShown, 'Run echo hello and tell me what it printed.'] }] },
    { id: 'shell-fail', title: 'one Bash call that exits non-zero, then an answer', steps: [{ mock: 'shell-fail', stdout: 'output.json', args: (prev, { home }) => [...cnCommon(home), 'List the folder /nonexistent.'], argsDisplay: [...cnShown, 'List the folder /nonexistent.'] }] },
    { id: 'edit', title: 'read README.md, write notes.txt, edit it, read a missing file (errored), then an answer', steps: [{ mock: 'edit', stdout: 'output.json', args: (prev, { home }) => [...cnCommon(home), EDIT_PROMPT], argsDisplay: [...cnShown, EDIT_PROMPT] }] },
    { id: 'subagent', title: 'a Subagent call (`--beta-subagent-tool`); in `-p` mode the tool fails ("No active session found"), so this is an errored call, then an answer', steps: [{ mock: 'subagent', stdout: 'output.json', args: (prev, { home }) => [...cnCommon(home), '--beta-subagent-tool', 'Use a subagent to run echo hello.'], argsDisplay: [...cnShown, '--beta-subagent-tool', 'Use a subagent to run echo hello.'] }] },
    {
      id: 'subagent-tui', title: 'a Subagent call (`--beta-subagent-tool`) in the interactive TUI (run under `script`, a pseudo-terminal, and stopped by the generator once the final answer is in): the subagent runs Bash and reports back',
      steps: [{
        mock: 'subagent',
        // util-linux `script` gives the TUI a terminal; the prompt is the TUI's initial prompt, sent at start
        bin: () => 'script',
        args: (prev, { home, toolsDir }) => ['-qfec', [continueCli.bin(toolsDir), '--config', path.join(home, '.continue', 'config.yaml'), '--auto', '--beta-subagent-tool', 'Use a subagent to run echo hello.'].map(shQuote).join(' '), '/dev/null'],
        commandDisplay: `script -qfec "cn --config ~/.continue/config.yaml --auto --beta-subagent-tool 'Use a subagent to run echo hello.'" /dev/null`,
        stopWhen: (requests) => requests.some((q) => q.scenario === 'subagent' && q.plan && /^The subagent ran/.test(q.plan.text || '')),
      }],
    },
    {
      id: 'resume', title: 'a session, then `cn -p --resume` continuing it',
      steps: [
        { mock: 'resume-1', stdout: 'output-1.json', args: (prev, { home }) => [...cnCommon(home), 'Remember the code word PLUM.'], argsDisplay: [...cnShown, 'Remember the code word PLUM.'] },
        { mock: 'resume-2', stdout: 'output-2.json', args: (prev, { home }) => [...cnCommon(home), '--resume', 'What was the code word?'], argsDisplay: [...cnShown, '--resume', 'What was the code word?'] },
      ],
    },
  ],
  collect({ home }) {
    const root = path.join(home, '.continue');
    return [...walk(path.join(root, 'sessions')), ...walk(path.join(root, 'logs'))].map((f) => ({ src: f, rel: path.join('.continue', path.relative(root, f)) }));
  },
  notes: [
    'Session (`.continue/sessions/<sessionId>.json`): ONE pretty-printed JSON document, rewritten as the session goes (`--resume` rewrites the same file with the whole history): `{sessionId, title, workspaceDirectory, history: [{message, contextItems, editorState?, toolCallStates?}], usage}`. `message` {role `user` | `assistant`, content, toolCalls? [{id, type "function", function {name, arguments (a JSON string)}}], usage? (assistant: the API\'s usage as it came: prompt_tokens, completion_tokens, total_tokens, prompt_tokens_details.cached_tokens, completion_tokens_details, plus `model` and `cost_cents`, the message\'s cost in whole cents, rounded)}. Tool results are NOT messages: they live in the calling assistant item\'s `toolCallStates` [{toolCallId, toolCall, status `done` | `errored`, parsedArgs, output [{content, name "Tool Result", description}]}]. `.continue/sessions/sessions.json` is the index [{sessionId, title, dateCreated (epoch ms as a string), workspaceDirectory, messageCount}].',
    'A failing shell command IS a failed tool call: `ls /nonexistent` gives status `errored` and output "Error executing tool Bash: Error (exit code 2): …"; `logs/cn.log` (text) records the same as an `[error]` line.',
    'Usage semantics: session `usage` {totalCost (USD), promptTokens, completionTokens, promptTokensDetails {cachedTokens, cacheWriteTokens}} sums the messages\' prompt and completion tokens, but its cachedTokens stays 0 although the messages report cached tokens; promptTokens includes the cache (as the API\'s prompt_tokens does). totalCost is priced by Continue\'s own table: here 30 / 60 USD per million prompt / completion tokens for `gpt-4.1` (every prompt token at the full rate).',
    'Subagent (`--beta-subagent-tool`): the `Subagent` tool {description, prompt, subagent_name} offers the config\'s models whose role is `subagent` (hence the second model). In headless `-p` mode its run fails at once with "No active session found" (the tool asks the chat-history service for the session id, which `-p` mode does not set; seen in 1.5.47\'s dist/index.js), so `subagent/` holds an `errored` Subagent call and the model\'s answer after it; no subagent turn is written. `cn serve` (the hidden HTTP mode) does set a session id, but it does not pass `--beta-subagent-tool` on (it copies a fixed list of the root options), so it offers no Subagent tool. The interactive TUI does both: `subagent-tui/` is the TUI run under util-linux `script` (a pseudo-terminal; the prompt is its initial prompt), stopped by the generator 3 s after the mock answered the final text (the TUI does not exit by itself; its stdout is terminal drawing, not kept). There the Subagent call is `done` and its output is the subagent\'s report plus "<task_metadata>\\nstatus: completed\\n</task_metadata>"; the subagent\'s own messages (its Bash call) are written nowhere (cn.log warns "Could not find message for tool result" for its call ids), yet the session `usage` (promptTokens, completionTokens, totalCost) DOES include its two model requests, so it is more than the sum of the history\'s message usages.',
    '`-p --format json` stdout: one small object `{response, status, note}` (the final answer only; `note` says when the answer was not JSON and was wrapped). No tokens.',
  ],
  configNote: (mockUrl) => '`$HOME/.continue/config.yaml` written by the generator (passed with `--config`):\n\n```yaml\n' + continueConfig(mockUrl || 'http://127.0.0.1:<port>') + '```\n\n`--auto` allows every tool without asking.\n',
};

export const TOOLS = [codex, claudeCode, geminiCli, copilotCli, pi, qwenCode, opencode, continueCli];

// ---------------------------------------------------------------- the edit case's records, per tool
// (appended to each tool's format notes; the case is described in MOCK_SCRIPTS.edit)
const EDIT_NOTES = {
  codex: 'Edit case (`edit/`): 0.171.0 offers gpt-5.5 no read-file tool (its file tool is `apply_patch`, a freeform `custom` tool whose input is the patch text), so the read step is skipped: `apply_patch` adds notes.txt (`*** Add File`), `apply_patch` updates it (`*** Update File`), and the failing call is an `apply_patch` update of the missing missing.txt. Rollout: `response_item` `custom_tool_call` {name `apply_patch`, call_id, input = the patch} and `custom_tool_call_output` {call_id, output "Exit code: 0\\nWall time: …\\nOutput:\\nSuccess. Updated the following files:\\nA notes.txt", or for the failed one "apply_patch verification failed: Failed to read file to update …/missing.txt: No such file or directory (os error 2)", no exit code}; a patch that applied also gets `event_msg` `item_completed` {item {type `FileChange`, id = the call_id, changes {<absolute path>: {type `add`, content} | {type `update`, unified_diff, move_path}}, status `completed`, stdout}}; the failed one gets none. `exec --json` stdout: `item.started` / `item.completed` {item {type `file_change`, changes [{path, kind `add` | `update`}], status}} for the two patches that applied, nothing for the failed one.',
  'claude-code': 'Edit case (`edit/`, `--tools Read,Write,Edit`): `Read` README.md, `Write` notes.txt, `Edit` it, `Read` missing.txt. Each tool-result `user` line has a `toolUseResult` object besides its tool_result block: Read {type `text`, file {filePath, content, numLines, startLine, totalLines}} (the block\'s text has `cat -n` line numbers); Write {type `create`, filePath, content, structuredPatch [], originalFile null, userModified}; Edit {filePath, oldString, newString, originalFile, structuredPatch [{oldStart, oldLines, newStart, newLines, lines [" context", "-old", "+new"]}], userModified, replaceAll}. The failed Read has `is_error: true` on the block and a plain-string `toolUseResult` ("Error: File does not exist. …"). Tool-result lines also carry `sourceToolAssistantUUID` (the assistant line with the tool_use) and `permissionDecision`.',
  'gemini-cli': 'Edit case (`edit/`): `read_file` {file_path}, `write_file` {file_path, content}, `replace` {file_path, old_string, new_string, instruction}, then `read_file` of missing.txt. In the chat recording a toolCall\'s `resultDisplay` is an object {fileDiff (a unified diff), fileName, filePath, originalContent, newContent, diffStat, isNewFile} for write_file / replace and "" for a read_file that worked. A failing file tool IS a failed call (unlike a failing shell command): the missing file gives toolCalls status `error`, functionResponse `{error: "File not found: …"}`, resultDisplay "File not found."; stream-json `tool_result` has `status: "error"` and `error` {type `file_not_found`, message}.',
  'copilot-cli': 'Edit case (`edit/`): Copilot\'s file tools are `view` {path}, `create` {path, file_text} and `edit` {path, old_str, new_str}. `tool.execution_complete` of create / edit has `fileEdits` [{path, kind `create` | `edit`}] and `result` {content (a sentence), detailedContent (a git-style diff)}; view\'s detailedContent is the file as a diff too. The missing file\'s `view` has `success: false` and `error` {message "Path does not exist", code `failure`}, no result. `session.shutdown` (and the stdout `result` line) has `codeChanges` {linesAdded, linesRemoved, filesModified […]}. The OTel export has one `execute_tool <name>` span per call.',
  pi: 'Edit case (`edit/`): pi\'s built-in `read` {path}, `write` {path, content} and `edit` {path, edits [{oldText, newText}]}. `toolResult` messages: write\'s text "Successfully wrote 41 bytes to …"; edit\'s `details` {diff (a numbered " 1 ctx\\n-2 old\\n+2 new" listing), firstChangedLine}; the missing file\'s read has `isError: true` and the text "ENOENT: no such file or directory, access \'…/missing.txt\'". `--mode json` `tool_execution_end` carries the same `result` {content, details} and `isError`.',
  'qwen-code': 'Edit case (`edit/`): `read_file` {file_path}, `write_file` {file_path, content}, `edit` {file_path, old_string, new_string}, then `read_file` of missing.txt. `tool_result` lines: `toolCallResult.resultDisplay` is an object {fileDiff, fileName, filePath, originalContent, newContent, diffStat {model_added_lines, …}} for write_file / edit; the missing file gives status `error`, errorType `file_not_found`, functionResponse `{error: "File not found: …"}`. `system` `attribution_snapshot` lines after each write record `fileStates` {<path>: {aiContribution, aiCreated, contentHash}}; `ui_telemetry` `qwen-code.tool_call` events have `function_args`, `success`, `error_type`.',
  opencode: 'Edit case (`edit/`): `read` {filePath}, `write` {filePath, content}, `edit` {filePath, oldString, newString}, then `read` of missing.txt. Tool parts: read\'s `state.metadata` {preview, truncated, display {type `file`, path, text, lineStart, lineEnd, totalLines}}; write\'s {filepath, exists, diagnostics}; edit\'s {diff (unified), filediff {file, patch, additions, deletions, …}, diagnostics}; the missing file\'s read has status `error` and `state.error` "File not found: …" (a failed call). Session and message `summary` stay {additions 0, deletions 0, files 0} / {diffs []}: the project folder is not a git repository.',
  continue: 'Edit case (`edit/`): Continue\'s file tools are `Read` {filepath}, `Write` {filepath, content} and `MultiEdit` {file_path, edits [{old_string, new_string}]} (no `Edit` is offered in `-p --auto`). MultiEdit refuses a file not read in this session, even one its own Write created ("You must use the Read tool to read …/notes.txt before editing it.", status `errored`), so the mock reads notes.txt and edits again: Read, Write, MultiEdit (errored), Read notes.txt, MultiEdit (done; its output holds the diff), Read missing.txt (`errored`: "Error executing tool Read: File does not exist: …").',
};
for (const t of TOOLS) if (EDIT_NOTES[t.key]) t.notes.push(EDIT_NOTES[t.key]);
