import { isObj, Obj } from '../common';
import { jaegerUiToOtlp, pythonConsoleSpansToOtlp, isJaegerUiDocument, isPythonConsoleSpan, isJsFileMetric, isJsFileSpan, jsFileSpanToOtlp } from './otlpForeign';
import { setSpanSource } from './spanSource';

/** Which shape an OTLP-family record was written in; the `otlp` format's dialects. */
export type OtlpShape = 'otlp-json' | 'otlp-snake-case' | 'jaeger-api-v3' | 'jaeger-ui' | 'python-console' | 'js-file-export' | 'otlp-logs' | 'otlp-metrics';

/** A record read as OTLP: spans as a canonical `{resourceSpans}` document, log records as `{resourceLogs}`. */
export interface OtlpRecord {
  shape: OtlpShape;
  traces: Obj | null;
  logs: Obj | null;
  /** For a metrics export: how many resourceMetrics entries (shown, never read as spans). */
  metrics: number | null;
}

const CACHE = new WeakMap<object, OtlpRecord | null>();

/**
 * Reads a record as OTLP in any of the shapes writers use: OTLP/JSON (`resourceSpans`, `resourceLogs`,
 * `resourceMetrics`), the same with protobuf snake_case names (`resource_spans`, `span_id`…), the Jaeger API v3
 * reply `{"result": {…}}`, Jaeger UI JSON (`{"data": [trace]}` or one trace), and one span of the Python SDK's
 * ConsoleSpanExporter, and the span and metric lines of the OpenTelemetry JS SDK's file export (GitHub Copilot CLI). Null when the record is none of them. Results are cached per object, since the adapter and
 * every check ask about the same parsed values.
 */
export function readOtlpRecord(v: unknown): OtlpRecord | null {
  if (!isObj(v)) return null;
  if (CACHE.has(v)) return CACHE.get(v)!;
  const r = readUncached(v);
  CACHE.set(v, r);
  return r;
}

function readUncached(v: Obj): OtlpRecord | null {
  if (isObj(v.result) && (hasAny(v.result, 'resourceSpans', 'resource_spans'))) {
    const inner = readUncached(v.result);
    return inner ? { ...inner, shape: 'jaeger-api-v3' } : null;
  }
  if (Array.isArray(v.resourceSpans)) return { shape: 'otlp-json', traces: v, logs: null, metrics: null };
  if (Array.isArray(v.resourceLogs)) return { shape: 'otlp-logs', traces: null, logs: v, metrics: null };
  if (Array.isArray(v.resourceMetrics)) return { shape: 'otlp-metrics', traces: null, logs: null, metrics: v.resourceMetrics.length };
  if (Array.isArray(v.resource_spans)) return { shape: 'otlp-snake-case', traces: camelize(v) as Obj, logs: null, metrics: null };
  if (Array.isArray(v.resource_logs)) return { shape: 'otlp-snake-case', traces: null, logs: camelize(v) as Obj, metrics: null };
  if (Array.isArray(v.resource_metrics)) return { shape: 'otlp-snake-case', traces: null, logs: null, metrics: v.resource_metrics.length };
  if (isJaegerUiDocument(v)) return { shape: 'jaeger-ui', traces: jaegerUiToOtlp(v), logs: null, metrics: null };
  if (isPythonConsoleSpan(v)) return { shape: 'python-console', traces: pythonConsoleSpansToOtlp(v), logs: null, metrics: null };
  if (isJsFileSpan(v)) return { shape: 'js-file-export', traces: jsFileSpanToOtlp(v), logs: null, metrics: null };
  if (isJsFileMetric(v)) return { shape: 'js-file-export', traces: null, logs: null, metrics: 1 };
  return null;
}

function hasAny(o: Obj, ...keys: string[]): boolean {
  return keys.some((k) => Array.isArray(o[k]));
}

const SNAKE = /_([a-z0-9])/g;

/**
 * Renames protobuf field names to their lowerCamelCase JSON names (`parent_span_id` → `parentSpanId`,
 * `string_value` → `stringValue`), iteratively. Attribute keys are values of `key` fields, so they stay as they are.
 * A span's own `span_id` is remembered so its line is found by the file's spelling.
 */
function camelize(root: unknown): unknown {
  const out: { v: unknown } = { v: undefined };
  const stack: [unknown, (x: unknown) => void][] = [[root, (x) => (out.v = x)]];
  while (stack.length > 0) {
    const [v, set] = stack.pop()!;
    if (Array.isArray(v)) {
      const arr: unknown[] = new Array(v.length);
      set(arr);
      v.forEach((x, i) => stack.push([x, (y) => (arr[i] = y)]));
    } else if (isObj(v)) {
      const o: Obj = {};
      set(o);
      for (const [k, x] of Object.entries(v)) {
        const ck = k.replace(SNAKE, (_, c: string) => c.toUpperCase());
        stack.push([x, (y) => (o[ck] = y)]);
      }
      if (typeof v.span_id === 'string' && typeof v.trace_id === 'string') setSpanSource(o, { key: 'span_id', value: v.span_id });
    } else set(v);
  }
  return out.v;
}
