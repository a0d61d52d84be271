import { describeType, isObj, Obj } from '../common';
import { readOtlpRecord } from './otlpShapes';
import { SpanSource, spanSourceOf } from './spanSource';

/** One span of an OTLP/JSON document with the resource and scope it belongs to. */
export interface OtlpSpanRef {
  span: Obj;
  resource: Obj | null;
  scope: Obj | null;
  /** JSON path of the span inside its document, e.g. `resourceSpans[0].scopeSpans[1].spans[2]`. */
  path: string;
  /** How the span's id is written in the file (`spanId`, `span_id`, `spanID`), to find its line. */
  source: SpanSource | null;
}

/** One OTLP log record with the resource and scope it belongs to. */
export interface OtlpLogRef {
  log: Obj;
  resource: Obj | null;
  scope: Obj | null;
  path: string;
}

/** A place where a document departs from `resourceSpans[].scopeSpans[].spans[]`. */
export interface OtlpShapeIssue {
  path: string;
  message: string;
}

/** True when a value is an OTLP-family record: traces, logs or metrics in any shape {@link readOtlpRecord} reads. */
export function isOtlpDocument(v: unknown): v is Obj {
  return readOtlpRecord(v) !== null;
}

/**
 * Walks `resourceSpans[].scopeSpans[].spans[]` in document order, calling `onSpan` for every span object, and
 * returns the shape problems met. Pre-1.0 exporters wrote `instrumentationLibrarySpans` / `instrumentationLibrary`;
 * they are read as aliases so old exports still open.
 */
export function walkOtlpDocument(doc: unknown, onSpan: (ref: OtlpSpanRef) => void): OtlpShapeIssue[] {
  const issues: OtlpShapeIssue[] = [];
  if (!isObj(doc)) return [{ path: '', message: `the document is ${describeType(doc)}, not an object with a resourceSpans array` }];
  if (!Array.isArray(doc.resourceSpans)) return [{ path: 'resourceSpans', message: `resourceSpans is ${describeType(doc.resourceSpans)}, expected an array` }];
  doc.resourceSpans.forEach((rs, i) => {
    const rsPath = `resourceSpans[${i}]`;
    if (!isObj(rs)) return issues.push({ path: rsPath, message: `${rsPath} is ${describeType(rs)}, expected an object` });
    const resource = isObj(rs.resource) ? rs.resource : null;
    const scopeKey = Array.isArray(rs.scopeSpans) ? 'scopeSpans' : Array.isArray(rs.instrumentationLibrarySpans) ? 'instrumentationLibrarySpans' : null;
    if (scopeKey === null) return issues.push({ path: `${rsPath}.scopeSpans`, message: `${rsPath}.scopeSpans is ${describeType(rs.scopeSpans)}, expected an array` });
    (rs[scopeKey] as unknown[]).forEach((ss, j) => {
      const ssPath = `${rsPath}.${scopeKey}[${j}]`;
      if (!isObj(ss)) return issues.push({ path: ssPath, message: `${ssPath} is ${describeType(ss)}, expected an object` });
      const scope = isObj(ss.scope) ? ss.scope : isObj(ss.instrumentationLibrary) ? ss.instrumentationLibrary : null;
      if (!Array.isArray(ss.spans)) return issues.push({ path: `${ssPath}.spans`, message: `${ssPath}.spans is ${describeType(ss.spans)}, expected an array` });
      ss.spans.forEach((span, k) => {
        const path = `${ssPath}.spans[${k}]`;
        if (isObj(span)) onSpan({ span, resource, scope, path, source: spanSourceOf(span) });
        else issues.push({ path, message: `${path} is ${describeType(span)}, expected a span object` });
      });
    });
  });
  return issues;
}

export { describeType };

const ANY_VALUE_KEYS = ['stringValue', 'boolValue', 'intValue', 'doubleValue', 'arrayValue', 'kvlistValue', 'bytesValue'] as const;
export { ANY_VALUE_KEYS };

/**
 * Converts an OTLP `AnyValue` to a plain value for labels and lookups. 64-bit integers that JavaScript cannot hold
 * exactly stay decimal strings.
 */
export function plainAnyValue(v: unknown, depth = 0): unknown {
  if (!isObj(v) || depth > 16) return undefined;
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('intValue' in v) return plainInt(v.intValue);
  if ('doubleValue' in v) return typeof v.doubleValue === 'string' ? Number(v.doubleValue) : v.doubleValue;
  if ('bytesValue' in v) return v.bytesValue;
  if (isObj(v.arrayValue)) return Array.isArray(v.arrayValue.values) ? v.arrayValue.values.map((x) => plainAnyValue(x, depth + 1)) : [];
  if (isObj(v.kvlistValue)) return Object.fromEntries(attributeMap(v.kvlistValue.values, depth + 1));
  return undefined;
}

