import { isObj, Obj } from '../common';
import { setSpanSource } from './spanSource';

/** True for Jaeger UI JSON: `{"data": [{traceID, spans}]}` or one `{traceID, spans, processes}` trace. */
export function isJaegerUiDocument(v: Obj): boolean {
  if (Array.isArray(v.data)) return v.data.length > 0 && v.data.every((t) => isObj(t) && Array.isArray(t.spans) && ('traceID' in t || 'processes' in t));
  return typeof v.traceID === 'string' && Array.isArray(v.spans);
}

/** True for one span as the Python SDK's `ReadableSpan.to_json()` prints it (ConsoleSpanExporter). */
export function isPythonConsoleSpan(v: Obj): boolean {
  return typeof v.name === 'string' && isObj(v.context) && typeof v.context.span_id === 'string' && typeof v.context.trace_id === 'string' && 'parent_id' in v;
}

/** Pads a Jaeger id (64-bit trace ids are 16 hex digits) to OTLP's width, as Jaeger itself does for OTLP. */
function pad(id: unknown, width: 16 | 32): string | undefined {
  if (typeof id !== 'string') return undefined;
  return id.length < width && /^[0-9a-fA-F]+$/.test(id) ? id.padStart(width, '0') : id;
}

/** An OTLP AnyValue of a plain JSON value (Python attributes, Jaeger tag values). */
export function anyValueOf(v: unknown, depth = 0): Obj {
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  if (Array.isArray(v) && depth < 8) return { arrayValue: { values: v.map((x) => anyValueOf(x, depth + 1)) } };
  if (isObj(v) && depth < 8) return { kvlistValue: { values: keyValues(v, depth + 1) } };
  return {};
}

function keyValues(o: unknown, depth = 0): Obj[] {
  return isObj(o) ? Object.entries(o).map(([key, value]) => ({ key, value: anyValueOf(value, depth) })) : [];
}

/** Jaeger tag `{key, type, value}` as an OTLP KeyValue; int64 tags may be decimal strings. */
function jaegerTag(t: Obj): Obj {
  const key = typeof t.key === 'string' ? t.key : '';
  if (t.type === 'int64' && (typeof t.value === 'number' || typeof t.value === 'string')) return { key, value: { intValue: String(t.value) } };
  if (t.type === 'float64' && typeof t.value === 'number') return { key, value: { doubleValue: t.value } };
  if (t.type === 'binary' && typeof t.value === 'string') return { key, value: { bytesValue: t.value } };
  return { key, value: anyValueOf(t.value) };
}

const micros = (v: unknown): bigint | null => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? BigInt(v) * 1000n : null);

function jaegerSpan(s: Obj): Obj {
  const refs = Array.isArray(s.references) ? s.references.filter(isObj) : [];
  const parentRef = refs.find((r) => r.refType === 'CHILD_OF') ?? refs.find((r) => r.refType === 'FOLLOWS_FROM');
  const tags = Array.isArray(s.tags) ? s.tags.filter(isObj) : [];
  const start = micros(s.startTime);
  const dur = micros(s.duration);
  const error = tags.some((t) => t.key === 'error' && (t.value === true || t.value === 'true'));
  const out: Obj = {
    traceId: pad(s.traceID, 32),
    spanId: pad(s.spanID, 16),
    ...(parentRef ? { parentSpanId: pad(parentRef.spanID, 16) } : {}),
    name: typeof s.operationName === 'string' ? s.operationName : 'span',
    ...(start !== null ? { startTimeUnixNano: String(start) } : {}),
    ...(start !== null && dur !== null ? { endTimeUnixNano: String(start + dur) } : {}),
    attributes: tags.map(jaegerTag),
    events: (Array.isArray(s.logs) ? s.logs.filter(isObj) : []).map((l) => {
      const fields = Array.isArray(l.fields) ? l.fields.filter(isObj) : [];
      const ev = fields.find((f) => f.key === 'event');
      return { ...(micros(l.timestamp) !== null ? { timeUnixNano: String(micros(l.timestamp)) } : {}), name: typeof ev?.value === 'string' ? ev.value : 'log', attributes: fields.map(jaegerTag) };
    }),
    links: refs.filter((r) => r !== parentRef).map((r) => ({ traceId: pad(r.traceID, 32), spanId: pad(r.spanID, 16) })),
    ...(error ? { status: { code: 2 } } : {}),
  };
  if (typeof s.spanID === 'string') setSpanSource(out, { key: 'spanID', value: s.spanID });
  return out;
}

