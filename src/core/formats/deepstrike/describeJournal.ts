import { EventDraft } from '../../model';
import { label, Obj, short, str } from '../common';
import { decodeCanonicalInput, decodeRec } from './journal';

/** A `step_seq` as a number when it is a canonical decimal string (or, on a `.rec` envelope, a JSON integer). */
export function stepSeqNumber(v: unknown): number | null {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
  if (typeof v === 'string' && /^(0|[1-9]\d*)$/.test(v)) {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : null;
  }
  return null;
}

/** One kernel journal record as an event: `journal step 3 resolve_effect in-2`, grouped by operation. */
export function describeKernelRecord(rec: Obj | null, record: Obj | null): EventDraft {
  const view = rec ? decodeRec(rec) : { record, error: null };
  const r = view.record;
  const input = decodeCanonicalInput(r);
  const kind = input && typeof input.input === 'object' && input.input !== null ? str(input.input, 'kind') : null;
  const step = stepSeqNumber(r?.step_seq ?? rec?.step_seq);
  const digest = str(r, 'record_digest') ?? str(rec, 'record_digest');
  const prev = str(r, 'previous_record_digest') ?? str(rec, 'previous_record_digest');
  return {
    kind: 'journal_record',
    category: 'other',
    seq: step,
    status: view.error ? 'error' : 'ok',
    group: str(r, 'operation_id'),
    label: label('journal step', step !== null ? String(step) : '?', kind, str(input, 'input_id'), digest && short(digest, 20), view.error && `(${view.error})`),
    mentions: prev ? [{ field: 'previous_record_digest', id: prev }] : [],
    hashRefs: [],
  };
}
