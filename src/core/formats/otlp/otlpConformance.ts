import * as z from 'zod';
import { isObj, Obj } from '../common';
import { ANY_VALUE_KEYS, describeType, nanosBig, OtlpSpanRef } from './otlpSpans';
import { Finding } from '../../model';
import { OTLP_CATALOG } from './catalog';
import { issuePath } from '../../rules/checkRecords';
import { OtlpRecordDigest } from './otlpRecords';

const SPAN_KIND_NAMES = ['SPAN_KIND_UNSPECIFIED', 'SPAN_KIND_INTERNAL', 'SPAN_KIND_SERVER', 'SPAN_KIND_CLIENT', 'SPAN_KIND_PRODUCER', 'SPAN_KIND_CONSUMER'];
const STATUS_NAMES = ['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR'];
const DECIMAL_INT = /^-?\d+$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const uint = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/)]);

/** The span fields that no dedicated rule covers, as the OTLP proto declares them (unknown keys allowed). */
export const otlpSpanSchema = z.looseObject({
  name: z.string(),
  traceState: z.string().optional(),
  flags: z.number().int().nonnegative().optional(),
  droppedAttributesCount: z.number().int().nonnegative().optional(),
  droppedEventsCount: z.number().int().nonnegative().optional(),
  droppedLinksCount: z.number().int().nonnegative().optional(),
  attributes: z.array(z.unknown()).optional(),
  events: z.array(z.looseObject({ timeUnixNano: uint.optional(), name: z.string().optional(), attributes: z.array(z.unknown()).optional() })).optional(),
  links: z.array(z.looseObject({ traceState: z.string().optional(), attributes: z.array(z.unknown()).optional() })).optional(),
  status: z.looseObject({ message: z.string().optional() }).optional(),
});

/** Why an `AnyValue` is malformed, or null. Walks nested arrays and key-value lists iteratively. */
export function anyValueProblem(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, 'value']];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (!isObj(v)) return `${path} is ${describeType(v)}, expected an AnyValue object`;
    const members = ANY_VALUE_KEYS.filter((k) => k in v);
    // An empty AnyValue (`"value": {}`) is allowed: common.proto's oneof may be unset, and the OpenTelemetry Java
    // agent writes it for null attribute values.
    if (members.length === 0 && Object.keys(v).length === 0) continue;
    if (members.length !== 1) return `${path} has ${members.length === 0 ? 'no' : members.length} AnyValue members (${members.join(', ') || 'none of ' + ANY_VALUE_KEYS.join('/')}), expected exactly one`;
    const m = members[0];
    const x = v[m];
    const bad = memberProblem(m, x, path, stack);
    if (bad) return bad;
  }
  return null;
}

function memberProblem(m: string, x: unknown, path: string, stack: [unknown, string][]): string | null {
  switch (m) {
    case 'stringValue':
      return typeof x === 'string' ? null : `${path}.stringValue is ${describeType(x)}, expected a string`;
    case 'boolValue':
      return typeof x === 'boolean' ? null : `${path}.boolValue is ${describeType(x)}, expected true or false`;
    case 'intValue':
      return (typeof x === 'string' && DECIMAL_INT.test(x)) || (typeof x === 'number' && Number.isInteger(x)) ? null : `${path}.intValue is ${JSON.stringify(x)}, expected a decimal string (int64) or an integer`;
    case 'doubleValue':
      return typeof x === 'number' || x === 'NaN' || x === 'Infinity' || x === '-Infinity' ? null : `${path}.doubleValue is ${JSON.stringify(x)}, expected a number`;
    case 'bytesValue':
      return typeof x === 'string' && BASE64.test(x) ? null : `${path}.bytesValue is not a base64 string`;
    case 'arrayValue':
    case 'kvlistValue': {
      if (!isObj(x)) return `${path}.${m} is ${describeType(x)}, expected an object with values`;
      if (x.values === undefined) return null;
      if (!Array.isArray(x.values)) return `${path}.${m}.values is ${describeType(x.values)}, expected an array`;
      for (let i = 0; i < x.values.length; i++) {
        const item: unknown = x.values[i];
        if (m === 'arrayValue') stack.push([item, `${path}.arrayValue.values[${i}]`]);
        else if (isObj(item) && typeof item.key === 'string') stack.push([item.value, `${path}.kvlistValue.values[${i}].value`]);
        else return `${path}.kvlistValue.values[${i}] is not a {key, value} pair with a string key`;
      }
      return null;
    }
  }
  return null;
}