/**
 * Jaeger UI JSON as OTLP: each span in its own resourceSpans entry (document order is kept, so spans find their
 * lines in one forward pass) sharing one resource object per process; `CHILD_OF` (else `FOLLOWS_FROM`) is the parent.
 */
export function jaegerUiToOtlp(v: Obj): Obj {
  const traces = Array.isArray(v.data) ? v.data.filter(isObj) : [v];
  const resourceSpans: Obj[] = [];
  for (const t of traces) {
    const resources = new Map<string, Obj>();
    const processes = isObj(t.processes) ? t.processes : {};
    for (const [id, p] of Object.entries(processes)) {
      const tags = isObj(p) && Array.isArray(p.tags) ? p.tags.filter(isObj).map(jaegerTag) : [];
      const service = isObj(p) && typeof p.serviceName === 'string' ? [{ key: 'service.name', value: { stringValue: p.serviceName } }] : [];
      resources.set(id, { attributes: [...service, ...tags] });
    }
    for (const s of Array.isArray(t.spans) ? t.spans.filter(isObj) : []) {
      const resource = typeof s.processID === 'string' ? resources.get(s.processID) ?? null : null;
      resourceSpans.push({ ...(resource ? { resource } : {}), scopeSpans: [{ spans: [jaegerSpan(s)] }] });
    }
  }
  return { resourceSpans };
}

const ISO = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)?$/;

/** An ISO time with up to nanosecond digits (Python prints microseconds) as decimal nanoseconds. */
export function isoToNanos(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const m = ISO.exec(v);
  if (!m) return undefined;
  const ms = Date.parse(m[1] + (m[3] ?? 'Z'));
  if (Number.isNaN(ms)) return undefined;
  return String(BigInt(ms) * 1_000_000n + BigInt((m[2] ?? '').padEnd(9, '0').slice(0, 9)));
}

const hex = (v: unknown): string | undefined => (typeof v === 'string' ? v.replace(/^0x/i, '') : undefined);
const PY_STATUS: Record<string, number> = { UNSET: 0, OK: 1, ERROR: 2 };
const PY_KIND: Record<string, number> = { INTERNAL: 1, SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 };

/**
 * One Python console span as an OTLP document of one span: `0x`-prefixed ids without the prefix, ISO times as
 * nanoseconds, `SpanKind.X` and `status_code` names as the enum numbers, plain attribute objects as KeyValues.
 */
export function pythonConsoleSpansToOtlp(v: Obj): Obj {
  const ctx = v.context as Obj;
  const status = isObj(v.status) ? v.status : {};
  const kind = typeof v.kind === 'string' ? PY_KIND[v.kind.replace(/^SpanKind\./, '')] : undefined;
  const span: Obj = {
    traceId: hex(ctx.trace_id),
    spanId: hex(ctx.span_id),
    ...(typeof v.parent_id === 'string' ? { parentSpanId: hex(v.parent_id) } : {}),
    name: v.name,
    ...(kind !== undefined ? { kind } : {}),
    startTimeUnixNano: isoToNanos(v.start_time),
    endTimeUnixNano: isoToNanos(v.end_time),
    attributes: keyValues(v.attributes),
    events: (Array.isArray(v.events) ? v.events.filter(isObj) : []).map((e) => ({ timeUnixNano: isoToNanos(e.timestamp), name: typeof e.name === 'string' ? e.name : 'event', attributes: keyValues(e.attributes) })),
    links: (Array.isArray(v.links) ? v.links.filter(isObj) : []).map((l) => ({ traceId: hex(isObj(l.context) ? l.context.trace_id : undefined), spanId: hex(isObj(l.context) ? l.context.span_id : undefined), attributes: keyValues(l.attributes) })),
    status: { code: typeof status.status_code === 'string' ? PY_STATUS[status.status_code] ?? 0 : 0, ...(typeof status.description === 'string' ? { message: status.description } : {}) },
  };
  setSpanSource(span, { key: 'span_id', value: ctx.span_id as string });
  const resource = isObj(v.resource) ? { attributes: keyValues(v.resource.attributes) } : undefined;
  return { resourceSpans: [{ ...(resource ? { resource } : {}), scopeSpans: [{ spans: [span] }] }] };
}

