// Loopback mock of four model APIs (OpenAI Responses and Chat Completions, Anthropic Messages, Gemini
// generateContent), used by scripts/corpus/generate.mjs to drive the real agent CLIs. Plain Node, no
// dependencies.
//
// Only the model's answers are scripted here. The scenario is chosen by the generator
// (setScenario / POST /__mock/scenario); the step inside a scenario is the number of tool results
// already present in the request, so "tool call -> answer" loops terminate by construction.
//
// Scenarios:
//   text        plain text answer
//   shell-ok    shell call `echo hello`, then a text answer
//   shell-fail  shell call `ls /nonexistent` (exits non-zero), then a text answer
//   subagent    Agent/Task tool call (Anthropic; `task` / `agent` / `Subagent` by name on Chat Completions); the
//               subagent itself runs `echo hello` and reports back; then the main agent answers
//   resume-1    text answer that states a code word
//   resume-2    text answer that recalls the code word (the request must contain the earlier turn)
//   fork-2      the same, said as the fork (the forked session's request must carry the origin's turn)
//   edit        the tool's own file tools, found by name in the request's tool list (fileTools below):
//               read README.md, write notes.txt, edit notes.txt, read missing.txt (fails), then a text
//               answer; a step whose tool the CLI does not offer is skipped (Codex: no read tool, its
//               apply_patch writes and edits, and the failing call is a patch of the missing file)
//
// Token usage is derived from request/response sizes (about 4 characters per token) so the numbers
// look like real ones and grow with the conversation.
//
// Run standalone: node scripts/corpus/mock-model-server.mjs [port]   (prints "LISTENING <port>")

