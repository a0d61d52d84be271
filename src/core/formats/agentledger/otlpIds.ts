/**
 * AgentLedger OTLP ids (format doc §6.3, §6.5, rule `agentledger/otlp-ids`): `traceId` and `spanId` are derived
 * from the original run id and span id, by Rust `hex_id` (FNV-1a, zero-padded) or Python `_hex_id` (SHA-256
 * prefix). For the OTLP reader: the `trace.otlp.json` export belongs to the otlp format.
 */
import { pythonHexId, rustHexId } from './rustText';

/** Ids of one exported span and the `agentledger.original_*` attributes they were derived from. */
export interface AgentledgerOtlpIds {
  traceId: string;
  spanId: string;
  originalTraceId: string;
  originalSpanId: string;
}

/** Why the span's OTLP ids do not derive from its original ids by either runtime's `hex_id`, or null when they do. */
export function agentledgerOtlpIdProblem(ids: AgentledgerOtlpIds): string | null {
  const rust = { traceId: rustHexId(ids.originalTraceId, 32), spanId: rustHexId(ids.originalSpanId, 16) };
  const python = { traceId: pythonHexId(ids.originalTraceId, 32), spanId: pythonHexId(ids.originalSpanId, 16) };
  for (const x of [python, rust]) if (x.traceId === ids.traceId && x.spanId === ids.spanId) return null;
  const form = ids.traceId.endsWith('0000000000000000') ? rust : python;
  return `traceId ${ids.traceId} / spanId ${ids.spanId} do not derive from ${ids.originalTraceId} / ${ids.originalSpanId}: expected ${form.traceId} / ${form.spanId} (${form === rust ? 'Rust FNV-1a' : 'Python SHA-256'} hex_id).`;
}
