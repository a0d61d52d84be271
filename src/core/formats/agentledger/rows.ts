/**
 * The four AgentLedger line shapes (format doc §4, §6.2, §6.4) normalised into one row type, so the adapter,
 * the verifier and the checks read a line the same way.
 */
import { isObj, Obj } from '../common';

/** Which writer produced a line. */
export type Dialect = 'python-event' | 'rust-event' | 'ts-event' | 'python-span' | 'ts-span' | 'rust-span';

/** One line of an AgentLedger file, whatever its dialect. */
export interface LedgerRow {
  dialect: Dialect;
  /** `type`, `event_type` or the span `name`. */
  type: string | null;
  /** `seq`, or the number in `evt-NNNNNN` for spans; null when missing or not an integer. */
  seq: number | null;
  /** `event_id`, or the span id. */
  id: string | null;
  runId: string | null;
  sessionId: string | null;
  stepId: string | null;
  /** False for Rust spans, which do not say which step they belong to. */
  stepKnown: boolean;
  stateVersion: number | null;
  agentRole: string | null;
  causalToken: string | null;
  /** `payload_hash` as written (string, null or something else). */
  payloadHash: unknown;
  /** `payload_ref` as written. */
  payloadRef: unknown;
  /** The `payload` field of event rows; undefined when absent (spans, store exports). */
  payload: unknown;
  /** Unix seconds. */
  time: number | null;
  endTime: number | null;
  /** Span kind for spans: `evt`, `media` or `stream`. */
  spanKind: 'evt' | 'media' | 'stream' | null;
}

export const EVENT_ID = /^evt_[0-9a-f]{16}$/;
export const SPAN_ID = /^(evt|media|stream)-(\d{6,})$/;
const HEX16 = /^(?:sha256:)?[0-9a-f]{16}$/;

