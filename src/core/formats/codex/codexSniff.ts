import { isObj, Obj } from '../common';
import { SniffResult, SniffSample } from '../../format';

/** The dialects of the codex format: session rollouts on disk, and `codex exec --json` stdout. */
export type CodexDialect = 'rollout' | 'exec-json';

/** The rollout item types of `RolloutItem`; 0.17x added `world_state` and `token_usage_record`. */
export const CODEX_TYPES: ReadonlySet<string> = new Set([
  'session_meta', 'response_item', 'compacted', 'turn_context', 'event_msg', 'world_state', 'token_usage_record',
]);

/** Keys a `RolloutLine` may carry besides the required three: 0.17x writes `ordinal` on every line and `metadata` on response items. */
const OPTIONAL_ROLLOUT_KEYS = new Set(['ordinal', 'metadata']);

/** True when a value has the on-disk `RolloutLine` shape: timestamp, type, payload, and at most `ordinal`/`metadata`. */
export function isRolloutLine(v: unknown): v is Obj {
  if (!isObj(v) || typeof v.timestamp !== 'string' || typeof v.type !== 'string' || !isObj(v.payload)) return false;
  for (const k of Object.keys(v)) if (k !== 'timestamp' && k !== 'type' && k !== 'payload' && !OPTIONAL_ROLLOUT_KEYS.has(k)) return false;
  return v.ordinal === undefined || typeof v.ordinal === 'number';
}

/** The `ThreadEvent` types `codex exec --json` prints, one JSON object per stdout line. */
export const EXEC_EVENT_TYPES: ReadonlySet<string> = new Set([
  'thread.started', 'turn.started', 'turn.completed', 'turn.failed', 'item.started', 'item.updated', 'item.completed', 'error',
]);

/** True for one line of `codex exec --json` output. */
export function isExecEvent(v: unknown): v is Obj {
  if (!isObj(v) || typeof v.type !== 'string' || !EXEC_EVENT_TYPES.has(v.type) || 'payload' in v) return false;
  if (v.type.startsWith('item.')) return isObj(v.item) && typeof v.item.type === 'string';
  if (v.type === 'thread.started') return typeof v.thread_id === 'string';
  return true;
}

/** The dialect of a file from its first value, or null when it is neither. */
export function codexDialectOf(v: unknown): CodexDialect | null {
  if (isRolloutLine(v)) return 'rollout';
  if (isExecEvent(v)) return 'exec-json';
  return null;
}

function sniffExec(values: unknown[]): SniffResult {
  const shaped = values.filter(isExecEvent);
  if (shaped.length * 2 <= values.length) return { confidence: 0, reason: 'not codex exec --json events' };
  const first = values[0];
  // Only thread.started proves the stream: turn.* and item.* alone are a generic-looking vocabulary.
  if (isObj(first) && first.type === 'thread.started' && typeof first.thread_id === 'string') {
    return { confidence: 0.95, reason: 'codex exec --json events: thread.started first', dialect: 'exec-json' };
  }
  // Items with an id and a type are specific enough for a stream whose head was cut; turn events alone are not.
  const items = shaped.filter((v) => String(v.type).startsWith('item.')).length;
  return items > 0 ? { confidence: 0.6, reason: 'codex exec --json item events without thread.started', dialect: 'exec-json' } : { confidence: 0.2, reason: 'a few codex exec --json event names' };
}

/** Detects a Codex rollout (session_meta first, `{timestamp, type, payload}` lines) or a `codex exec --json` stream. */
export function sniffCodex(sample: SniffSample): SniffResult {
  const values = sample.values;
  if (values.length === 0 || sample.document) return { confidence: 0, reason: 'no JSON lines' };
  if (isExecEvent(values[0])) return sniffExec(values);
  const shaped = values.filter(isRolloutLine);
  if (shaped.length * 2 <= values.length) return { confidence: 0, reason: 'lines are not {timestamp, type, payload}' };
  const known = shaped.filter((v) => CODEX_TYPES.has(v.type as string)).length;
  if (known === 0) return { confidence: 0.2, reason: '{timestamp, type, payload} lines of unknown types' };
  const first = values[0];
  const name = /^rollout-/.test(sample.fileName) ? 0.02 : 0;
  if (isRolloutLine(first) && first.type === 'session_meta') {
    const originator = typeof (first.payload as Obj).originator === 'string';
    return { confidence: Math.min(1, (originator ? 0.96 : 0.9) + name), reason: `Codex rollout: session_meta first${originator ? ' with originator' : ''}`, dialect: 'rollout' };
  }
  return { confidence: Math.min(1, 0.6 + 0.25 * (known / values.length) + name), reason: 'Codex rollout items without a leading session_meta', dialect: 'rollout' };
}
