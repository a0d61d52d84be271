/**
 * Finds the conversation inside one event's JSON, whatever the runtime: role-tagged messages (OpenAI,
 * Anthropic, Codex, Claude Code shapes), content blocks, tool calls and tool results, context fragments, and
 * the text fields a reader wants (prompts, goals, responses, outputs, errors). Pure and bounded: it walks at
 * most a few thousand values and caps the text it copies. Nothing here interprets text as markup.
 */
import type { ChatMessage, ChatPart } from '../protocol';
import { CALL_ID_KEYS } from '../core/usage/toolStats';
import { outputLanguage } from './transcript/toolShapes';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Longest text copied into one part; the JSON and Raw tabs have the rest. */
export const MAX_PART_CHARS = 100_000;
const MAX_MESSAGES = 500;
const MAX_VISITS = 5000;
const MAX_DEPTH = 8;

/** Keys whose string values are prose a person reads (prompts, answers, outputs, errors). */
const TEXT_KEY = /(^|_)(system|prompt|instructions?|goal|task|query|question|response|completion|answer|output|stdout|stderr|result|text|content|message|summary|reason|reasoning|thinking|error|description|notes?|body|input)$/i;
const ROLE_KEYS = ['role', 'author', 'speaker', 'source', 'lane', 'sender', 'from'];
const NAME_KEYS = ['name', 'tool_name', 'toolName', 'tool', 'function'];
const ARG_KEYS = ['arguments', 'input', 'args', 'parameters', 'params'];
/** Keys whose text is what a program printed (Codex's `aggregated_output`, `stdout`, `stderr`): shown preformatted. */
const OUTPUT_KEY = /(^|_)(output|stdout|stderr)$/i;
const OUTPUT_ROLE = /^(tool|function|ipython)$/i;
const DIGEST = /^(sha256:|blob:\/\/)?[0-9a-f]{16,64}(\.json)?$/;

/** The messages and text fields of one parsed event, in document order. */
export function extractChat(value: unknown): ChatMessage[] {
  const out: ChatMessage[] = [];
  const budget = { visits: 0 };
  walk(value, '', 0, out, budget, null);
  return out.slice(0, MAX_MESSAGES);
}

function walk(v: unknown, path: string, depth: number, out: ChatMessage[], budget: { visits: number }, arrayKey: string | null): void {
  if (out.length >= MAX_MESSAGES || budget.visits++ > MAX_VISITS || depth > MAX_DEPTH) return;
  if (Array.isArray(v)) {
    const key = lastKey(path);
    v.forEach((item, i) => walk(item, `${path}[${i}]`, depth + 1, out, budget, key));
    return;
  }
  if (!isObj(v)) return;
  const msg = asMessage(v, path, arrayKey);
  if (msg) {
    if (msg.parts.length > 0) out.push(msg);
    return;
  }
  for (const [k, child] of Object.entries(v)) {
    const p = path ? `${path}.${k}` : k;
    // Claude Code keeps a structured copy of a tool result beside the message that holds it: read the message.
    // (`tool_use_result` in stream-json), and a subagent's lines name its task (`task_description`) on each.
    if ((k === 'toolUseResult' || k === 'tool_use_result' || k === 'task_description') && isObj(v.message)) continue;
    // Encrypted reasoning is opaque: its reasoning object says how long it is (reasoningPart).
    if (k === 'encrypted_content') continue;
    if (typeof child === 'string') {
      if (TEXT_KEY.test(k) && isProse(child)) out.push({ role: k, path: p, parts: [OUTPUT_KEY.test(k) ? asOutput(textPart(child)) : textPart(child)] });
    } else if (typeof child === 'object' && child !== null) {
      walk(child, p, depth + 1, out, budget, null);
    }
  }
}

