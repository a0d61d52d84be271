import { ruleCatalog, RuleEntry } from '../../catalog/ruleEntries';

/** The OTLP/JSON rules of docs/formats "Checks a viewer can run", plus a schema rule for the remaining span fields. */
const ENTRIES = [
  ['document-shape', 'verify', 'error', 'The document is not resourceSpans[].scopeSpans[].spans[].',
    'An OTLP/JSON traces file is one ExportTraceServiceRequest document, or one per line (the collector\'s file exporter): an object with a resourceSpans array whose entries hold scopeSpans[].spans[]. The same is read with protobuf snake_case names, inside a Jaeger API v3 {"result": …} reply, as Jaeger UI JSON and as the Python SDK\'s console spans; logs (resourceLogs) and metrics (resourceMetrics) exports are read too. Anything else was not written by an OTLP exporter, or was cut or edited; spans outside that shape are not read.',
    '{"resourceSpans":{"scopeSpans":[]}}'],
  ['id-format', 'verify', 'error', 'A trace or span id is not hex of the right length, or is all zeros.',
    'traceId is 16 bytes written as 32 hex characters; spanId and parentSpanId are 8 bytes as 16 hex characters (parentSpanId may be empty for a root). All-zero ids are invalid. Base64 ids come from a protobuf JSON mapping that OTLP does not use; such spans cannot be linked.',
    '{"traceId":"5B8EFFF798038103D269B633813FC60C","spanId":"EEE19B7E"}'],
  ['span-id-unique', 'verify', 'warning', 'Two spans share one (traceId, spanId).',
    'A span id identifies one span within its trace. A repeated pair usually means an export was appended twice or spans were merged from two files; children attach to the first span with the id.',
    '{"traceId":"…","spanId":"eee19b7ec3c1b174"} … {"traceId":"…","spanId":"eee19b7ec3c1b174"}'],
  ['parent-exists', 'verify', 'info', 'The parent span is not in the file (a remote parent).',
    'parentSpanId names a span of the same trace. When that span is not in the file it lives in another service or another export: the span is shown as a root. This is normal for partial exports.',
    '{"traceId":"…","spanId":"eee19b7ec3c1b174","parentSpanId":"eee19b7ec3c1b173"}'],
  ['parent-cycle', 'verify', 'error', 'Parent links form a cycle.',
    'Following parentSpanId from a span leads back to it. No tracer produces this; the ids were rewritten or corrupted. The link of the span last in the file is cut and that span shown as a root.',
    'span a parentSpanId b; span b parentSpanId a'],
  ['time-order', 'check', 'warning', 'A span ends before it starts, or a time is not decimal nanoseconds.',
    'startTimeUnixNano and endTimeUnixNano are uint64 nanoseconds since the epoch, written as decimal strings (integers are accepted). A span ending before it starts has a clock or exporter bug; its duration is meaningless.',
    '{"startTimeUnixNano":"1544712661000000000","endTimeUnixNano":"1544712660000000000"}'],
  ['kind-value', 'check', 'warning', 'kind is not 0–5 or a SPAN_KIND_* name.',
    'SpanKind is an enum: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. OTLP/JSON writes the integer; some producers write the enum name (accepted, non-standard). Anything else cannot be mapped.',
    '{"kind":"internal"}'],
  ['attribute-value', 'check', 'error', 'An attribute value has several AnyValue members, or one of the wrong type.',
    'Every KeyValue has a string key and a value with at most one of stringValue, boolValue, intValue (int64 as a decimal string), doubleValue, arrayValue, kvlistValue or bytesValue. An empty value {} is allowed (common.proto leaves the oneof unset for an empty value; the OpenTelemetry Java agent writes it). Backends reject or drop other shapes.',
    '{"key":"gen_ai.usage.input_tokens","value":{"intValue":"12k"}}'],
  ['status-code', 'check', 'info', 'status.code is not 0, 1 or 2.',
    'Status codes are 0 unset, 1 ok, 2 error (the enum names STATUS_CODE_* are accepted). Code 2 marks an error span, which the tree shows in red; other values are unknown to every backend.',
    '{"status":{"code":3}}'],
  ['span-schema', 'check', 'warning', 'A span field has the wrong type.',
    'Fields without a rule of their own are checked against the OTLP proto: name is a string, flags and dropped counts are non-negative integers, events and links are arrays of objects, traceState and status.message are strings.',
    '{"name":42}'],
] as const satisfies readonly RuleEntry[];

/** The OTLP rule catalog; every otlp/ finding takes its severity from it. */
export const OTLP_CATALOG = ruleCatalog('otlp', 'otlp', ENTRIES);

/** An OTLP rule id. */
export type OtlpRuleId = Parameters<typeof OTLP_CATALOG.finding>[0];
