import { isObj, Obj } from '../common';
import { isKnownKind } from './kinds';

/** One DeepStrike record as read from a line or array element. */
export type DsRecord =
  /** A session-log line `{seq, event}` (either key order). */
  | { form: 'session'; seq: unknown; event: Obj | null; kind: string | null }
  /** A bare `SessionEvent` (upstream `tests/fixtures/session/*.json` arrays). */
  | { form: 'bare'; seq: null; event: Obj; kind: string }
  /** A kernel journal `.rec` object `{step_seq, record_digest, previous_record_digest?, record_bytes}`. */
  | { form: 'rec'; rec: Obj }
  /** A decoded kernel record (the canonical object inside `record_bytes`). */
  | { form: 'kernel'; record: Obj };

/** True for a `.rec` envelope. */
export function isRecEnvelope(v: Obj): boolean {
  return typeof v.record_bytes === 'string' && 'record_digest' in v && 'step_seq' in v;
}

/** True for a decoded kernel record. */
export function isKernelRecord(v: Obj): boolean {
  return isObj(v.canonical_input) && 'record_digest' in v && 'step_seq' in v && 'operation_id' in v;
}

/** Classifies a parsed value; null when it is none of the DeepStrike shapes. */
export function readDsRecord(v: unknown): DsRecord | null {
  if (!isObj(v)) return null;
  if (isRecEnvelope(v)) return { form: 'rec', rec: v };
  if (isKernelRecord(v)) return { form: 'kernel', record: v };
  if ('event' in v && 'seq' in v) {
    const event = isObj(v.event) ? v.event : null;
    return { form: 'session', seq: v.seq, event, kind: event && typeof event.kind === 'string' ? event.kind : null };
  }
  if (typeof v.kind === 'string' && !('seq' in v)) return { form: 'bare', seq: null, event: v, kind: v.kind };
  if ('event' in v) {
    const event = isObj(v.event) ? v.event : null;
    return { form: 'session', seq: v.seq, event, kind: event && typeof event.kind === 'string' ? event.kind : null };
  }
  return null;
}

/** Sniff score of one value: 1 for the exact session-log shape or a journal record, 0.85 for a known bare kind. */
export function dsShapeScore(v: unknown): number {
  if (!isObj(v)) return 0;
  if (isRecEnvelope(v) || isKernelRecord(v)) return 1;
  const keys = Object.keys(v);
  if (keys.length === 2 && 'seq' in v && isObj(v.event) && typeof v.event.kind === 'string') return 1;
  if ('seq' in v && isObj(v.event) && typeof v.event.kind === 'string' && !('occurred_at_ms' in v)) return 0.7;
  if (typeof v.kind === 'string' && isKnownKind(v.kind) && !('seq' in v) && !('hash' in v) && !('prev_hash' in v)) return 0.85;
  return 0;
}

/** The call ids an event names (§5), with their field paths. */
export function dsCallIds(e: Obj): { field: string; id: string }[] {
  const out: { field: string; id: string }[] = [];
  const push = (field: string, v: unknown) => {
    if (typeof v === 'string' && v.length > 0) out.push({ field, id: v });
  };
  const calls = (field: string, list: unknown, key: string) => {
    if (Array.isArray(list)) list.forEach((c, i) => push(`${field}[${i}].${key}`, isObj(c) ? c[key] : undefined));
  };
  const ids = (field: string, list: unknown) => {
    if (Array.isArray(list)) list.forEach((c, i) => push(`${field}[${i}]`, c));
  };
  calls('tool_calls', e.tool_calls, 'id');
  if (isObj(e.message)) calls('message.tool_calls', e.message.tool_calls, 'id');
  calls('calls', e.calls, 'id');
  calls('results', e.results, 'call_id');
  push('call_id', e.call_id);
  ids('pending_calls', e.pending_calls);
  ids('approved', e.approved);
  ids('denied', e.denied);
  ids('pending_call_ids', e.pending_call_ids);
  return out;
}

/** The assistant tool calls of an `llm_completed`, in either dialect. */
export function llmToolCalls(e: Obj): { id: string | null; name: string | null }[] {
  const list = isObj(e.message) ? e.message.tool_calls : e.tool_calls;
  if (!Array.isArray(list)) return [];
  return list.map((c) => ({ id: isObj(c) && typeof c.id === 'string' ? c.id : null, name: isObj(c) && typeof c.name === 'string' ? c.name : null }));
}