function attributeFindings(attrs: unknown, where: string, line: number, out: Finding[]): void {
  if (attrs === undefined) return;
  if (!Array.isArray(attrs)) {
    out.push(OTLP_CATALOG.finding('otlp/attribute-value', line, `${where}.attributes is ${describeType(attrs)}, expected an array of {key, value}.`));
    return;
  }
  attrs.forEach((kv, i) => {
    if (!isObj(kv) || typeof kv.key !== 'string') {
      out.push(OTLP_CATALOG.finding('otlp/attribute-value', line, `${where}.attributes[${i}] is not a {key, value} pair with a string key.`));
      return;
    }
    const p = anyValueProblem(kv.value);
    if (p) out.push(OTLP_CATALOG.finding('otlp/attribute-value', line, `Attribute ${JSON.stringify(kv.key)} of ${where}: ${p}.`));
  });
}

function spanAttributeFindings(ref: OtlpSpanRef, line: number, out: Finding[]): void {
  attributeFindings(ref.span.attributes, ref.path, line, out);
  for (const [list, name] of [[ref.span.events, 'events'], [ref.span.links, 'links']] as const) {
    if (!Array.isArray(list)) continue;
    list.forEach((e, i) => isObj(e) && attributeFindings(e.attributes, `${ref.path}.${name}[${i}]`, line, out));
  }
}

function timeFindings(span: Obj, line: number, out: Finding[]): void {
  const start = nanosBig(span.startTimeUnixNano);
  const end = nanosBig(span.endTimeUnixNano);
  const push = (message: string) => out.push(OTLP_CATALOG.finding('otlp/time-order', line, `Span ${JSON.stringify(span.name ?? '')}: ${message}.`));
  for (const [field, v, big] of [['startTimeUnixNano', span.startTimeUnixNano, start], ['endTimeUnixNano', span.endTimeUnixNano, end]] as const) {
    if (big === null) push(`${field} is ${v === undefined ? 'missing' : JSON.stringify(v)}, expected nanoseconds since the epoch as a decimal string`);
  }
  if (start !== null && end !== null && end < start) push(`endTimeUnixNano ${span.endTimeUnixNano} is before startTimeUnixNano ${span.startTimeUnixNano} (by ${Number(start - end) / 1e6} ms)`);
}

function kindAndStatusFindings(span: Obj, line: number, out: Finding[]): void {
  const kind = span.kind;
  const kindOk = kind === undefined || (typeof kind === 'number' && Number.isInteger(kind) && kind >= 0 && kind <= 5) || (typeof kind === 'string' && SPAN_KIND_NAMES.includes(kind));
  if (!kindOk) out.push(OTLP_CATALOG.finding('otlp/kind-value', line, `Span ${JSON.stringify(span.name ?? '')}: kind is ${JSON.stringify(kind)}, expected an integer 0–5 or a SPAN_KIND_* name.`));
  const code = isObj(span.status) ? span.status.code : undefined;
  const codeOk = code === undefined || code === 0 || code === 1 || code === 2 || (typeof code === 'string' && STATUS_NAMES.includes(code));
  if (!codeOk) out.push(OTLP_CATALOG.finding('otlp/status-code', line, `Span ${JSON.stringify(span.name ?? '')}: status.code is ${JSON.stringify(code)}, expected 0 (unset), 1 (ok) or 2 (error).`));
}

/**
 * Conformance of one span, computed while streaming: times, kind, status, attribute values, other fields. The
 * resource and scope are passed (non-null) with the first span that belongs to them only.
 */
export function spanConformanceFindings(ref: OtlpSpanRef, line: number): Finding[] {
  const out: Finding[] = [];
  if (ref.resource) attributeFindings(ref.resource.attributes, `${ref.path.replace(/\.(scopeSpans|instrumentationLibrarySpans)\[.*$/, '')}.resource`, line, out);
  if (ref.scope) attributeFindings(ref.scope.attributes, `${ref.path.replace(/\.spans\[\d+\]$/, '')}.scope`, line, out);
  timeFindings(ref.span, line, out);
  kindAndStatusFindings(ref.span, line, out);
  spanAttributeFindings(ref, line, out);
  const parsed = otlpSpanSchema.safeParse(ref.span);
  if (!parsed.success) {
    for (const issue of parsed.error.issues.slice(0, 5)) {
      out.push(OTLP_CATALOG.finding('otlp/span-schema', line, `Span ${JSON.stringify(ref.span.name ?? '')} at ${ref.path}: ${issuePath(issue.path) || '(span)'}: ${issue.message}.`));
    }
  }
  return out;
}

/** Conformance of an OTLP file: the per-span findings gathered while streaming. */
export function checkOtlp(records: OtlpRecordDigest[]): Finding[] {
  return records.flatMap((r) => r.spans.flatMap((s) => s.own));
}
