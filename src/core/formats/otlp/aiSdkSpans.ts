/**
 * The Vercel AI SDK's own span attributes (`ai.*`: its `LegacyOpenTelemetry` integration, and every AI SDK before
 * 7) under the GenAI semantic-convention names the reader knows, so one reader reads both: `ai.operationId` gives
 * the operation (`ai.generateText` / `ai.streamText` a run whose usage sums its steps', `….doGenerate` / `….doStream`
 * a model call, `ai.toolCall` a tool call), `ai.model.id` / `ai.response.model` the models, `ai.usage.*` the
 * tokens, `ai.toolCall.*` the call, `ai.prompt` / `ai.prompt.messages` / `ai.response.text` / `ai.response.toolCalls`
 * the conversation (as `gen_ai.system_instructions` / `gen_ai.input.messages` / `gen_ai.output.messages`). A GenAI
 * attribute the span already has is kept as it is.
 */
import { isObj } from '../common';

/** `ai.operationId` → GenAI operation. */
function operationOf(id: string): string | null {
  if (/^ai\.(generate|stream)(Text|Object)$/.test(id)) return 'invoke_agent';
  if (/^ai\.(generate|stream)(Text|Object)\.do(Generate|Stream)$/.test(id)) return 'chat';
  if (/^ai\.embed(Many)?\.doEmbed$/.test(id)) return 'embeddings';
  if (id === 'ai.toolCall') return 'execute_tool';
  return null;
}

/** `attrs` with the GenAI names of its AI SDK attributes added; `attrs` itself when the span is not an AI SDK span. */
export function withGenAiNames(attrs: Map<string, unknown>): Map<string, unknown> {
  const id = attrs.get('ai.operationId');
  if (typeof id !== 'string') return attrs;
  const out = new Map(attrs);
  const put = (key: string, value: unknown) => {
    if (value !== undefined && value !== null && !out.has(key)) out.set(key, value);
  };
  const first = (...keys: string[]) => keys.map((k) => attrs.get(k)).find((v) => v !== undefined && v !== null);
  put('gen_ai.operation.name', operationOf(id));
  put('gen_ai.request.model', attrs.get('ai.model.id'));
  put('gen_ai.response.model', attrs.get('ai.response.model'));
  const provider = attrs.get('ai.model.provider');
  if (typeof provider === 'string') put('gen_ai.provider.name', provider.split('.')[0]);
  put('gen_ai.usage.input_tokens', first('ai.usage.inputTokens', 'ai.usage.promptTokens'));
  put('gen_ai.usage.output_tokens', first('ai.usage.outputTokens', 'ai.usage.completionTokens'));
  put('gen_ai.usage.cache_read.input_tokens', first('ai.usage.inputTokenDetails.cacheReadTokens', 'ai.usage.cachedInputTokens'));
  put('gen_ai.usage.cache_creation.input_tokens', attrs.get('ai.usage.inputTokenDetails.cacheWriteTokens'));
  put('gen_ai.usage.reasoning.output_tokens', first('ai.usage.outputTokenDetails.reasoningTokens', 'ai.usage.reasoningTokens'));
  const finish = attrs.get('ai.response.finishReason');
  if (typeof finish === 'string') put('gen_ai.response.finish_reasons', [finish]);
  put('gen_ai.tool.name', attrs.get('ai.toolCall.name'));
  put('gen_ai.tool.call.id', attrs.get('ai.toolCall.id'));
  put('gen_ai.tool.call.arguments', attrs.get('ai.toolCall.args'));
  put('gen_ai.tool.call.result', attrs.get('ai.toolCall.result'));
  const input = promptMessages(attrs);
  if (input.system.length > 0) put('gen_ai.system_instructions', JSON.stringify(input.system));
  if (input.messages.length > 0) put('gen_ai.input.messages', JSON.stringify(input.messages));
  const output = responseMessage(attrs);
  if (output) put('gen_ai.output.messages', JSON.stringify([output]));
  return out;
}

type Part = Record<string, unknown>;
interface Message { role: string; parts: Part[] }

function parse(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return undefined;
  }
}

/**
 * The model call's messages (`ai.prompt.messages`: system, user, assistant and tool messages) or the run's prompt
 * (`ai.prompt`: `{ system?, prompt? | messages? }`), with system text apart as the conventions keep it.
 */
function promptMessages(attrs: Map<string, unknown>): { system: Part[]; messages: Message[] } {
  const system: Part[] = [];
  const messages: Message[] = [];
  const prompt = parse(attrs.get('ai.prompt'));
  const list = parse(attrs.get('ai.prompt.messages'));
  const all: unknown[] = Array.isArray(list) ? list : [];
  if (!Array.isArray(list) && isObj(prompt)) {
    if (typeof prompt.system === 'string') all.push({ role: 'system', content: prompt.system });
    if (typeof prompt.prompt === 'string') all.push({ role: 'user', content: prompt.prompt });
    if (Array.isArray(prompt.messages)) all.push(...prompt.messages);
  }
  for (const m of all) {
    if (!isObj(m) || typeof m.role !== 'string') continue;
    const parts = contentParts(m.content);
    if (m.role === 'system') system.push(...parts);
    else if (parts.length > 0) messages.push({ role: m.role, parts });
  }
  return { system, messages };
}

/** An AI SDK message's content (a string, or text / reasoning / tool-call / tool-result parts) as GenAI parts. */
function contentParts(content: unknown): Part[] {
  if (typeof content === 'string') return [{ type: 'text', content }];
  if (!Array.isArray(content)) return [];
  return content.flatMap((p): Part[] => {
    if (!isObj(p)) return [];
    if (p.type === 'text' && typeof p.text === 'string') return [{ type: 'text', content: p.text }];
    if (p.type === 'reasoning' && typeof p.text === 'string') return [{ type: 'reasoning', content: p.text }];
    if (p.type === 'tool-call') return [{ type: 'tool_call', id: p.toolCallId, name: p.toolName, arguments: p.input ?? p.args }];
    if (p.type === 'tool-result') return [{ type: 'tool_call_response', id: p.toolCallId, response: toolOutput(p.output ?? p.result) }];
    return [p];
  });
}

/** A tool result's output (`{ type: text | json | error-text | error-json, value }`) as its value. */
function toolOutput(output: unknown): unknown {
  return isObj(output) && typeof output.type === 'string' && 'value' in output ? output.value : output;
}

/** What the call or run answered: `ai.response.text` and `ai.response.toolCalls`, as one assistant message. */
function responseMessage(attrs: Map<string, unknown>): Message | null {
  const parts: Part[] = [];
  const text = attrs.get('ai.response.text');
  if (typeof text === 'string' && text !== '') parts.push({ type: 'text', content: text });
  const calls = parse(attrs.get('ai.response.toolCalls'));
  if (Array.isArray(calls)) {
    for (const c of calls) if (isObj(c)) parts.push({ type: 'tool_call', id: c.toolCallId, name: c.toolName, arguments: c.input ?? c.args });
  }
  return parts.length > 0 ? { role: 'assistant', parts } : null;
}
