import type { UsageDraft } from '../../usageTypes';
import { isObj, num, Obj, str } from '../common';

/** The files opencode writes: `opencode export <id>` (one JSON document) and `opencode run --format json` (a stream). */
export type OpencodeDialect = 'export' | 'run-json';

/**
 * The event types `opencode run --format json` prints, one a line `{type, timestamp, sessionID, part}`: a finished
 * part of the main session (`tool_use` once its call completed or failed, `text` / `reasoning` once ended), or
 * `error` `{type, timestamp, sessionID, error}` when the session failed.
 */
export const RUN_EVENT_TYPES: ReadonlySet<string> = new Set(['step_start', 'step_finish', 'text', 'reasoning', 'tool_use', 'error']);

/** True for an `opencode export` document: `{info: {id, …}, messages: [{info: {role, id}, parts: […]}]}`. */
export function isExportDocument(v: unknown): v is Obj {
  if (!isObj(v) || !isObj(v.info) || !Array.isArray(v.messages)) return false;
  const info = v.info;
  if (typeof info.id !== 'string') return false;
  const first = v.messages[0];
  if (first === undefined) return typeof info.projectID === 'string' || info.id.startsWith('ses_');
  return isObj(first) && isObj(first.info) && (first.info.role === 'user' || first.info.role === 'assistant') && Array.isArray(first.parts);
}

/** True for a line of `opencode run --format json`: a part of a message (`part.messageID`), or a session error. */
export function isRunEvent(v: unknown): v is Obj {
  if (!isObj(v) || typeof v.type !== 'string' || typeof v.sessionID !== 'string' || !RUN_EVENT_TYPES.has(v.type)) return false;
  if (v.type === 'error') return 'error' in v;
  // A part of a type this reader does not know is still its message's (a plain row under it).
  return isObj(v.part) && typeof v.part.messageID === 'string';
}

/**
 * A message's or step's `tokens` as our usage: opencode's `input` leaves out the cache (its getUsage subtracts the
 * cache read and write from the provider's input), and its `output` leaves out the reasoning (counted apart, priced
 * as output on top), so the model read `input + cache.read + cache.write`. The cost is opencode's own.
 */
export function tokensUsage(tokens: unknown, cost: unknown, source: UsageDraft['source'] = 'event'): UsageDraft | null {
  if (!isObj(tokens)) return null;
  const cache = isObj(tokens.cache) ? tokens.cache : null;
  const read = num(cache, 'read') ?? 0;
  const write = num(cache, 'write') ?? 0;
  const plain = num(tokens, 'input');
  const output = num(tokens, 'output');
  const reasoning = num(tokens, 'reasoning');
  return {
    source,
    input: plain === null ? null : plain + read + write,
    output,
    cacheRead: read,
    cacheWrite: write,
    reasoning: reasoning ?? 0,
    reasoningApart: true,
    costUsd: typeof cost === 'number' && Number.isFinite(cost) ? cost : null,
  };
}


/** The session a `task` call started (`state.metadata.sessionId`), or null. */
export function childSessionOf(part: Obj): string | null {
  const state = isObj(part.state) ? part.state : null;
  return str(isObj(state?.metadata) ? state.metadata : null, 'sessionId');
}

/** The one-line text of an error object opencode records (`{name, data: {message}}`), or of a string. */
export function errorText(e: unknown): string | null {
  if (typeof e === 'string') return e;
  if (!isObj(e)) return null;
  const data = isObj(e.data) ? e.data : null;
  return [str(e, 'name'), str(data, 'message') ?? str(e, 'message')].filter((x) => x !== null).join(': ') || null;
}