function s(o: Obj, k: string): string | null {
  const v = o[k];
  return typeof v === 'string' ? v : null;
}
function n(o: Obj, k: string): number | null {
  const v = o[k];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
function int(v: unknown): number | null {
  return typeof v === 'number' && Number.isInteger(v) ? v : null;
}

/**
 * The dialect of a parsed line by its shape, or null when it is no AgentLedger line. murmur lines
 * (`event_type`, 32-hex `evt_` ids, `parent_id`) are never taken for Rust records.
 */
export function dialectOf(v: unknown): Dialect | null {
  if (!isObj(v)) return null;
  if (typeof v.trace_id === 'string' && typeof v.span_id === 'string') {
    if (isObj(v.attributes) && Object.keys(v.attributes).some((k) => k.startsWith('agentledger.'))) {
      // The TypeScript runtime's traceJSONL copies its rows' digests: SHA-256 of the payload_ref text.
      return isTsPayloadHash(v.attributes['agentledger.payload_hash'], v.attributes['agentledger.payload_ref']) ? 'ts-span' : 'python-span';
    }
    const keys = Object.keys(v);
    if (keys.length === 3 && typeof v.name === 'string' && SPAN_ID.test(v.span_id)) return 'rust-span';
    return null;
  }
  if (!('payload_ref' in v) || !('payload_hash' in v) || typeof v.run_id !== 'string') return null;
  if ('parent_id' in v) return null;
  const id = s(v, 'event_id');
  if (id !== null && /^evt_[0-9a-f]{32}$/.test(id)) return null;
  const hasType = typeof v.type === 'string' || typeof v.event_type === 'string';
  if (!hasType) return null;
  // The digest decides the dialect: a Rust store exported with the SQL column name `type` is still Rust.
  if (isFnvHash(v.payload_hash) || typeof v.type !== 'string') return 'rust-event';
  if (isTsPayloadHash(v.payload_hash, v.payload_ref)) return 'ts-event';
  return 'python-event';
}

/**
 * True for the TypeScript runtime's digest: SHA-256 of the `payload_ref` text itself (`JSON.stringify` of the
 * payload), bare 64 hex (artifact events label it `sha256:`), over inline text rather than a blob ref. Python rows
 * have a null hash for inline payloads and `sha256:` only with a blob ref, so the two never meet.
 */
export function isTsPayloadHash(hash: unknown, ref: unknown): boolean {
  if (typeof hash !== 'string' || typeof ref !== 'string' || isBlobRef(ref)) return false;
  return /^(?:sha256:)?[0-9a-f]{64}$/.test(hash);
}

/** True when a row's payload hash is an FNV-1a digest (Rust), whatever the row's key names say. */
export function isFnvHash(hash: unknown): boolean {
  return typeof hash === 'string' && HEX16.test(hash);
}

/** Normalises a line of a known dialect; null for other lines. */
export function rowOf(v: unknown, dialect: Dialect | null = dialectOf(v)): LedgerRow | null {
  if (!dialect || !isObj(v)) return null;
  if (dialect === 'python-span' || dialect === 'ts-span' || dialect === 'rust-span') return spanRow(v, dialect);
  return {
    dialect,
    type: dialect === 'rust-event' ? s(v, 'event_type') ?? s(v, 'type') : s(v, 'type') ?? s(v, 'event_type'),
    seq: int(v.seq),
    id: s(v, 'event_id'),
    runId: s(v, 'run_id'),
    sessionId: s(v, 'session_id'),
    stepId: s(v, 'step_id'),
    stepKnown: true,
    stateVersion: n(v, 'state_version'),
    agentRole: s(v, 'agent_role'),
    causalToken: s(v, 'causal_token'),
    payloadHash: v.payload_hash,
    payloadRef: v.payload_ref,
    payload: v.payload,
    time: n(v, 'timestamp'),
    endTime: null,
    spanKind: null,
  };
}

function spanRow(v: Obj, dialect: Dialect): LedgerRow {
  const spanId = s(v, 'span_id');
  const m = spanId ? SPAN_ID.exec(spanId) : null;
  const attrs: Obj = isObj(v.attributes) ? v.attributes : {};
  // Python and TypeScript spans carry the same attributes; Rust spans only trace_id, span_id and name.
  const attributed = dialect !== 'rust-span';
  const attrSeq = int(attrs['agentledger.seq']);
  return {
    dialect,
    type: s(v, 'name'),
    seq: m && m[1] === 'evt' ? Number(m[2]) : attrSeq,
    id: spanId,
    runId: s(v, 'trace_id') ?? (typeof attrs['agentledger.run_id'] === 'string' ? attrs['agentledger.run_id'] : null),
    sessionId: typeof attrs['agentledger.session_id'] === 'string' ? attrs['agentledger.session_id'] : null,
    stepId: typeof attrs['agentledger.step_id'] === 'string' ? attrs['agentledger.step_id'] : null,
    stepKnown: attributed,
    stateVersion: typeof attrs['agentledger.state_version'] === 'number' ? attrs['agentledger.state_version'] : null,
    agentRole: null,
    causalToken: null,
    payloadHash: attributed ? attrs['agentledger.payload_hash'] : undefined,
    payloadRef: attributed ? attrs['agentledger.payload_ref'] : undefined,
    payload: undefined,
    time: n(v, 'start_time'),
    endTime: n(v, 'end_time'),
    spanKind: m ? (m[1] as 'evt' | 'media' | 'stream') : null,
  };
}

/** True for `blob://` refs (Python blob-backed payloads and user-supplied refs). */
export function isBlobRef(ref: unknown): ref is string {
  return typeof ref === 'string' && ref.startsWith('blob://');
}

/**
 * The payload a person wants to read: the `payload` field, else (Python) the inline `payload_ref` JSON text.
 * Undefined for blob refs and Rust `format_state` text, which cannot be parsed back reliably.
 */
export function effectivePayload(row: LedgerRow): unknown {
  if (row.payload !== undefined) return row.payload;
  if (row.dialect !== 'python-event' && row.dialect !== 'python-span' && row.dialect !== 'ts-event' && row.dialect !== 'ts-span') return undefined;
  if (typeof row.payloadRef !== 'string' || isBlobRef(row.payloadRef)) return undefined;
  try {
    return JSON.parse(row.payloadRef);
  } catch {
    return undefined;
  }
}

/** Parts of a causal token: Rust `run:step:attempt:version` text or Python JSON text (§2). */
export interface CausalToken {
  runId: string | null;
  stepId: string | null;
  attempt: number | null;
  stateVersion: number | null;
  /** Python only: the lease token. */
  leaseToken: string | null;
  form: 'rust' | 'python';
}

/** Parses a causal token of either dialect; null when it is neither. */
export function parseCausalToken(token: string): CausalToken | null {
  if (token.startsWith('{')) {
    let o: unknown;
    try {
      o = JSON.parse(token);
    } catch {
      return null;
    }
    if (!isObj(o)) return null;
    return { runId: s(o, 'run_id'), stepId: s(o, 'step_id'), attempt: n(o, 'attempt'), stateVersion: n(o, 'state_version'), leaseToken: s(o, 'lease_token'), form: 'python' };
  }
  const parts = token.split(':');
  if (parts.length !== 4 || !/^\d+$/.test(parts[2]) || !/^\d+$/.test(parts[3])) return null;
  return { runId: parts[0], stepId: parts[1], attempt: Number(parts[2]), stateVersion: Number(parts[3]), leaseToken: null, form: 'rust' };
}