/** Recognises one object as a message, a tool call, a tool result or a context fragment. */
function asMessage(o: Obj, path: string, arrayKey: string | null): ChatMessage | null {
  const role = typeof o.role === 'string' ? o.role : null;
  const hasBody = 'content' in o || 'text' in o || 'parts' in o;
  if (role !== null && (hasBody || Array.isArray(o.tool_calls))) {
    const body = partsOf(o.content ?? o.text ?? o.parts);
    // A tool's message (OpenAI's `role: tool`) carries what the tool printed or returned: output, not Markdown.
    const parts = [...(OUTPUT_ROLE.test(role) ? body.map(asOutput) : body), ...toolCallsOf(o.tool_calls)];
    return { role, path, parts };
  }
  if (Array.isArray(o.tool_calls) && hasBody) {
    return { role: 'assistant', path, parts: [...partsOf(o.content ?? o.text), ...toolCallsOf(o.tool_calls)] };
  }
  if (o.type === 'function_call' || o.type === 'tool_use' || isToolCall(o)) {
    const parts: ChatPart[] = [toolCall(o)];
    const output = o.output ?? o.result;
    if (output !== undefined && output !== null) parts.push({ type: 'toolResult', id: callId(o) ?? (o.type === 'function_call' || o.type === 'tool_use' ? null : str(o.id)), ...resultBody(output), isError: isErrorResult(o) });
    return { role: parts.length > 1 ? 'tool' : 'assistant', path, parts };
  }
  const gemini = geminiMessage(o);
  if (gemini) return { role: gemini.role, path, parts: gemini.parts };
  const copy = codexUiMessage(o);
  if (copy) return { role: copy.role, path, parts: copy.parts };
  if (o.type === 'reasoning' && role === null) return { role: 'assistant', path, parts: reasoningPart(o) };
  if (isObj(o.functionResponse)) return { role: 'tool', path, parts: [functionResponsePart(o.functionResponse)] };
  if (o.type === 'function_call_output' || o.type === 'tool_result' || isToolResult(o)) {
    return { role: 'tool', path, parts: [toolResult(o)] };
  }
  if (arrayKey !== null && (typeof o.content === 'string' || typeof o.text === 'string')) {
    const text = (typeof o.content === 'string' ? o.content : o.text) as string;
    const who = ROLE_KEYS.map((k) => o[k]).find((x): x is string => typeof x === 'string') ?? arrayKey;
    return { role: who, path, parts: text.length > 0 ? [textPart(text)] : [] };
  }
  return null;
}

function isToolCall(o: Obj): boolean {
  const name = NAME_KEYS.some((k) => typeof o[k] === 'string');
  const args = ARG_KEYS.some((k) => k in o && o[k] !== null);
  return name && args;
}
function isToolResult(o: Obj): boolean {
  return CALL_ID_KEYS.some((k) => typeof o[k] === 'string') && ('output' in o || 'content' in o || 'result' in o || 'durable_content' in o);
}

/** The parts of a message body: a string, an array of content blocks, or `{blocks: [...]}`. */
export function partsOf(content: unknown): ChatPart[] {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return content.length > 0 ? [textPart(content)] : [];
  if (Array.isArray(content)) return content.flatMap(blockPart);
  if (isObj(content) && Array.isArray(content.blocks)) return content.blocks.flatMap(blockPart);
  return [{ type: 'json', value: content }];
}

function blockPart(b: unknown): ChatPart[] {
  if (typeof b === 'string') return b.length > 0 ? [textPart(b)] : [];
  if (!isObj(b)) return [{ type: 'json', value: b }];
  const type = typeof b.type === 'string' ? b.type : '';
  if (type === 'thinking' || type === 'reasoning' || type === 'redacted_thinking') {
    const text = str(b.thinking) ?? str(b.text) ?? summaryText(b.summary);
    return text ? [{ type: 'thinking', text: cap(text).text }] : reasoningPart(b);
  }
  if (type === 'tool_use' || type === 'function_call' || type === 'tool_call') return [toolCall(b)];
  if (type === 'tool_result' || type === 'function_call_output') return [toolResult(b)];
  if (isObj(b.functionResponse)) return [functionResponsePart(b.functionResponse)];
  const text = str(b.text);
  if (text !== null) return [textPart(text)];
  return [{ type: 'json', value: b }];
}

