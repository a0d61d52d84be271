import { isObj, Obj } from '../common';

/**
 * The dialects Continue CLI (`cn`) writes: a session (`~/.continue/sessions/<sessionId>.json`, one JSON document
 * rewritten as the session goes), the session index beside it (`sessions.json`), and `cn -p --format json` stdout.
 */
export type ContinueDialect = 'session' | 'session-index' | 'json-output';

/** A history item's `toolCallStates[].status` (Continue's `ToolStatus`): `errored` and `canceled` are failed calls. */
export const FAILED_STATUSES: ReadonlySet<string> = new Set(['errored', 'canceled']);

/** Message roles of Continue's `ChatMessage`. */
const ROLES: ReadonlySet<string> = new Set(['user', 'assistant', 'system', 'tool', 'thinking']);

/** True for a history item: `{message: {role, content}, contextItems?, toolCallStates?}`. */
export function isHistoryItem(v: unknown): v is Obj {
  return isObj(v) && isObj(v.message) && typeof v.message.role === 'string' && ROLES.has(v.message.role);
}

/**
 * True for a Continue session (`Session` of Continue's core): `{sessionId, title, workspaceDirectory, history: [...]}`,
 * each history item a `{message: {role, …}}`. An empty history is still a session when the title and workspace are there.
 */
export function isSessionDocument(v: unknown): v is Obj {
  if (!isObj(v) || typeof v.sessionId !== 'string' || !Array.isArray(v.history)) return false;
  if (v.history.length === 0) return typeof v.title === 'string' && typeof v.workspaceDirectory === 'string';
  return v.history.slice(0, 20).every(isHistoryItem);
}

/** True for an entry of `sessions.json` (`BaseSessionMetadata`): `{sessionId, title, dateCreated, workspaceDirectory}`. */
export function isIndexEntry(v: unknown): v is Obj {
  return isObj(v) && typeof v.sessionId === 'string' && typeof v.title === 'string' && 'dateCreated' in v
    && typeof v.workspaceDirectory === 'string' && !('history' in v);
}

const OUTPUT_KEYS: ReadonlySet<string> = new Set(['response', 'status', 'note', 'error']);

/**
 * True for the one object `cn -p --format json` prints: `{response, status, note?}` (the final answer; `note` says
 * when the answer was not JSON and was wrapped). Nothing but those keys, so another writer's object is not taken.
 */
export function isJsonOutput(v: unknown): v is Obj {
  if (!isObj(v) || typeof v.status !== 'string') return false;
  const keys = Object.keys(v);
  if (!keys.every((k) => OUTPUT_KEYS.has(k))) return false;
  if (typeof v.response === 'string') return true;
  return v.status === 'error' && 'error' in v;
}

/** A message's text: its `content` string, or its text parts (`{type: "text", text}`) joined. */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (isObj(p) && typeof p.text === 'string' ? p.text : '')).join('');
}

/** A tool call's arguments: `parsedArgs` of its state when there, else its `function.arguments` JSON string parsed. */
export function callArgs(call: Obj | null, state: Obj | null): unknown {
  if (state && isObj(state.parsedArgs)) return state.parsedArgs;
  const fn = call && isObj(call.function) ? call.function : null;
  if (!fn || typeof fn.arguments !== 'string') return null;
  try {
    return JSON.parse(fn.arguments);
  } catch {
    return null;
  }
}


/** A tool result's text: the `content` of its output items, joined. */
export function outputText(output: unknown): string {
  if (!Array.isArray(output)) return '';
  return output.map((o) => (isObj(o) && typeof o.content === 'string' ? o.content : '')).join('\n');
}