/**
 * True for one span line of an OpenTelemetry JS SDK file export, as GitHub Copilot CLI writes it
 * (`COPILOT_OTEL_EXPORTER_TYPE=file`): `{type: "span", traceId, spanId, parentSpanId?, name, kind, startTime: [s, ns],
 * endTime, attributes: {…}, status, events, resource: {attributes}}`.
 */
export function isJsFileSpan(v: Obj): boolean {
  return v.type === 'span' && typeof v.traceId === 'string' && typeof v.spanId === 'string' && typeof v.name === 'string' && !('resourceSpans' in v);
}

/** True for one metric line of the same export: `{type: "metric", name, dataPoints: […]}`. */
export function isJsFileMetric(v: Obj): boolean {
  return v.type === 'metric' && typeof v.name === 'string' && Array.isArray(v.dataPoints);
}

/** A JS SDK `HrTime` (`[seconds, nanoseconds]`) as decimal nanoseconds; undefined when it is not one. */
export function hrTimeToNanos(v: unknown): string | undefined {
  if (!Array.isArray(v) || v.length !== 2) return undefined;
  const [s, ns] = v;
  if (!Number.isSafeInteger(s) || !Number.isSafeInteger(ns) || s < 0 || ns < 0 || ns >= 1_000_000_000) return undefined;
  return String(BigInt(s) * 1_000_000_000n + BigInt(ns));
}

/**
 * One JS file-export span as an OTLP document of one span: `[s, ns]` times as nanoseconds, the SDK's `SpanKind`
 * (INTERNAL = 0 … CONSUMER = 4) as OTLP's (one more), plain attribute maps as KeyValues. Status codes agree already.
 */
export function jsFileSpanToOtlp(v: Obj): Obj {
  const status = isObj(v.status) ? v.status : {};
  const kind = typeof v.kind === 'number' && Number.isInteger(v.kind) && v.kind >= 0 && v.kind <= 4 ? v.kind + 1 : undefined;
  const span: Obj = {
    traceId: v.traceId,
    spanId: v.spanId,
    ...(typeof v.parentSpanId === 'string' && v.parentSpanId !== '' ? { parentSpanId: v.parentSpanId } : {}),
    name: v.name,
    ...(kind !== undefined ? { kind } : {}),
    startTimeUnixNano: hrTimeToNanos(v.startTime),
    endTimeUnixNano: hrTimeToNanos(v.endTime),
    attributes: keyValues(v.attributes),
    events: (Array.isArray(v.events) ? v.events.filter(isObj) : []).map((e) => ({ timeUnixNano: hrTimeToNanos(e.time), name: typeof e.name === 'string' ? e.name : 'event', attributes: keyValues(e.attributes) })),
    links: (Array.isArray(v.links) ? v.links.filter(isObj) : []).map((l) => ({ traceId: isObj(l.context) ? l.context.traceId : undefined, spanId: isObj(l.context) ? l.context.spanId : undefined, attributes: keyValues(l.attributes) })),
    status: { code: typeof status.code === 'number' ? status.code : 0, ...(typeof status.message === 'string' ? { message: status.message } : {}) },
  };
  const resource = isObj(v.resource) ? { attributes: keyValues(v.resource.attributes) } : undefined;
  const scope = isObj(v.instrumentationScope) ? { scope: v.instrumentationScope } : {};
  return { resourceSpans: [{ ...(resource ? { resource } : {}), scopeSpans: [{ ...scope, spans: [span] }] }] };
}