function toolCallsOf(calls: unknown): ChatPart[] {
  return Array.isArray(calls) ? calls.filter(isObj).map(toolCall) : [];
}

function toolCall(o: Obj): ChatPart {
  const fn = isObj(o.function) ? o.function : null;
  const name = str(fn?.name) ?? NAME_KEYS.map((k) => str(o[k])).find((x) => x !== null) ?? '(unnamed tool)';
  const rawArgs = fn ? fn.arguments : ARG_KEYS.map((k) => o[k]).find((x) => x !== undefined);
  return { type: 'toolCall', name, id: callId(o) ?? str(o.id), args: parseMaybeJson(rawArgs) };
}

function toolResult(o: Obj): ChatPart {
  const body = o.output ?? o.content ?? o.result ?? o.durable_content;
  return { type: 'toolResult', id: callId(o), ...resultBody(body), isError: isErrorResult(o) };
}

function resultBody(body: unknown): { text: string | null; value?: unknown } {
  if (typeof body === 'string') return { text: cap(body).text };
  // Gemini CLI keeps a call's result as the function responses sent back to the model.
  if (Array.isArray(body) && body.length > 0 && body.every((b) => isObj(b) && isObj(b.functionResponse))) {
    const parts = body.map((b) => functionResponsePart((b as Obj).functionResponse as Obj));
    const texts = parts.map((p) => (p.type === 'toolResult' ? p.text : null));
    if (texts.every((t) => t !== null)) return { text: texts.join('\n') };
  }
  const parts = partsOf(body);
  if (parts.length > 0 && parts.every((p) => p.type === 'text')) return { text: parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n') };
  return body === undefined || body === null ? { text: null } : { text: null, value: body };
}

/**
 * A reasoning step as one thinking part: its summary or content text, or for encrypted reasoning (Codex keeps the
 * model's reasoning as `encrypted_content`) its size, never the ciphertext.
 */
function reasoningPart(o: Obj): ChatPart[] {
  const text = str(o.text) ?? summaryText(o.summary) ?? summaryText(o.content) ?? summaryText(o.summary_text) ?? summaryText(o.raw_content);
  if (text) return [{ type: 'thinking', text: cap(text).text }];
  const enc = o.encrypted_content ?? o.data;
  return typeof enc === 'string' && enc.length > 0 ? [{ type: 'thinking', text: `encrypted reasoning (${enc.length} bytes)` }] : [];
}

/** A Gemini `functionResponse` ({id, name, response: {output | error | …}}) as a tool result. */
function functionResponsePart(fr: Obj): ChatPart {
  const response = fr.response;
  const out = isObj(response) ? response.output ?? response.error ?? response.content : response;
  const body = resultBody(out === undefined ? response : out);
  return { type: 'toolResult', id: str(fr.id), ...body, isError: isObj(response) && response.error !== undefined && response.error !== null };
}

/** A Gemini CLI chat message (`{id, type: user | gemini, content, thoughts?}`): the user's or the model's words. */
function geminiMessage(o: Obj): { role: string; parts: ChatPart[] } | null {
  if ((o.type !== 'user' && o.type !== 'gemini') || typeof o.id !== 'string' || !('content' in o) || 'role' in o || 'message' in o) return null;
  const thoughts = Array.isArray(o.thoughts) ? o.thoughts.filter(isObj).map((t) => [str(t.subject), str(t.description)].filter((x) => x).join(': ')).filter((t) => t !== '') : [];
  const parts: ChatPart[] = [...thoughts.map((t): ChatPart => ({ type: 'thinking', text: cap(t).text })), ...partsOf(o.content)];
  return { role: o.type === 'gemini' ? 'assistant' : 'user', parts };
}

/**
 * The UI's copy of a message that Codex writes beside its model history (`event_msg` `agent_message`,
 * `agent_reasoning`, `user_message`; 0.17x `item_completed` items `AgentMessage`, `UserMessage`, `Reasoning`), read
 * as the message it copies.
 */
function codexUiMessage(o: Obj): { role: string; parts: ChatPart[] } | null {
  const text = str(o.message);
  if (o.type === 'agent_message' && text !== null) return { role: 'assistant', parts: [textPart(text)] };
  if (o.type === 'user_message' && text !== null) return { role: 'user', parts: [textPart(text)] };
  if (o.type === 'agent_reasoning' && str(o.text) !== null) return { role: 'assistant', parts: [{ type: 'thinking', text: cap(str(o.text)!).text }] };
  if (o.type === 'AgentMessage' || o.type === 'UserMessage') {
    const t = summaryText(o.content);
    return { role: o.type === 'AgentMessage' ? 'assistant' : 'user', parts: t ? [textPart(t)] : [] };
  }
  if (o.type === 'Reasoning') return { role: 'assistant', parts: reasoningPart(o) };
  // A turn's end repeats its last answer (`last_agent_message`), as a stream-json run's result line does.
  if (o.type === 'task_complete' && 'last_agent_message' in o) return { role: 'task_complete', parts: [] };
  // Claude Code stream-json: a task's start repeats its Agent call's input, its notification the subagent's report.
  if (o.type === 'system' && (o.subtype === 'task_started' || (o.subtype === 'task_notification' && o.summary_is_report === true))) return { role: 'system', parts: [] };
  if (o.type === 'result' && typeof o.result === 'string' && typeof o.session_id === 'string' && o.is_error !== true) return { role: 'result', parts: [] };
  return null;
}

function isErrorResult(o: Obj): boolean {
  return o.is_error === true || o.isError === true || o.status === 'error' || (typeof o.error === 'string' && o.error.length > 0);
}

function callId(o: Obj): string | null {
  for (const k of CALL_ID_KEYS) if (typeof o[k] === 'string') return o[k] as string;
  return null;
}

/** Tool arguments are often a JSON-encoded string; show them as the value they encode. */
function parseMaybeJson(v: unknown): unknown {
  if (typeof v !== 'string') return v ?? null;
  const t = v.trim();
  if ((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']'))) {
    try {
      return JSON.parse(t);
    } catch {
      return v;
    }
  }
  return v;
}