import http from 'node:http';
import { appendFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const SUBAGENT_MARKER = 'SUBAGENT-TASK';
const CODE_WORD = 'PLUM';

function tokensOf(value) {
  const s = typeof value === 'string' ? value : JSON.stringify(value ?? '');
  return Math.max(1, Math.round(s.length / 4));
}

/** Scenarios that continue an earlier session (its turns are in the request, so most of it is a cache read). */
const CONTINUES = new Set(['resume-2', 'fork-2']);

function plan(scenario, step, ctx) {
  // returns {text?:string, reasoning?:string, call?:{kind:'shell'|'agent', command?, description?, prompt?}}
  const lastFailed = ctx.lastToolFailed;
  switch (scenario) {
    case 'shell-ok':
      if (step === 0) return { reasoning: 'The user wants me to run echo hello.', text: 'I will run the command.', call: { kind: 'shell', command: 'echo hello', description: 'Print hello' } };
      return { text: 'The command `echo hello` printed: hello' };
    case 'shell-fail':
      if (step === 0) return { reasoning: 'I should list /nonexistent.', text: 'Listing /nonexistent.', call: { kind: 'shell', command: 'ls /nonexistent', description: 'List a missing folder' } };
      return { text: lastFailed === false ? 'The listing finished.' : 'The command failed: /nonexistent does not exist (ls exited with status 2).' };
    case 'subagent':
      if (step === 0) return { text: 'I will delegate this to a subagent.', call: { kind: 'agent', description: 'Say hello via shell', prompt: `${SUBAGENT_MARKER}: run \`echo hello\` in the shell and report what it printed.` } };
      // a backgrounded subagent returns "launched" first; the final answer waits for its report
      if (!ctx.allText.includes('Report:')) return { text: 'The subagent is running; I will report when it finishes.' };
      return { text: 'The subagent ran `echo hello`; it printed hello.' };
    case 'subagent-inner':
      if (step === 0) return { text: 'Running the command.', call: { kind: 'shell', command: 'echo hello', description: 'Print hello' } };
      return { text: 'Report: `echo hello` printed "hello".' };
    case 'resume-1':
      return { text: `Noted. The code word is ${CODE_WORD}.` };
    case 'resume-2':
      return { text: ctx.allText.includes(CODE_WORD) ? `You told me earlier: the code word is ${CODE_WORD}.` : 'I do not see an earlier code word in this conversation.' };
    case 'fork-2':
      return { text: ctx.allText.includes(CODE_WORD) ? `In this fork, the code word from earlier is still ${CODE_WORD}.` : 'I do not see an earlier code word in this conversation.' };
    case 'edit':
      return editPlan(step, ctx);
    case 'text':
    default:
      return { text: 'Hello! This is a scripted answer from the loopback mock model.' };
  }
}

// ---------------------------------------------------------------- file tools (the `edit` scenario)
// Each CLI names its read / write / edit tools its own way; they are found by name in the request's tool
// list, and their arguments are filled from the tool's JSON schema.
export const EDIT_FILES = {
  readme: 'README.md',
  notes: 'notes.txt',
  missing: 'missing.txt',
  content: 'Notes from the corpus run.\nStatus: draft\n',
  oldText: 'Status: draft',
  newText: 'Status: edited',
};
const FILE_TOOL_NAMES = {
  read: ['read', 'read_file', 'view', 'readfile', 'read_text_file', 'open_file'],
  write: ['write', 'write_file', 'create', 'create_file', 'writefile', 'write_to_file'],
  edit: ['edit', 'replace', 'edit_file', 'str_replace', 'str_replace_editor', 'search_replace', 'apply_patch', 'multiedit', 'multi_edit'],
};

/** tools: [{name, description, schema}] (normalised per protocol) -> {read, write, edit} (each a tool or undefined). */
export function fileTools(tools) {
  const pick = (names) => {
    for (const n of names) { const t = tools.find((x) => x.name.toLowerCase() === n); if (t) return t; }
    return undefined;
  };
  return { read: pick(FILE_TOOL_NAMES.read), write: pick(FILE_TOOL_NAMES.write), edit: pick(FILE_TOOL_NAMES.edit) };
}

const isPatchTool = (tool) => /patch/i.test(tool.name);

/** The edit scenario's tool calls, in order, for the tools this request offers; a step without its tool is left out. */
export function editSteps(tools) {
  const ft = fileTools(tools);
  const steps = [];
  if (ft.read) steps.push({ kind: 'read', file: EDIT_FILES.readme, tool: ft.read });
  if (ft.write) steps.push({ kind: 'write', file: EDIT_FILES.notes, tool: ft.write });
  else if (ft.edit && isPatchTool(ft.edit)) steps.push({ kind: 'write', file: EDIT_FILES.notes, tool: ft.edit });
  if (ft.edit) steps.push({ kind: 'edit', file: EDIT_FILES.notes, tool: ft.edit });
  // the failing call: read a missing file, or (no read tool) edit one
  if (ft.read) steps.push({ kind: 'read', file: EDIT_FILES.missing, tool: ft.read, failing: true });
  else if (ft.edit) steps.push({ kind: 'edit', file: EDIT_FILES.missing, tool: ft.edit, failing: true });
  return steps;
}

function patchText(kind, file) {
  const body = kind === 'write'
    ? [`*** Add File: ${file}`, ...EDIT_FILES.content.replace(/\n$/, '').split('\n').map((l) => `+${l}`)]
    : [`*** Update File: ${file}`, '@@', ` ${EDIT_FILES.content.split('\n')[0]}`, `-${EDIT_FILES.oldText}`, `+${EDIT_FILES.newText}`];
  return ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');
}

/** A file tool call's arguments (an object), or, for a freeform patch tool, {input: text}. */
export function fileCallArguments(step, cwd) {
  const { tool, kind, file } = step;
  const schema = tool.schema || {};
  const props = schema.properties || {};
  const abs = cwd ? `${cwd.replace(/\/$/, '')}/${file}` : file;
  if (!schema.properties && isPatchTool(tool)) return { freeform: patchText(kind, file) };
  const args = {};
  const described = (k) => `${(props[k] && props[k].description) || ''}`;
  for (const [k, p] of Object.entries(props)) {
    const key = k.toLowerCase().replace(/_/g, '');
    const type = String((p && p.type) || 'string').toLowerCase();
    if (['filepath', 'path', 'absolutepath', 'targetfile', 'file', 'filename', 'target'].includes(key) && type === 'string') {
      // absolute unless the schema asks for a path relative to the workspace
      args[k] = /relative/i.test(described(k)) && !/absolute/i.test(described(k)) ? file : abs;
    } else if (kind === 'write' && ['content', 'contents', 'filetext', 'text', 'newfilecontent', 'filecontent'].includes(key)) {
      args[k] = EDIT_FILES.content;
    } else if (kind === 'edit' && ['oldstring', 'oldstr', 'oldtext', 'old', 'search', 'find'].includes(key)) {
      args[k] = EDIT_FILES.oldText;
    } else if (kind === 'edit' && ['newstring', 'newstr', 'newtext', 'new', 'replace', 'replacement', 'replacewith'].includes(key)) {
      args[k] = EDIT_FILES.newText;
    } else if (['input', 'patch', 'diff', 'patchtext'].includes(key) && isPatchTool(tool)) {
      args[k] = patchText(kind, file);
    } else if (key === 'command' && p && Array.isArray(p.enum)) {
      // str_replace_editor style: one tool, the operation named by `command`
      const want = kind === 'read' ? /view|read/ : kind === 'write' ? /create|write/ : /str_replace|replace|edit/;
      args[k] = p.enum.find((e) => want.test(e)) || p.enum[0];
    } else if (kind === 'edit' && type === 'array' && p.items && p.items.properties) {
      // a list of edits ({oldText, newText} or the like): one
      const item = {};
      for (const ik of Object.keys(p.items.properties)) {
        const ikey = ik.toLowerCase().replace(/_/g, '');
        if (['oldstring', 'oldstr', 'oldtext', 'old', 'search', 'find'].includes(ikey)) item[ik] = EDIT_FILES.oldText;
        else if (['newstring', 'newstr', 'newtext', 'new', 'replace', 'replacement'].includes(ikey)) item[ik] = EDIT_FILES.newText;
      }
      if (Object.keys(item).length) args[k] = [item];
    }
  }
  if (props.description && args.description === undefined) args.description = `${kind} ${file}`;
  for (const req of schema.required || []) {
    if (args[req] !== undefined) continue;
    const t = props[req] || {};
    const type = String(t.type || 'string').toLowerCase();
    if (Array.isArray(t.enum) && t.enum.length) args[req] = t.enum[0];
    else if (type === 'boolean') args[req] = false;
    else if (type === 'number' || type === 'integer') args[req] = 1;
    else if (type === 'array') args[req] = [];
    else if (type === 'object') args[req] = {};
    else args[req] = `${kind} ${file}`;
  }
  return args;
}

// A CLI whose edit tool refuses a file it has not read in this session (Continue: "You must use the Read
// tool to read … before editing it", even after its own Write) gets that read, then the edit again.
const READ_FIRST = /must use the \w+ tool to read .* before editing/i;

function editPlan(step, ctx) {
  let steps = ctx.editSteps || [];
  const refused = (ctx.resultTexts || []).findIndex((t) => READ_FIRST.test(t));
  if (refused >= 0 && steps[refused] && steps[refused].kind === 'edit') {
    const ft = fileTools((ctx.tools || []).map((t) => ({ name: t.name, description: t.description, schema: t.parameters })));
    if (ft.read) steps = [...steps.slice(0, refused + 1), { kind: 'read', file: steps[refused].file, tool: ft.read }, ...steps.slice(refused)];
  }
  const s = steps[step];
  if (s) return { text: step === 0 ? 'I will read README.md, write notes.txt, edit it, and then look for missing.txt.' : undefined, call: { kind: 'file', step: s, description: `${s.kind} ${s.file}` } };
  const did = steps.map((x) => `${x.kind} ${x.file}`).join(', ');
  return { text: `Done: ${did || 'no file tool was offered'}. ${ctx.lastToolFailed === false ? 'The last call succeeded.' : 'The last call failed: missing.txt does not exist.'}` };
}

/**
 * Where to cut a tool call's streamed arguments in two: about half way, but never inside the case's project
 * path (the generator scrubs that path from what the tool writes, and a cut one would escape the scrub).
 */
function argumentsCut(text, cwd) {
  let cut = Math.ceil(text.length / 2);
  if (!cwd) return cut;
  for (const needle of [cwd, JSON.stringify(cwd).slice(1, -1)]) {
    for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
      if (cut > i && cut < i + needle.length) cut = i;
    }
  }
  return cut;
}

