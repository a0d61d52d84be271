import { isObj, Obj } from '../common';

/** The dialects Gemini CLI writes: chat recordings (JSONL and the older whole-document `.json`), and stdout modes. */
export type GeminiDialect = 'chat-recording' | 'chat-recording-json' | 'stream-json' | 'json-output';

/** Message `type`s of the chat recording service (`ConversationRecord.messages[].type`). */
export const GEMINI_MESSAGE_TYPES: ReadonlySet<string> = new Set(['user', 'gemini', 'info', 'error', 'warning']);
/** Event `type`s of `--output-format stream-json` (`JsonStreamEventType`). */
export const GEMINI_STREAM_TYPES: ReadonlySet<string> = new Set(['init', 'message', 'tool_use', 'tool_result', 'error', 'result']);

/** What one line of a chat recording is, the way the CLI's own loader tells them apart. */
export type RecordingLineKind = 'header' | 'set' | 'rewind' | 'message' | 'unknown';

/**
 * Classifies a recording line in the order of the CLI's `loadConversationRecord`: `$rewindTo`, a message (has a
 * string `id`), a `$set` patch, then a header (`sessionId` + `projectHash`).
 */
export function recordingLineKind(v: unknown): RecordingLineKind {
  if (!isObj(v)) return 'unknown';
  if (typeof v.$rewindTo === 'string') return 'rewind';
  if (typeof v.id === 'string') return 'message';
  if (isObj(v.$set)) return 'set';
  if (typeof v.sessionId === 'string' && typeof v.projectHash === 'string') return 'header';
  return 'unknown';
}

/** True for a chat recording session header line. */
export function isRecordingHeader(v: unknown): v is Obj {
  return recordingLineKind(v) === 'header';
}

/** True for a message of a chat recording (`{id, timestamp, type, content}`). */
export function isRecordingMessage(v: unknown): v is Obj {
  return isObj(v) && typeof v.id === 'string' && typeof v.type === 'string' && 'content' in v;
}

/** True for a stream-json event (`{type, timestamp, …}` of a known type). */
export function isStreamEvent(v: unknown): v is Obj {
  return isObj(v) && typeof v.type === 'string' && GEMINI_STREAM_TYPES.has(v.type) && typeof v.timestamp === 'string';
}

const JSON_OUTPUT_KEYS: ReadonlySet<string> = new Set(['session_id', 'response', 'stats', 'error', 'warnings']);

/**
 * True for the one document `--output-format json` writes (`JsonFormatter.format`): `{session_id?, response, stats,
 * warnings?}`, or on failure `{session_id?, error: {type, message, code?}}` without stats.
 */
export function isJsonOutput(v: unknown): v is Obj {
  if (!isObj(v) || !Object.keys(v).every((k) => JSON_OUTPUT_KEYS.has(k))) return false;
  if (isObj(v.stats) && isObj(v.stats.models)) return 'response' in v || 'error' in v;
  return isObj(v.error) && typeof v.error.type === 'string' && typeof v.error.message === 'string';
}

/** True for an older whole-document `.json` recording (`{sessionId, projectHash, messages: […]}`). */
export function isRecordingDocument(v: unknown): v is Obj {
  return isObj(v) && typeof v.sessionId === 'string' && Array.isArray(v.messages);
}

/** The text of a message's `content` (a string or a `Part[]`): its text parts joined. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (isObj(p) && typeof p.text === 'string' ? p.text : '')).join('');
}

/** The `functionResponse` parts of a content list: a `user` message holding only these is a tool result. */
export function functionResponses(content: unknown): Obj[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((p) => (isObj(p) && isObj(p.functionResponse) ? [p.functionResponse] : []));
}

const EXIT_CODE = /(?:^|\n)Exit Code: (-?\d+)/;

/**
 * The non-zero exit code a shell tool reports inside its output text (`Exit Code: 2`), or null. Gemini CLI records
 * such a call with `status: "success"` (the tool ran; the command failed), so this is the only place it shows.
 */
export function shellExitCode(toolCall: Obj): number | null {
  const texts: string[] = [];
  if (Array.isArray(toolCall.result)) {
    for (const r of toolCall.result) {
      const resp = isObj(r) && isObj(r.functionResponse) && isObj(r.functionResponse.response) ? r.functionResponse.response : null;
      if (resp && typeof resp.output === 'string') texts.push(resp.output);
    }
  }
  if (typeof toolCall.output === 'string') texts.push(toolCall.output);
  for (const t of texts) {
    const m = EXIT_CODE.exec(t);
    if (m && Number(m[1]) !== 0) return Number(m[1]);
  }
  return null;
}

/** Token counts of a `gemini` message (`tokens: {input, output, cached, thoughts, tool, total}`). */
export function messageTokens(m: Obj): { input: number | null; output: number | null; cached: number; thoughts: number } {
  const t = isObj(m.tokens) ? m.tokens : null;
  const n = (k: string) => (t && typeof t[k] === 'number' && Number.isFinite(t[k]) ? (t[k] as number) : null);
  return { input: n('input'), output: n('output'), cached: n('cached') ?? 0, thoughts: n('thoughts') ?? 0 };
}
