import { Buffer } from 'buffer';
import { isObj, Obj } from '../common';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Decodes standard padded base64; null when the text is not that. */
export function decodeBase64(text: string): Buffer | null {
  return BASE64.test(text) ? Buffer.from(text, 'base64') : null;
}

/** A kernel record as the journal checks see it: the decoded object, its exact text, and the `.rec` envelope if any. */
export interface KernelRecordView {
  record: Obj | null;
  /** The exact canonical text of the record (decoded `record_bytes`); null for a record given as a JSON object. */
  bytes: string | null;
  rec: Obj | null;
  /** Why the record could not be decoded. */
  error: string | null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes a `.rec` envelope's `record_bytes` (base64 of the canonical record text). */
export function decodeRec(rec: Obj): KernelRecordView {
  const b = typeof rec.record_bytes === 'string' ? decodeBase64(rec.record_bytes) : null;
  if (!b) return { record: null, bytes: null, rec, error: 'record_bytes is not standard padded base64' };
  let text: string;
  try {
    text = utf8.decode(b);
  } catch {
    return { record: null, bytes: null, rec, error: 'record_bytes is not UTF-8' };
  }
  try {
    const v: unknown = JSON.parse(text);
    return isObj(v) ? { record: v, bytes: text, rec, error: null } : { record: null, bytes: text, rec, error: 'record_bytes is not a JSON object' };
  } catch {
    return { record: null, bytes: text, rec, error: 'record_bytes is not JSON' };
  }
}

/** The decoded normalized input (`{operation_id, input_id, observed_at_ms, input:{kind,…}}`) of a record, or null. */
export function decodeCanonicalInput(record: Obj | null): Obj | null {
  const ci = record && isObj(record.canonical_input) ? record.canonical_input : null;
  if (!ci || typeof ci.data !== 'string') return null;
  const b = decodeBase64(ci.data);
  if (!b) return null;
  try {
    const v: unknown = JSON.parse(b.toString('utf8'));
    return isObj(v) ? v : null;
  } catch {
    return null;
  }
}

/** `input.kind` of a record's canonical input (`configure_operation`, `resolve_effect`, …). */
export function inputKind(record: Obj | null): string | null {
  const ni = decodeCanonicalInput(record);
  return ni && isObj(ni.input) && typeof ni.input.kind === 'string' ? ni.input.kind : null;
}