let seq = 0;
const nextId = (p) => `${p}${Date.now().toString(36)}${(++seq).toString(36).padStart(3, '0')}`;

// ---------------------------------------------------------------- OpenAI Responses API
function openaiContext(body) {
  const input = Array.isArray(body.input) ? body.input : [];
  const outputs = input.filter((i) => i && (i.type === 'function_call_output' || i.type === 'custom_tool_call_output' || i.type === 'local_shell_call_output'));
  const last = outputs[outputs.length - 1];
  const lastText = last ? JSON.stringify(last.output ?? '') : '';
  return {
    step: outputs.length,
    lastToolFailed: last ? !/exited with code 0|exit code: 0|"exit_code":0/.test(lastText) : undefined,
    allText: JSON.stringify(input),
    toolNames: (body.tools || []).map((t) => t.name || t.type),
    editSteps: editSteps((body.tools || []).filter((t) => t && t.name).map((t) => ({ name: t.name, description: t.description, schema: t.type === 'function' ? t.parameters : undefined }))),
  };
}

function openaiShellCall(ctx, command) {
  if (ctx.toolNames.includes('exec_command')) return { name: 'exec_command', arguments: JSON.stringify({ cmd: command }) };
  if (ctx.toolNames.includes('shell_command')) return { name: 'shell_command', arguments: JSON.stringify({ command }) };
  return { name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', command] }) };
}

function handleOpenAI(body, res, state) {
  const ctx = openaiContext(body);
  ctx.cwd = state.cwd;
  const p = plan(state.scenario, ctx.step, ctx);
  const respId = nextId('resp_mock');
  const model = body.model || 'gpt-5-codex';
  const created = Math.floor(Date.now() / 1000);
  let n = 0;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: n++, ...data })}\n\n`);
  const base = { id: respId, object: 'response', created_at: created, model, output: [], parallel_tool_calls: false, tool_choice: 'auto', tools: [] };
  send('response.created', { response: { ...base, status: 'in_progress' } });
  send('response.in_progress', { response: { ...base, status: 'in_progress' } });
  const output = [];
  let idx = 0;
  let outTokens = 0;
  let reasoningTokens = 0;
  if (p.reasoning) {
    const item = { id: nextId('rs_mock'), type: 'reasoning', summary: [] };
    send('response.output_item.added', { output_index: idx, item });
    const summary = `**Planning** ${p.reasoning}`;
    send('response.reasoning_summary_part.added', { item_id: item.id, output_index: idx, summary_index: 0, part: { type: 'summary_text', text: '' } });
    send('response.reasoning_summary_text.delta', { item_id: item.id, output_index: idx, summary_index: 0, delta: summary });
    send('response.reasoning_summary_text.done', { item_id: item.id, output_index: idx, summary_index: 0, text: summary });
    send('response.reasoning_summary_part.done', { item_id: item.id, output_index: idx, summary_index: 0, part: { type: 'summary_text', text: summary } });
    const done = { ...item, summary: [{ type: 'summary_text', text: summary }] };
    send('response.output_item.done', { output_index: idx, item: done });
    output.push(done);
    reasoningTokens = tokensOf(summary) + 40;
    idx++;
  }
  if (p.text && !p.call) {
    const item = { id: nextId('msg_mock'), type: 'message', status: 'in_progress', role: 'assistant', content: [] };
    send('response.output_item.added', { output_index: idx, item });
    send('response.content_part.added', { item_id: item.id, output_index: idx, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    const words = p.text.match(/\S+\s*/g) || [p.text];
    for (const w of words) send('response.output_text.delta', { item_id: item.id, output_index: idx, content_index: 0, delta: w });
    send('response.output_text.done', { item_id: item.id, output_index: idx, content_index: 0, text: p.text });
    send('response.content_part.done', { item_id: item.id, output_index: idx, content_index: 0, part: { type: 'output_text', text: p.text, annotations: [] } });
    const done = { ...item, status: 'completed', content: [{ type: 'output_text', text: p.text, annotations: [] }] };
    send('response.output_item.done', { output_index: idx, item: done });
    output.push(done);
    outTokens += tokensOf(p.text);
    idx++;
  }
  if (p.call && p.call.kind === 'shell') {
    const fc = openaiShellCall(ctx, p.call.command);
    const item = { id: nextId('fc_mock'), type: 'function_call', status: 'in_progress', call_id: nextId('call_mock'), name: fc.name, arguments: '' };
    send('response.output_item.added', { output_index: idx, item });
    send('response.function_call_arguments.delta', { item_id: item.id, output_index: idx, delta: fc.arguments });
    send('response.function_call_arguments.done', { item_id: item.id, output_index: idx, arguments: fc.arguments });
    const done = { ...item, status: 'completed', arguments: fc.arguments };
    send('response.output_item.done', { output_index: idx, item: done });
    output.push(done);
    outTokens += tokensOf(fc.arguments) + 12;
    idx++;
  }
  if (p.call && p.call.kind === 'file') {
    const args = fileCallArguments(p.call.step, state.cwd);
    let done;
    if (args.freeform !== undefined) {
      // a freeform (custom) tool such as Codex's apply_patch: its input is the patch text
      const item = { id: nextId('ctc_mock'), type: 'custom_tool_call', status: 'in_progress', call_id: nextId('call_mock'), name: p.call.step.tool.name, input: '' };
      send('response.output_item.added', { output_index: idx, item });
      send('response.custom_tool_call_input.delta', { item_id: item.id, output_index: idx, delta: args.freeform });
      send('response.custom_tool_call_input.done', { item_id: item.id, output_index: idx, input: args.freeform });
      done = { ...item, status: 'completed', input: args.freeform };
      outTokens += tokensOf(args.freeform) + 12;
    } else {
      const json = JSON.stringify(args);
      const item = { id: nextId('fc_mock'), type: 'function_call', status: 'in_progress', call_id: nextId('call_mock'), name: p.call.step.tool.name, arguments: '' };
      send('response.output_item.added', { output_index: idx, item });
      send('response.function_call_arguments.delta', { item_id: item.id, output_index: idx, delta: json });
      send('response.function_call_arguments.done', { item_id: item.id, output_index: idx, arguments: json });
      done = { ...item, status: 'completed', arguments: json };
      outTokens += tokensOf(json) + 12;
    }
    send('response.output_item.done', { output_index: idx, item: done });
    output.push(done);
    idx++;
  }
  const inputTokens = tokensOf(body.input) + tokensOf(body.instructions) + tokensOf(body.tools);
  const cached = ctx.step > 0 || CONTINUES.has(state.scenario) ? Math.floor(inputTokens * 0.8 / 64) * 64 : 0;
  outTokens += reasoningTokens;
  const usage = {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: outTokens,
    output_tokens_details: { reasoning_tokens: reasoningTokens },
    total_tokens: inputTokens + outTokens,
  };
  send('response.completed', { response: { ...base, status: 'completed', output, usage } });
  res.end();
  return { scenario: state.scenario, step: ctx.step, plan: p, usage };
}

// ---------------------------------------------------------------- OpenAI Chat Completions API
// Used by the BYOK / "OpenAI-compatible" providers of Copilot CLI, pi, Qwen Code, opencode and Continue.
// The shell and subagent tools are found by name in the request's tool list (each CLI names them its own
// way); their arguments are filled from the tool's JSON schema (command / description / prompt / agent type).
const CHAT_SHELL_TOOLS = ['bash', 'run_shell_command', 'shell', 'run_terminal_command', 'exec_command', 'shell_command', 'terminal'];
const CHAT_AGENT_TOOLS = ['task', 'agent', 'subagent', 'run_subagent'];

function chatToolList(body) {
  return (Array.isArray(body.tools) ? body.tools : []).map((t) => (t && t.function ? t.function : t)).filter((f) => f && f.name);
}

function chatMessageText(m) {
  if (typeof m.content === 'string') return m.content;
  if (Array.isArray(m.content)) return m.content.map((c) => (typeof c === 'string' ? c : c && (c.text ?? ''))).join('');
  return '';
}

function chatContext(body) {
  const msgs = Array.isArray(body.messages) ? body.messages : [];
  const results = msgs.filter((m) => m && m.role === 'tool');
  const last = results[results.length - 1];
  const lastText = last ? chatMessageText(last) : '';
  const tools = chatToolList(body);
  const byName = (names) => tools.find((t) => names.includes(t.name.toLowerCase()));
  return {
    step: results.length,
    lastToolFailed: last ? /exit(ed)? (code|status)[: ]*[1-9]|code [1-9]\b|No such file|cannot access|not found|does not exist|"?error"?\s*[:=]/i.test(lastText) : undefined,
    allText: JSON.stringify(msgs),
    userTexts: msgs.filter((m) => m && m.role === 'user').map(chatMessageText),
    tools,
    shellTool: byName(CHAT_SHELL_TOOLS) || tools.find((t) => t.parameters && t.parameters.properties && t.parameters.properties.command),
    agentTool: byName(CHAT_AGENT_TOOLS),
    editSteps: editSteps(tools.map((t) => ({ name: t.name, description: t.description, schema: t.parameters }))),
    resultTexts: results.map(chatMessageText),
  };
}

function chatCallArguments(tool, call) {
  const props = (tool.parameters && tool.parameters.properties) || {};
  const args = {};
  if (call.kind === 'shell') {
    args.command = props.command && props.command.type === 'array' ? ['bash', '-lc', call.command] : call.command;
    if (props.description) args.description = call.description;
  } else {
    if (props.description) args.description = call.description;
    for (const key of ['prompt', 'task', 'instructions', 'query']) if (props[key]) { args[key] = call.prompt; break; }
    if (!Object.keys(args).some((k) => k !== 'description')) args.prompt = call.prompt;
    for (const key of ['subagent_type', 'agent_type', 'subagent_name', 'agent', 'subagent', 'agentName', 'name']) {
      if (!props[key]) continue;
      const en = props[key].enum;
      // no enum: pick the general agent the tool's description names (opencode lists `general`, Copilot and Qwen `general-purpose`)
      const described = `${tool.description || ''} ${props[key].description || ''}`;
      args[key] = Array.isArray(en) && en.length ? (en.find((e) => /general/.test(e)) || en[0]) : /general-purpose/.test(described) || !/\bgeneral\b/.test(described) ? 'general-purpose' : 'general';
      break;
    }
  }
  for (const req of (tool.parameters && tool.parameters.required) || []) {
    if (args[req] !== undefined) continue;
    const t = props[req] || {};
    if (Array.isArray(t.enum) && t.enum.length) args[req] = t.enum[0];
    else if (t.type === 'boolean') args[req] = false;
    else if (t.type === 'number' || t.type === 'integer') args[req] = 60;
    else args[req] = call.description;
  }
  return JSON.stringify(args);
}

function handleChat(body, res, state) {
  const ctx = chatContext(body);
  const isSubagent = ctx.userTexts.some((t) => t.includes(SUBAGENT_MARKER));
  let scenario = isSubagent ? 'subagent-inner' : state.scenario;
  let p;
  if (!ctx.tools.length && !isSubagent) {
    // side request (title, summary, next-speaker check, ...): a short text answer
    scenario = 'side';
    p = { text: 'Mock session' };
  } else {
    p = plan(scenario, ctx.step, ctx);
  }
  let call = null;
  if (p.call && p.call.kind === 'file') {
    call = { id: nextId('call_mock'), name: p.call.step.tool.name, arguments: JSON.stringify(fileCallArguments(p.call.step, state.cwd)) };
  } else if (p.call) {
    const tool = p.call.kind === 'agent' ? ctx.agentTool : ctx.shellTool;
    if (tool) call = { id: nextId('call_mock'), name: tool.name, arguments: chatCallArguments(tool, p.call) };
    else p = { text: `${p.text || ''} (mock: the request offers no ${p.call.kind} tool)`.trim() };
  }
  const id = nextId('chatcmpl-mock');
  const model = body.model || 'gpt-4.1';
  const created = Math.floor(Date.now() / 1000);
  const prompt = tokensOf(body.messages) + tokensOf(body.tools);
  const cached = ctx.step > 0 || scenario === 'resume-2' ? Math.floor(prompt * 0.8 / 64) * 64 : 0;
  const completion = (p.text ? tokensOf(p.text) : 0) + (call ? tokensOf(call.arguments) + 12 : 0);
  const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: cached }, completion_tokens_details: { reasoning_tokens: 0 } };
  const finish = call ? 'tool_calls' : 'stop';
  if (!body.stream) {
    const message = { role: 'assistant', content: p.text || null, ...(call ? { tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }] } : {}) };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finish }], usage }));
    return { scenario, step: ctx.step, plan: p, stream: false, usage };
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (choices, extra = {}) => res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, system_fingerprint: 'fp_mock', choices, ...extra })}\n\n`);
  chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
  if (p.text) for (const w of p.text.match(/\S+\s*/g) || [p.text]) chunk([{ index: 0, delta: { content: w }, finish_reason: null }]);
  if (call) {
    chunk([{ index: 0, delta: { tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }, finish_reason: null }]);
    const half = argumentsCut(call.arguments, state.cwd);
    chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: call.arguments.slice(0, half) } }] }, finish_reason: null }]);
    chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: call.arguments.slice(half) } }] }, finish_reason: null }]);
  }
  // As the OpenAI API does: with stream_options.include_usage the usage comes in a last chunk with no
  // choices; without it, the usage rides on the finish chunk (as many OpenAI-compatible servers send it),
  // so a client that reads it either way records tokens.
  const wantsUsageChunk = !!(body.stream_options && body.stream_options.include_usage);
  chunk([{ index: 0, delta: {}, finish_reason: finish }], wantsUsageChunk ? {} : { usage });
  if (wantsUsageChunk) chunk([], { usage });
  res.write('data: [DONE]\n\n');
  res.end();
  return { scenario, step: ctx.step, plan: p, usage };
}

