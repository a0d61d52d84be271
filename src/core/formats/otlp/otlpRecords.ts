import { forEachOtlpEvent, OtlpShapeIssue, OtlpSpanRef } from './otlpSpans';
import { Finding } from '../../model';
import { CheckContext } from '../../rules/types';
import { CheckRecord, DocumentText, eventLine } from '../../rules/checkRecords';

/** What the OTLP rules need of one span; the span itself is not kept. */
export interface OtlpSpanDigest {
  line: number;
  /** Position in the file, for "comes later" decisions when spans share a JSONL line. */
  order: number;
  path: string;
  traceId: string | null;
  spanId: string | null;
  parentSpanId: string | null;
  /** Findings about this span alone, computed while streaming. */
  own: Finding[];
}

/** The spans and shape problems of one record (a JSONL line, or a document). */
export interface OtlpRecordDigest {
  spans: OtlpSpanDigest[];
  shape: (OtlpShapeIssue & { line: number })[];
}

/** Per-span findings a mode computes while streaming: verify checks ids, check checks values. */
export type OtlpSpanRules = (ref: OtlpSpanRef, line: number) => Finding[];

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * Makes the digest function for a file. Spans are walked as the adapter walks them. In a document, each span's
 * line is found by searching its `"spanId"` forward from the previous span (the loader's locate only finds first
 * occurrences, which misplaces repeated ids); the model's event line is the fallback.
 */
export function otlpDigester(ctx: CheckContext, rules: OtlpSpanRules, seenHolders = new WeakSet<object>()): (rec: CheckRecord) => OtlpRecordDigest {
  let eventIndex = 0;
  let cursor = 0;
  let order = 0;
  return (rec) => {
    const digest: OtlpRecordDigest = { spans: [], shape: [] };
    const recLine = ctx.model.document ? eventLine(ctx, eventIndex, rec.line) : rec.line;
    const issues = forEachOtlpEvent(
      rec.value,
      (ref) => {
        const line = spanLine(ctx, rec, ref, eventIndex, cursor);
        cursor = line.cursor;
        eventIndex++;
        const own = rules({ ...ref, resource: once(ref.resource, seenHolders), scope: once(ref.scope, seenHolders) }, line.line);
        const s = ref.span;
        digest.spans.push({ line: line.line, order: order++, path: ref.path, traceId: str(s.traceId), spanId: str(s.spanId), parentSpanId: str(s.parentSpanId), own });
      },
      () => eventIndex++,
      () => eventIndex++,
    );
    for (const issue of issues) digest.shape.push({ ...issue, line: recLine });
    return digest;
  };
}

/** A resource or scope is checked with its first span only. */
function once<T extends object>(holder: T | null, seen: WeakSet<object>): T | null {
  if (!holder || seen.has(holder)) return null;
  seen.add(holder);
  return holder;
}

function spanLine(ctx: CheckContext, rec: CheckRecord, ref: OtlpSpanRef, eventIndex: number, cursor: number): { line: number; cursor: number } {
  const fallback = ctx.model.document ? eventLine(ctx, eventIndex, rec.line) : rec.line;
  if (!rec.doc || !ref.source) return { line: fallback, cursor };
  const pos = rec.doc.findKeyValue(ref.source.key, ref.source.value, cursor);
  return pos < 0 ? { line: fallback, cursor } : { line: rec.doc.lineAt(pos), cursor: pos + 1 };
}

/** Records of a re-read OTLP document: the elements of a top-level array, or the document itself. */
export function otlpDocumentRecords(doc: unknown, text: DocumentText): CheckRecord[] {
  return (Array.isArray(doc) ? doc : [doc]).map((value) => ({ line: 1, value, doc: text }));
}
