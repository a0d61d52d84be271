/**
 * An OTLP GenAI `execute_tool` span as a tool call: its attributes (`gen_ai.tool.name`, `gen_ai.tool.call.id`,
 * `gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`, and for a shell tool `process.command_line` and
 * `process.exit.code`) become the call and its result, so the transcript reads it like the inline formats.
 */
import type { ChatMessage, ChatPart } from '../../protocol';

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
    const text = typeof result === 'string' ? result : result !== undefined ? JSON.stringify(result) : '';
    parts.push({ type: 'toolResult', id, text: typeof exit === 'number' ? `Exit code: ${exit}\nOutput:\n${text}` : text, isError: failed });
  }
  return { role: 'tool', path: 'attributes', parts };
}

/** OTLP attributes (`[{ key, value: { stringValue | intValue | … } }]`) as a map of plain values. */
function attributes(list: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!Array.isArray(list)) return out;
  for (const kv of list) {
    if (!isObj(kv) || typeof kv.key !== 'string' || !isObj(kv.value)) continue;
    const v = kv.value;
    const plain = v.stringValue ?? v.boolValue ?? v.doubleValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined);
    if (plain !== undefined) out.set(kv.key, plain);
  }
  return out;
}

function parse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}