function summaryText(s: unknown): string | null {
  if (typeof s === 'string') return s;
  if (Array.isArray(s)) return s.map((x) => (isObj(x) ? str(x.text) ?? '' : typeof x === 'string' ? x : '')).join('\n') || null;
  return null;
}

function textPart(text: string): ChatPart {
  const c = cap(text);
  return c.omitted > 0 ? { type: 'text', text: c.text, omitted: c.omitted } : { type: 'text', text: c.text };
}

/** A text part marked as output (preformatted, never Markdown), with the language its text reads as. */
function asOutput(p: ChatPart): ChatPart {
  return p.type === 'text' ? { ...p, output: { language: outputLanguage(p.text) } } : p;
}

function cap(text: string): { text: string; omitted: number } {
  return text.length > MAX_PART_CHARS ? { text: text.slice(0, MAX_PART_CHARS), omitted: text.length - MAX_PART_CHARS } : { text, omitted: 0 };
}

/** Prose, not an id, enum word or digest. */
function isProse(s: string): boolean {
  if (s.length === 0 || DIGEST.test(s)) return false;
  return /\s/.test(s) || s.length > 24;
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

function lastKey(path: string): string | null {
  const m = /([A-Za-z_$][\w$]*)(\[\d+\])*$/.exec(path);
  return m ? m[1] : null;
}