function plainInt(v: unknown): unknown {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : v;
  }
  return v;
}

/** An OTLP `KeyValue[]` as a map of plain values (first key wins, like most backends). */
export function attributeMap(attrs: unknown, depth = 0): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!Array.isArray(attrs)) return out;
  for (const kv of attrs) {
    if (!isObj(kv) || typeof kv.key !== 'string' || out.has(kv.key)) continue;
    out.set(kv.key, plainAnyValue(kv.value, depth));
  }
  return out;
}

const DECIMAL = /^\d+$/;

/** Nanoseconds since the epoch (decimal string or number) as epoch milliseconds, or null. */
export function nanosToMs(v: unknown): number | null {
  if (typeof v === 'string' && DECIMAL.test(v)) {
    const big = BigInt(v);
    return Number(big / 1_000_000n) + Number(big % 1_000_000n) / 1e6;
  }
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v / 1e6;
  return null;
}

/** Nanosecond time as BigInt (exact), or null when it is not a decimal string or a non-negative integer. */
export function nanosBig(v: unknown): bigint | null {
  if (typeof v === 'string' && DECIMAL.test(v)) return BigInt(v);
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  return null;
}

/** Span duration in milliseconds, exact to the nanosecond even for 19-digit times. */
export function spanDurationMs(start: unknown, end: unknown): number | null {
  const s = nanosBig(start);
  const e = nanosBig(end);
  if (s === null || e === null) return null;
  return Number(e - s) / 1e6;
}

/** The file-wide id of a span: `traceId/spanId`, lowercased, because span ids are only unique within a trace. */
export function spanKey(traceId: string, spanId: string): string {
  return `${traceId.toLowerCase()}/${spanId.toLowerCase()}`;
}

/** The non-empty `parentSpanId` of a span, or null. */
export function parentSpanIdOf(span: Obj): string | null {
  return typeof span.parentSpanId === 'string' && span.parentSpanId !== '' ? span.parentSpanId : null;
}

/** Walks `resourceLogs[].scopeLogs[].logRecords[]` in order. */
function walkOtlpLogs(doc: Obj, onLog: (ref: OtlpLogRef) => void): number {
  let n = 0;
  (doc.resourceLogs as unknown[]).forEach((rl, i) => {
    if (!isObj(rl) || !Array.isArray(rl.scopeLogs)) return;
    const resource = isObj(rl.resource) ? rl.resource : null;
    rl.scopeLogs.forEach((sl, j) => {
      if (!isObj(sl) || !Array.isArray(sl.logRecords)) return;
      const scope = isObj(sl.scope) ? sl.scope : null;
      sl.logRecords.forEach((log, k) => {
        if (!isObj(log)) return;
        n++;
        onLog({ log, resource, scope, path: `resourceLogs[${i}].scopeLogs[${j}].logRecords[${k}]` });
      });
    });
  });
  return n;
}

/** What one OTLP record holds besides spans, for its placeholder event. */
export interface OtlpPlaceholder {
  issues: OtlpShapeIssue[];
  /** Metrics exports are read as one event each; null when the record is not a metrics export. */
  metrics: number | null;
  logs: boolean;
}

/**
 * Visits the events an adapter makes of one OTLP record, in order: one per span, one per log record, or a single
 * placeholder when the record holds neither (an empty export, a metrics export, a value that is not OTLP). Any shape
 * {@link readOtlpRecord} reads is normalized first. Checks use it to map spans to the lines of their events.
 */
export function forEachOtlpEvent(
  value: unknown,
  onSpan: (ref: OtlpSpanRef) => void,
  onPlaceholder: (p: OtlpPlaceholder) => void,
  onLog: (ref: OtlpLogRef) => void = () => undefined,
): OtlpShapeIssue[] {
  const rec = readOtlpRecord(value);
  if (rec && rec.traces === null) {
    const logs = rec.logs ? walkOtlpLogs(rec.logs, onLog) : 0;
    if (logs === 0) onPlaceholder({ issues: [], metrics: rec.metrics, logs: rec.logs !== null });
    return [];
  }
  let spans = 0;
  const issues = walkOtlpDocument(rec?.traces ?? value, (ref) => {
    spans++;
    onSpan(ref);
  });
  if (spans === 0) onPlaceholder({ issues, metrics: null, logs: false });
  return issues;
}