// ---------------------------------------------------------------- Anthropic Messages API
function anthropicContext(body) {
  const msgs = Array.isArray(body.messages) ? body.messages : [];
  const results = [];
  const userTexts = [];
  for (const m of msgs) {
    const content = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content || [];
    for (const c of content) {
      if (c.type === 'tool_result') results.push(c);
      if (m.role === 'user' && c.type === 'text') userTexts.push(c.text);
    }
  }
  const last = results[results.length - 1];
  return {
    step: results.length,
    lastToolFailed: last ? !!last.is_error : undefined,
    allText: JSON.stringify(msgs),
    userTexts,
    toolNames: (body.tools || []).map((t) => t.name),
    editSteps: editSteps((body.tools || []).filter((t) => t && t.name).map((t) => ({ name: t.name, description: t.description, schema: t.input_schema }))),
  };
}

function handleAnthropic(body, res, state) {
  const ctx = anthropicContext(body);
  const isSubagent = ctx.userTexts.some((t) => t.includes(SUBAGENT_MARKER));
  // the main agent's requests offer Bash (or, in the edit case, the file tools); side requests offer none
  const hasShell = ctx.toolNames.includes('Bash') || (state.scenario === 'edit' && ctx.editSteps.length > 0);
  let p;
  let scenario = state.scenario;
  if (isSubagent) scenario = 'subagent-inner';
  if (!hasShell && !isSubagent) {
    // side request (title / summary / classification): a short, valid text answer
    scenario = 'side';
    p = { text: 'Mock session' };
  } else {
    p = plan(scenario, ctx.step, ctx);
  }
  const msgId = nextId('msg_mock');
  const model = body.model || 'claude-sonnet-4-5';
  const inputTokens = tokensOf(body.messages) + tokensOf(body.system) + tokensOf(body.tools);
  const cacheRead = ctx.step > 0 || CONTINUES.has(scenario) ? Math.floor(inputTokens * 0.85) : 0;
  const cacheCreate = ctx.step === 0 && scenario !== 'side' ? Math.floor(inputTokens * 0.85) : Math.floor(inputTokens * 0.05);
  const uncached = Math.max(3, inputTokens - cacheRead - cacheCreate);
  if (body.stream === false || body.stream === undefined) {
    const content = [{ type: 'text', text: p.text }];
    const out = tokensOf(p.text);
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': nextId('req_mock') });
    res.end(JSON.stringify({ id: msgId, type: 'message', role: 'assistant', model, content, stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: uncached, cache_creation_input_tokens: cacheCreate, cache_read_input_tokens: cacheRead, output_tokens: out } }));
    return { scenario, step: ctx.step, plan: p, stream: false };
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': nextId('req_mock') });
  const send = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send('message_start', { message: { id: msgId, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: uncached, cache_creation_input_tokens: cacheCreate, cache_read_input_tokens: cacheRead, output_tokens: 1, service_tier: 'standard' } } });
  let idx = 0;
  let out = 0;
  if (p.text) {
    send('content_block_start', { index: idx, content_block: { type: 'text', text: '' } });
    const words = p.text.match(/\S+\s*/g) || [p.text];
    for (const w of words) send('content_block_delta', { index: idx, delta: { type: 'text_delta', text: w } });
    send('content_block_stop', { index: idx });
    out += tokensOf(p.text);
    idx++;
  }
  let stop = 'end_turn';
  if (p.call) {
    let name;
    let input;
    if (p.call.kind === 'file') {
      name = p.call.step.tool.name;
      input = fileCallArguments(p.call.step, state.cwd);
    } else if (p.call.kind === 'agent') {
      name = ctx.toolNames.includes('Agent') ? 'Agent' : 'Task';
      input = { description: p.call.description, prompt: p.call.prompt, subagent_type: 'general-purpose' };
    } else {
      name = 'Bash';
      input = { command: p.call.command, description: p.call.description };
    }
    const json = JSON.stringify(input);
    send('content_block_start', { index: idx, content_block: { type: 'tool_use', id: nextId('toolu_mock'), name, input: {} } });
    const half = argumentsCut(json, state.cwd);
    send('content_block_delta', { index: idx, delta: { type: 'input_json_delta', partial_json: json.slice(0, half) } });
    send('content_block_delta', { index: idx, delta: { type: 'input_json_delta', partial_json: json.slice(half) } });
    send('content_block_stop', { index: idx });
    out += tokensOf(json) + 20;
    stop = 'tool_use';
  }
  send('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { input_tokens: uncached, cache_creation_input_tokens: cacheCreate, cache_read_input_tokens: cacheRead, output_tokens: out } });
  send('message_stop', {});
  res.end();
  return { scenario, step: ctx.step, plan: p };
}

