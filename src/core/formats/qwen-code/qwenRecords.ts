import { isObj, Obj } from '../common';

/** The dialects Qwen Code writes: its chat recordings, and the `-o stream-json` / `-o json` stdout. */
export type QwenDialect = 'chat-recording' | 'stream-json';

/** Line `type`s of a chat recording (`ChatRecord.type`). */
export const QWEN_RECORD_TYPES: ReadonlySet<string> = new Set(['user', 'assistant', 'tool_result', 'system']);

/** The Gemini-style `parts` of a recorded message, or null when the line has none. */
export function messageParts(v: Obj): Obj[] | null {
  const m = isObj(v.message) ? v.message : null;
  if (!m || !Array.isArray(m.parts)) return null;
  return m.parts.filter(isObj);
}

/**
 * True for a line of a chat recording: `{uuid, parentUuid, sessionId, type, …}` whose message (when it has one)
 * holds Gemini-style `parts`, never the Messages API `content` of a Claude Code transcript.
 */
export function isChatRecord(v: unknown): v is Obj {
  if (!isObj(v) || typeof v.uuid !== 'string' || typeof v.sessionId !== 'string' || !('parentUuid' in v)) return false;
  if (typeof v.type !== 'string' || !QWEN_RECORD_TYPES.has(v.type)) return false;
  if (isObj(v.message)) return Array.isArray(v.message.parts) && !('content' in v.message);
  return v.type === 'system';
}

/**
 * What only Qwen Code writes on a recording line: a message of `parts`, a `tool_result` line with its
 * `toolCallResult`, or its own telemetry (`qwen-code.*` ui events). A `system` line alone vouches for nothing.
 */
export function isQwenSpecific(v: Obj): boolean {
  if (messageParts(v) !== null) return true;
  if (isObj(v.toolCallResult)) return true;
  const ev = isObj(v.systemPayload) && isObj(v.systemPayload.uiEvent) ? v.systemPayload.uiEvent['event.name'] : null;
  return typeof ev === 'string' && ev.startsWith('qwen-code.');
}

/** True for a stream-json (or json array) message: `{type, session_id, …}` shaped like the Claude Agent SDK's. */
export function isStreamMessage(v: unknown): v is Obj {
  return isObj(v) && typeof v.type === 'string' && typeof v.session_id === 'string';
}

/** True for the `system`/`init` message of a Qwen Code run: it names `qwen_code_version`. */
export function isQwenInit(v: unknown): v is Obj {
  return isStreamMessage(v) && v.type === 'system' && v.subtype === 'init' && typeof v.qwen_code_version === 'string';
}

/**
 * True for a stream message only Qwen Code writes, for a stream whose `system`/`init` (the one line naming
 * `qwen_code_version`) was cut off: an assistant message whose `message.id` is its line's `uuid` (Claude Code's are
 * the API's `msg_…` ids) with the usage Qwen writes (`input_tokens`, `output_tokens`, and `total_tokens` or nothing
 * else; Claude's has cache-creation counts), a `goal_state` stream event, or a `result` whose usage has
 * `total_tokens` and no `total_cost_usd` beside it.
 */
export function isQwenStreamMark(v: unknown): boolean {
  if (!isStreamMessage(v)) return false;
  if (v.type === 'assistant' && isObj(v.message) && typeof v.uuid === 'string' && v.message.id === v.uuid && isObj(v.message.usage)) {
    const u = v.message.usage;
    const keys = Object.keys(u);
    return 'total_tokens' in u || (keys.length === 2 && 'input_tokens' in u && 'output_tokens' in u);
  }
  if (v.type === 'stream_event') return isObj(v.event) && v.event.type === 'goal_state';
  if (v.type === 'result') return isObj(v.usage) && 'total_tokens' in v.usage && !('total_cost_usd' in v) && !('modelUsage' in v);
  return false;
}

/** The text of a recorded message's text parts, joined. */
export function partsText(parts: readonly Obj[]): string {
  return parts.map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
}

