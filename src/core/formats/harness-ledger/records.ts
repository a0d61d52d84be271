import { isObj, Obj } from '../common';

/** The 13 `HarnessEvent` names of platonic-core 0.1.0 (the seed), in declaration order. */
export const HARNESS_EVENTS_V1 = [
  'run_started', 'context_built', 'model_requested', 'model_responded', 'tool_call_proposed', 'policy_evaluated',
  'approval_granted', 'approval_denied', 'tool_started', 'tool_finished', 'tool_failed', 'run_finished', 'run_failed',
] as const;
/** The events platonic-core 0.2.0 added. */
export const HARNESS_EVENTS_V2 = ['context_compacted', 'model_failed', 'tool_proposals_rejected'] as const;
export type HarnessEventName = (typeof HARNESS_EVENTS_V1)[number] | (typeof HARNESS_EVENTS_V2)[number];
const KNOWN = new Set<string>([...HARNESS_EVENTS_V1, ...HARNESS_EVENTS_V2]);

/** True for one of the 16 known event names. */
export function isHarnessEventName(name: unknown): name is HarnessEventName {
  return typeof name === 'string' && KNOWN.has(name);
}

/** The exact keys of a `RecordedEvent` and of a `LedgerLine` envelope. */
export const RECORD_KEYS = ['seq', 'occurred_at_ms', 'event'] as const;
export const ENVELOPE_KEYS = ['v', 'record'] as const;

/** One ledger line, unwrapped: the bare record, an envelope around one, or the server's `voice_events` line. */
export interface LedgerLine {
  form: 'bare' | 'envelope' | 'voice';
  /** The envelope version as written (enveloped lines only). */
  version?: unknown;
  /** The `RecordedEvent` object (absent on a voice line or a broken envelope). */
  record: Obj | null;
  seq: number | null;
  occurredAtMs: number | null;
  /** The `HarnessEvent` object. */
  event: Obj | null;
  /** `event.event`, the tag. */
  name: string | null;
}

/** Unwraps a parsed line into its ledger parts; null when the value is not a ledger line at all. */
export function unwrapLedgerLine(value: unknown): LedgerLine | null {
  if (!isObj(value)) return null;
  if ('voice_events' in value && !('record' in value) && !('event' in value)) {
    return { form: 'voice', record: null, seq: null, occurredAtMs: null, event: null, name: null };
  }
  if ('record' in value && !('event' in value)) {
    const record = isObj(value.record) ? value.record : null;
    return { form: 'envelope', version: value.v, ...recordParts(record) };
  }
  if ('event' in value || 'seq' in value) return { form: 'bare', ...recordParts(value) };
  return null;
}

function recordParts(record: Obj | null): Pick<LedgerLine, 'record' | 'seq' | 'occurredAtMs' | 'event' | 'name'> {
  const event = record && isObj(record.event) ? record.event : null;
  return {
    record,
    seq: record && isU64(record.seq) ? record.seq : null,
    occurredAtMs: record && isU64(record.occurred_at_ms) ? record.occurred_at_ms : null,
    event,
    name: event && typeof event.event === 'string' ? event.event : null,
  };
}

/** A JSON number that serde would read as `u64`. */
export function isU64(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}

/** The call id an event names (`call.id`, `call_id` or `result.call_id`), or null. */
export function callIdOf(event: Obj): string | null {
  if (isObj(event.call) && typeof event.call.id === 'string') return event.call.id;
  if (typeof event.call_id === 'string') return event.call_id;
  if (isObj(event.result) && typeof event.result.call_id === 'string') return event.result.call_id;
  return null;
}

/** `event.run_id` when it is a string. */
export function runIdOf(event: Obj | null): string | null {
  return event && typeof event.run_id === 'string' ? event.run_id : null;
}