// ---------------------------------------------------------------- Gemini generateContent
function geminiContext(body) {
  const contents = Array.isArray(body.contents) ? body.contents : [];
  const responses = [];
  for (const c of contents) for (const part of c.parts || []) if (part.functionResponse) responses.push(part.functionResponse);
  const last = responses[responses.length - 1];
  const lastText = last ? JSON.stringify(last.response ?? '') : '';
  return {
    step: responses.length,
    lastToolFailed: last ? /"error"|Exit Code: [1-9]|exit code [1-9]/i.test(lastText) : undefined,
    allText: JSON.stringify(contents),
    hasTools: Array.isArray(body.tools) && body.tools.length > 0,
    editSteps: editSteps((Array.isArray(body.tools) ? body.tools : []).flatMap((t) => (t && t.functionDeclarations) || []).filter((f) => f && f.name).map((f) => ({ name: f.name, description: f.description, schema: f.parametersJsonSchema || f.parameters }))),
  };
}

function geminiPlanResponse(body, state, modelFromPath) {
  const ctx = geminiContext(body);
  const gc = body.generationConfig || body.config || {};
  const wantsJson = /json/i.test(gc.responseMimeType || '') || gc.responseJsonSchema || gc.responseSchema;
  let p;
  let scenario = state.scenario;
  if (wantsJson) {
    scenario = 'side-json';
    const schemaText = JSON.stringify(gc.responseJsonSchema || gc.responseSchema || {});
    let obj = {};
    if (/model_choice/.test(schemaText)) obj = { reasoning: 'Simple request.', model_choice: 'flash' };
    else if (/next_speaker/.test(schemaText)) obj = { reasoning: 'The model answered.', next_speaker: 'user' };
    else if (/corrected/.test(schemaText)) obj = {};
    p = { text: JSON.stringify(obj) };
  } else if (!ctx.hasTools) {
    scenario = 'side';
    p = { text: 'Mock summary.' };
  } else {
    p = plan(scenario, ctx.step, ctx);
  }
  const parts = [];
  if (p.text) parts.push({ text: p.text });
  if (p.call && p.call.kind === 'shell') parts.push({ functionCall: { name: 'run_shell_command', args: { command: p.call.command, description: p.call.description } } });
  if (p.call && p.call.kind === 'file') parts.push({ functionCall: { name: p.call.step.tool.name, args: fileCallArguments(p.call.step, state.cwd) } });
  const prompt = tokensOf(body.contents) + tokensOf(body.systemInstruction) + tokensOf(body.tools);
  const candidates = parts.reduce((a, part) => a + tokensOf(part), 0);
  const thoughts = p.reasoning ? tokensOf(p.reasoning) + 30 : 0;
  const cached = ctx.step > 0 || CONTINUES.has(scenario) ? Math.floor(prompt * 0.75) : 0;
  const usageMetadata = { promptTokenCount: prompt, candidatesTokenCount: candidates, totalTokenCount: prompt + candidates + thoughts, ...(cached ? { cachedContentTokenCount: cached } : {}), ...(thoughts ? { thoughtsTokenCount: thoughts } : {}) };
  const responseId = nextId('gresp_mock');
  return { scenario, ctx, p, parts, usageMetadata, responseId, modelVersion: modelFromPath || 'gemini-2.5-pro' };
}

