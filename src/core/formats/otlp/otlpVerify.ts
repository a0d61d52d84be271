import { isObj } from '../common';
import { describeType, OtlpSpanRef, spanKey } from './otlpSpans';
import { Finding } from '../../model';
import { OTLP_CATALOG, OtlpRuleId } from './catalog';
import { findParentCycles } from '../../rules/checkRecords';
import { OtlpRecordDigest, OtlpSpanDigest } from './otlpRecords';

const TRACE_ID = /^[0-9a-fA-F]{32}$/;
const SPAN_ID = /^[0-9a-fA-F]{16}$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Why an id is malformed, or null when it is well formed (hex of the right length, not all zeros). */
export function idProblem(value: unknown, field: string, hexChars: 16 | 32, optional: boolean): string | null {
  if (value === undefined || value === '') return optional ? null : `${field} is ${value === '' ? 'empty' : 'missing'}`;
  if (typeof value !== 'string') return `${field} is ${describeType(value)}, expected ${hexChars} hex characters`;
  const re = hexChars === 32 ? TRACE_ID : SPAN_ID;
  if (!re.test(value)) {
    const b64 = BASE64.test(value) && value.length === Math.ceil((hexChars / 2) / 3) * 4 ? ' (it looks like base64: OTLP/JSON writes ids as hex)' : '';
    return `${field} ${JSON.stringify(value)} is not ${hexChars} hex characters (${hexChars / 2} bytes)${b64}`;
  }
  if (/^0+$/.test(value)) return `${field} is all zeros, which OTLP reserves as invalid`;
  return null;
}

/** A finding of `rule` at a span's line, at the catalog severity, naming the span (trace id/span id) as its event. */
function finding(rule: OtlpRuleId, s: OtlpSpanDigest, message: string): Finding {
  const eventId = s.traceId !== null && s.spanId !== null ? spanKey(s.traceId, s.spanId) : undefined;
  return OTLP_CATALOG.finding(rule, s.line, message, eventId ? { eventId } : undefined);
}

/** otlp/id-format for one span (and its links), computed while streaming. */
export function spanIdFindings(ref: OtlpSpanRef, line: number): Finding[] {
  const span = ref.span;
  const problems = [idProblem(span.traceId, 'traceId', 32, false), idProblem(span.spanId, 'spanId', 16, false), idProblem(span.parentSpanId, 'parentSpanId', 16, true)];
  if (Array.isArray(span.links)) {
    span.links.forEach((l, i) => {
      if (isObj(l)) problems.push(idProblem(l.traceId, `links[${i}].traceId`, 32, false), idProblem(l.spanId, `links[${i}].spanId`, 16, false));
    });
  }
  const eventId = typeof span.traceId === 'string' && typeof span.spanId === 'string' ? spanKey(span.traceId, span.spanId) : undefined;
  return problems
    .filter((p): p is string => p !== null)
    .map((p) => OTLP_CATALOG.finding('otlp/id-format', line, `Span ${JSON.stringify(span.name ?? '')} at ${ref.path}: ${p}.`, eventId ? { eventId } : undefined));
}

/** Keys of spans that have a string traceId and spanId, first occurrence wins; duplicates are reported. */
function indexSpans(spans: OtlpSpanDigest[], out: Finding[]): Map<string, OtlpSpanDigest> {
  const byKey = new Map<string, OtlpSpanDigest>();
  for (const s of spans) {
    if (s.traceId === null || s.spanId === null) continue;
    const key = spanKey(s.traceId, s.spanId);
    const first = byKey.get(key);
    if (first) {
      out.push(finding('otlp/span-id-unique', s, `Span id ${s.spanId} of trace ${s.traceId} is already used by the span at line ${first.line} (${first.path}); parent links to it are ambiguous.`));
    } else byKey.set(key, s);
  }
  return byKey;
}

function parentFindings(spans: OtlpSpanDigest[], byKey: Map<string, OtlpSpanDigest>, out: Finding[]): void {
  const parents = new Map<string, string>();
  const order = new Map<string, number>();
  for (const s of spans) {
    if (s.traceId === null || s.spanId === null) continue;
    const key = spanKey(s.traceId, s.spanId);
    if (byKey.get(key) !== s) continue;
    order.set(key, s.order);
    if (s.parentSpanId === null || s.parentSpanId === '') continue;
    const pkey = spanKey(s.traceId, s.parentSpanId);
    if (pkey === key) {
      out.push(finding('otlp/parent-cycle', s, `Span ${s.spanId} names itself as its parent; it is shown as a root.`));
      continue;
    }
    parents.set(key, pkey);
    if (!byKey.has(pkey)) {
      out.push(finding('otlp/parent-exists', s, `Parent span ${s.parentSpanId} of trace ${s.traceId} is not in this file (a remote parent); the span is shown as a root.`));
    }
  }
  for (const cycle of findParentCycles(parents, order)) {
    const s = byKey.get(cycle[0])!;
    const lines = cycle.map((k) => byKey.get(k)!.line);
    out.push(finding('otlp/parent-cycle', s, `Parent links of spans ${cycle.map((k) => k.split('/')[1]).join(' → ')} form a cycle (lines ${lines.join(', ')}); the span on line ${s.line} is shown as a root.`));
  }
}

/** Integrity of an OTLP file: document shape, id formats, unique ids, and parents and cycles. */
export function verifyOtlp(records: OtlpRecordDigest[]): Finding[] {
  const out: Finding[] = [];
  const spans = records.flatMap((r) => r.spans);
  for (const r of records) for (const issue of r.shape) out.push(OTLP_CATALOG.finding('otlp/document-shape', issue.line, `Not an OTLP/JSON traces document: ${issue.message}.`));
  for (const s of spans) out.push(...s.own);
  const byKey = indexSpans(spans, out);
  parentFindings(spans, byKey, out);
  return out;
}
