import { EventCategory, EventDraft, EventStatus } from '../../model';
import { isObj, label, Obj, parseTime, short } from '../common';
import { Emit, SourceRecord } from '../../format';

/**
 * OpenHands events name the event that caused them in `cause` (an integer event id): an observation names its
 * action. A string `cause` in other JSONL is prose, not an id, so only integers are followed.
 */
export function openHandsCause(v: Obj): string | null {
  return typeof v.cause === 'number' && Number.isInteger(v.cause) ? String(v.cause) : null;
}

/** True for an OpenHands event (`{id, source, action | observation}`). */
function isOpenHandsEvent(e: unknown): e is Obj {
  return isObj(e) && (typeof e.id === 'number' || typeof e.id === 'string') && (typeof e.action === 'string' || typeof e.observation === 'string');
}

/** True for an OpenHands evaluation output line: one instance's run with its event `history`. */
export function isOpenHandsRun(v: unknown): v is Obj {
  return isObj(v) && Array.isArray(v.history) && v.history.length > 0 && v.history.every(isOpenHandsEvent);
}

function exitCode(e: Obj): number | null {
  const md = isObj(e.extras) && isObj(e.extras.metadata) ? e.extras.metadata : null;
  return md && typeof md.exit_code === 'number' ? md.exit_code : null;
}

/** One history event: actions with a tool call are tool calls, observations their results (failed ones warnings). */
export function describeOpenHandsEvent(e: Obj): EventDraft {
  const action = typeof e.action === 'string' ? e.action : null;
  const kind = action ? `action:${action}` : `observation:${String(e.observation)}`;
  const exit = action ? null : exitCode(e);
  const status: EventStatus = e.observation === 'error' ? 'error' : e.success === false || (exit !== null && exit !== 0) ? 'warning' : 'ok';
  const tool = isObj(e.tool_call_metadata) && typeof e.tool_call_metadata.function_name === 'string' ? e.tool_call_metadata.function_name : null;
  const category: EventCategory = action ? (tool ? 'tool' : action === 'message' ? 'message' : 'other') : e.observation === 'error' ? 'error' : 'message';
  const message = typeof e.message === 'string' ? e.message : typeof e.content === 'string' ? e.content : '';
  return {
    kind, category, status, tool, time: parseTime(e.timestamp),
    label: label(typeof e.source === 'string' ? e.source : null, action ?? String(e.observation), short(message, 70), exit !== null && exit !== 0 ? `exit ${exit}` : null),
  };
}

/** Token totals of a run from its own `metrics.accumulated_token_usage`. */
export function runTokens(v: Obj): { input: number; output: number } | null {
  const u = isObj(v.metrics) && isObj(v.metrics.accumulated_token_usage) ? v.metrics.accumulated_token_usage : null;
  if (!u || typeof u.prompt_tokens !== 'number' || typeof u.completion_tokens !== 'number') return null;
  return { input: u.prompt_tokens, output: u.completion_tokens };
}

/**
 * An evaluation output line is one run: a run event for the line, and each `history` event under it, nested by
 * `cause`. Event ids restart at 0 on every line, so they are scoped by the run (`<instance>#<id>`); all of a
 * line's events point at that line (`tree --json` tells them apart by `index`/`parentIndex`).
 */
export function emitOpenHandsRun(v: Obj, rec: SourceRecord, emit: Emit): { toolCalls: number; tokens: { input: number; output: number } | null } {
  const instance = typeof v.instance_id === 'string' ? v.instance_id : `line ${rec.line}`;
  const tokens = runTokens(v);
  const failed = v.error !== null && v.error !== undefined;
  const run = emit({ kind: 'run', category: 'run', id: instance, group: instance, status: failed ? 'error' : 'ok', label: label('run', short(instance, 60), failed ? `error: ${short(String(v.error), 60)}` : null) }, rec);
  const scoped = (id: unknown) => `${instance}#${String(id)}`;
  let toolCalls = 0;
  for (const e of v.history as Obj[]) {
    const draft = describeOpenHandsEvent(e);
    const cause = openHandsCause(e);
    const parent = cause !== null ? { parentId: scoped(cause) } : { parentIndex: run };
    if (draft.category === 'tool') toolCalls++;
    emit({ ...draft, id: scoped(e.id), ...parent, group: instance }, rec);
  }
  return { toolCalls, tokens };
}