function handleGemini(body, res, state, { stream, model }) {
  const r = geminiPlanResponse(body, state, model);
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ candidates: [{ content: { role: 'model', parts: r.parts }, finishReason: 'STOP', index: 0 }], usageMetadata: r.usageMetadata, modelVersion: r.modelVersion, responseId: r.responseId }));
    return { scenario: r.scenario, step: r.ctx.step, plan: r.p, stream: false };
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (obj) => res.write(`data: ${JSON.stringify(obj)}\r\n\r\n`);
  // text is streamed word-group by word-group, the function call (if any) comes in the last chunk
  const textPart = r.parts.find((x) => x.text);
  const callParts = r.parts.filter((x) => x.functionCall);
  const pieces = textPart ? (textPart.text.match(/(?:\S+\s*){1,4}/g) || [textPart.text]) : [];
  const common = { modelVersion: r.modelVersion, responseId: r.responseId };
  pieces.forEach((piece, i) => {
    const lastPiece = i === pieces.length - 1 && callParts.length === 0;
    chunk({ candidates: [{ content: { role: 'model', parts: [{ text: piece }] }, ...(lastPiece ? { finishReason: 'STOP' } : {}), index: 0 }], ...(lastPiece ? { usageMetadata: r.usageMetadata } : { usageMetadata: { promptTokenCount: r.usageMetadata.promptTokenCount, totalTokenCount: r.usageMetadata.promptTokenCount } }), ...common });
  });
  if (callParts.length) chunk({ candidates: [{ content: { role: 'model', parts: callParts }, finishReason: 'STOP', index: 0 }], usageMetadata: r.usageMetadata, ...common });
  if (!pieces.length && !callParts.length) chunk({ candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }], usageMetadata: r.usageMetadata, ...common });
  res.end();
  return { scenario: r.scenario, step: r.ctx.step, plan: r.p };
}

