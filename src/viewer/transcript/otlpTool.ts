/**
 * An OTLP GenAI `execute_tool` span as a tool call: its attributes (`gen_ai.tool.name`, `gen_ai.tool.call.id`,
 * `gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`, and for a shell tool `process.command_line` and
 * `process.exit.code`) become the call and its result, so the transcript reads it like the inline formats;
 * a chat span's GenAI message attributes become its messages. The AI SDK's own `ai.*` attributes are read under
 * their GenAI names (core/formats/otlp/aiSdkSpans.ts), with the reader's attribute map.
 */
import type { ChatMessage, ChatPart } from '../../protocol';
import { attributeMap } from '../../core/formats/otlp/otlpSpans';
import { withGenAiNames } from '../../core/formats/otlp/aiSdkSpans';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The tool call a span holds, or null when it is not a GenAI tool span. */
export function otlpToolMessage(span: Obj): ChatMessage | null {
  const a = attributes(span.attributes);
  const name = a.get('gen_ai.tool.name');
  if (typeof name !== 'string') return null;
  const id = typeof a.get('gen_ai.tool.call.id') === 'string' ? (a.get('gen_ai.tool.call.id') as string) : null;
  const command = a.get('process.command_line');
  const rawArgs = a.get('gen_ai.tool.call.arguments');
  const args = typeof rawArgs === 'string' ? parse(rawArgs) : typeof command === 'string' ? { command } : {};
  const parts: ChatPart[] = [{ type: 'toolCall', name, id, args }];
  const result = a.get('gen_ai.tool.call.result');
  const exit = a.get('process.exit.code');
  const status = isObj(span.status) ? span.status : {};
  const failed = status.code === 2 || status.code === 'STATUS_CODE_ERROR';
  if (result !== undefined || exit !== undefined) {
    // The span's status message stays a message of its own (the block shows it): it is not the tool's output.
    const text = typeof result === 'string' ? jsonText(result) : result !== undefined ? JSON.stringify(result) : '';
    parts.push({ type: 'toolResult', id, text: typeof exit === 'number' ? `Exit code: ${exit}\nOutput:\n${text}` : text, isError: failed });
  }
  return { role: 'tool', path: 'attributes', parts };
}

/**
 * The messages a GenAI chat span carries (semantic conventions 1.37+): `gen_ai.system_instructions`,
 * `gen_ai.input.messages` (often the whole history, re-sent on every call) and `gen_ai.output.messages`,
 * each a JSON string of `{ role, parts: [{ type: text | tool_call | tool_call_response | reasoning, … }] }`.
 */
export function otlpChatMessages(span: Obj): ChatMessage[] {
  const a = attributes(span.attributes);
  const out: ChatMessage[] = [];
  const system = jsonAttr(a, 'gen_ai.system_instructions');
  if (Array.isArray(system) && system.length > 0) out.push({ role: 'system', path: 'attributes.gen_ai.system_instructions', parts: system.map(genAiPart) });
  for (const key of ['gen_ai.input.messages', 'gen_ai.output.messages']) {
    const list = jsonAttr(a, key);
    if (!Array.isArray(list)) continue;
    list.forEach((m, k) => {
      if (isObj(m) && Array.isArray(m.parts)) out.push({ role: typeof m.role === 'string' ? m.role : 'message', path: `attributes.${key}[${k}]`, parts: m.parts.map(genAiPart) });
    });
  }
  return out;
}

function jsonAttr(a: Map<string, unknown>, key: string): unknown {
  const v = a.get(key);
  return typeof v === 'string' ? parse(v) : v;
}

function genAiPart(p: unknown): ChatPart {
  if (!isObj(p)) return { type: 'json', value: p };
  const id = typeof p.id === 'string' ? p.id : null;
  if (p.type === 'text' && typeof p.content === 'string') return { type: 'text', text: p.content };
  if (p.type === 'reasoning' && typeof p.content === 'string') return { type: 'thinking', text: p.content };
  if (p.type === 'tool_call' && typeof p.name === 'string') return { type: 'toolCall', name: p.name, id, args: typeof p.arguments === 'string' ? parse(p.arguments) : p.arguments ?? {} };
  if (p.type === 'tool_call_response') return { type: 'toolResult', id, text: typeof p.response === 'string' ? p.response : JSON.stringify(p.response ?? null), isError: false };
  return { type: 'json', value: p };
}

/** A span's attributes as the reader maps them, the AI SDK's under their GenAI names too. */
function attributes(list: unknown): Map<string, unknown> {
  return withGenAiNames(attributeMap(list));
}

/** A tool result recorded as JSON text of a string (the AI SDK's `"hello\n"`) is that string; other text as it is. */
function jsonText(s: string): string {
  if (!s.startsWith('"')) return s;
  const v = parse(s);
  return typeof v === 'string' ? v : s;
}

function parse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}
