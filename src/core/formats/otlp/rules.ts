import { checkOtlp, spanConformanceFindings } from './otlpConformance';
import { collectingCheck } from '../../checks/checkRecords';
import { otlpDigester, otlpDocumentRecords } from './otlpRecords';
import { spanIdFindings, verifyOtlp } from './otlpVerify';
import { RuleInfo, RuleModule } from '../../checks/types';

/** The OTLP/JSON rules of docs/formats "Checks a viewer can run", plus a schema rule for the remaining span fields. */
export const OTLP_RULES: RuleInfo[] = [
  { id: 'otlp/document-shape', format: 'otlp', mode: 'verify', severity: 'error', summary: 'The document is not resourceSpans[].scopeSpans[].spans[].',
    explanation: 'An OTLP/JSON traces file is one ExportTraceServiceRequest document, or one per line (the collector\'s file exporter): an object with a resourceSpans array whose entries hold scopeSpans[].spans[]. The same is read with protobuf snake_case names, inside a Jaeger API v3 {"result": …} reply, as Jaeger UI JSON and as the Python SDK\'s console spans; logs (resourceLogs) and metrics (resourceMetrics) exports are read too. Anything else was not written by an OTLP exporter, or was cut or edited; spans outside that shape are not read.',
    example: '{"resourceSpans":{"scopeSpans":[]}}' },
  { id: 'otlp/id-format', format: 'otlp', mode: 'verify', severity: 'error', summary: 'A trace or span id is not hex of the right length, or is all zeros.',
    explanation: 'traceId is 16 bytes written as 32 hex characters; spanId and parentSpanId are 8 bytes as 16 hex characters (parentSpanId may be empty for a root). All-zero ids are invalid. Base64 ids come from a protobuf JSON mapping that OTLP does not use; such spans cannot be linked.',
    example: '{"traceId":"5B8EFFF798038103D269B633813FC60C","spanId":"EEE19B7E"}' },
  { id: 'otlp/span-id-unique', format: 'otlp', mode: 'verify', severity: 'warning', summary: 'Two spans share one (traceId, spanId).',
    explanation: 'A span id identifies one span within its trace. A repeated pair usually means an export was appended twice or spans were merged from two files; children attach to the first span with the id.',
    example: '{"traceId":"…","spanId":"eee19b7ec3c1b174"} … {"traceId":"…","spanId":"eee19b7ec3c1b174"}' },
  { id: 'otlp/parent-exists', format: 'otlp', mode: 'verify', severity: 'info', summary: 'The parent span is not in the file (a remote parent).',
    explanation: 'parentSpanId names a span of the same trace. When that span is not in the file it lives in another service or another export: the span is shown as a root. This is normal for partial exports.',
    example: '{"traceId":"…","spanId":"eee19b7ec3c1b174","parentSpanId":"eee19b7ec3c1b173"}' },
  { id: 'otlp/parent-cycle', format: 'otlp', mode: 'verify', severity: 'error', summary: 'Parent links form a cycle.',
    explanation: 'Following parentSpanId from a span leads back to it. No tracer produces this; the ids were rewritten or corrupted. The link of the span last in the file is cut and that span shown as a root.',
    example: 'span a parentSpanId b; span b parentSpanId a' },
  { id: 'otlp/time-order', format: 'otlp', mode: 'check', severity: 'warning', summary: 'A span ends before it starts, or a time is not decimal nanoseconds.',
    explanation: 'startTimeUnixNano and endTimeUnixNano are uint64 nanoseconds since the epoch, written as decimal strings (integers are accepted). A span ending before it starts has a clock or exporter bug; its duration is meaningless.',
    example: '{"startTimeUnixNano":"1544712661000000000","endTimeUnixNano":"1544712660000000000"}' },
  { id: 'otlp/kind-value', format: 'otlp', mode: 'check', severity: 'warning', summary: 'kind is not 0–5 or a SPAN_KIND_* name.',
    explanation: 'SpanKind is an enum: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. OTLP/JSON writes the integer; some producers write the enum name (accepted, non-standard). Anything else cannot be mapped.',
    example: '{"kind":"internal"}' },
  { id: 'otlp/attribute-value', format: 'otlp', mode: 'check', severity: 'error', summary: 'An attribute value has several AnyValue members, or one of the wrong type.',
    explanation: 'Every KeyValue has a string key and a value with at most one of stringValue, boolValue, intValue (int64 as a decimal string), doubleValue, arrayValue, kvlistValue or bytesValue. An empty value {} is allowed (common.proto leaves the oneof unset for an empty value; the OpenTelemetry Java agent writes it). Backends reject or drop other shapes.',
    example: '{"key":"gen_ai.usage.input_tokens","value":{"intValue":"12k"}}' },
  { id: 'otlp/status-code', format: 'otlp', mode: 'check', severity: 'info', summary: 'status.code is not 0, 1 or 2.',
    explanation: 'Status codes are 0 unset, 1 ok, 2 error (the enum names STATUS_CODE_* are accepted). Code 2 marks an error span, which the tree shows in red; other values are unknown to every backend.',
    example: '{"status":{"code":3}}' },
  { id: 'otlp/span-schema', format: 'otlp', mode: 'check', severity: 'warning', summary: 'A span field has the wrong type.',
    explanation: 'Fields without a rule of their own are checked against the OTLP proto: name is a string, flags and dropped counts are non-negative integers, events and links are arrays of objects, traceState and status.message are strings.',
    example: '{"name":42}' },
];

/** OTLP/JSON verification (shape, ids, parents) and conformance (times, kinds, attribute values, status). */
export const otlpRules: RuleModule = {
  format: 'otlp',
  rules: OTLP_RULES,
  supersedes: ['tree/duplicate-id', 'tree/dangling-parent', 'tree/cycle', 'generic/time-backwards'],
  createVerifier: (ctx) => collectingCheck(ctx, otlpDigester(ctx, spanIdFindings), verifyOtlp, otlpDocumentRecords),
  createChecker: (ctx) => collectingCheck(ctx, otlpDigester(ctx, spanConformanceFindings), checkOtlp, otlpDocumentRecords),
};