// ---------------------------------------------------------------- server
export function startMockServer({ port = 0, logFile } = {}) {
  // cwd: the project folder of the case being run (set by the generator), for the file tools' absolute paths
  const state = { scenario: 'text', requests: [], cwd: undefined };
  const log = (entry) => {
    state.requests.push(entry);
    if (logFile) appendFileSync(logFile, JSON.stringify(entry) + '\n');
  };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body = {};
      try { body = raw ? JSON.parse(raw) : {}; } catch { body = {}; }
      const url = new URL(req.url, 'http://127.0.0.1');
      const path = url.pathname;
      const entry = { t: new Date().toISOString(), method: req.method, path, search: url.search, scenarioSet: state.scenario, bytes: raw.length };
      // the tool names the request offers (Gemini: its function declarations), for reading the log
      if (Array.isArray(body.tools)) entry.tools = body.tools.flatMap((t) => (t && t.functionDeclarations ? t.functionDeclarations.map((f) => f.name) : [t && ((t.function && t.function.name) || t.name || t.type)]));
      try {
        if (path === '/__mock/scenario' && req.method === 'POST') {
          state.scenario = body.name || 'text';
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ ok: true, scenario: state.scenario }));
          return;
        }
        if (req.method === 'POST' && /\/chat\/completions$/.test(path)) {
          Object.assign(entry, { api: 'openai-chat', model: body.model }, handleChat(body, res, state));
        } else if (req.method === 'POST' && /\/responses$/.test(path)) {
          Object.assign(entry, { api: 'openai', model: body.model }, handleOpenAI(body, res, state));
        } else if (req.method === 'POST' && /\/messages\/count_tokens$/.test(path)) {
          entry.api = 'anthropic-count';
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ input_tokens: tokensOf(body.messages) + tokensOf(body.system) + tokensOf(body.tools) }));
        } else if (req.method === 'POST' && /\/messages$/.test(path)) {
          Object.assign(entry, { api: 'anthropic', model: body.model }, handleAnthropic(body, res, state));
        } else if (req.method === 'POST' && /:streamGenerateContent$/.test(path)) {
          const model = decodeURIComponent(path.split('/models/')[1] || '').replace(/:.*$/, '');
          Object.assign(entry, { api: 'gemini-stream', model }, handleGemini(body, res, state, { stream: true, model }));
        } else if (req.method === 'POST' && /:generateContent$/.test(path)) {
          const model = decodeURIComponent(path.split('/models/')[1] || '').replace(/:.*$/, '');
          Object.assign(entry, { api: 'gemini', model }, handleGemini(body, res, state, { stream: false, model }));
        } else if (req.method === 'POST' && /:countTokens$/.test(path)) {
          entry.api = 'gemini-count';
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ totalTokens: tokensOf(body.contents) }));
        } else if (req.method === 'POST' && /:embedContent$/.test(path)) {
          entry.api = 'gemini-embed';
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ embedding: { values: Array.from({ length: 8 }, (_, i) => i / 8) } }));
        } else if (req.method === 'GET' && /\/models$/.test(path)) {
          entry.api = 'models';
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ object: 'list', data: [], models: [] }));
        } else {
          entry.api = 'unknown';
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `mock: no route for ${req.method} ${path}`, type: 'not_found' } }));
        }
      } catch (err) {
        entry.error = String(err && err.stack || err);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'mock failure' } }));
      } finally {
        if (entry.plan) entry.plan = { text: entry.plan.text, call: entry.plan.call && entry.plan.call.kind === 'file' ? { kind: 'file', tool: entry.plan.call.step.tool.name, op: entry.plan.call.step.kind, file: entry.plan.call.step.file } : entry.plan.call };
        log(entry);
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const addr = server.address();
      resolve({
        port: addr.port,
        url: `http://127.0.0.1:${addr.port}`,
        state,
        setScenario(name) { state.scenario = name; },
        setCwd(dir) { state.cwd = dir; },
        close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(() => r()); }),
      });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] || '').href) {
  const port = Number(process.argv[2] || 0);
  const logFile = process.env.MOCK_LOG || undefined;
  const srv = await startMockServer({ port, logFile });
  console.log(`LISTENING ${srv.port}`);
}
