import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type HrTime } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
// The JSON serializer's own module: the package index also loads the protobuf serializers and the metrics SDK
// (about 600 KB in each bundle), and its ES build lets the bundler keep only what is used.
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer/build/esm/trace/json';
import { ATTR_SERVICE_NAME, ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { ATTR_GEN_AI_USAGE_INPUT_TOKENS, ATTR_GEN_AI_USAGE_OUTPUT_TOKENS } from '@opentelemetry/semantic-conventions/incubating';
import type { TraceModel } from '../traceModel';
import { TraceEvent } from '../model';
import { summarize } from '../summary';
import { deriveOtlpIds } from './otlpIds';
import { genAiAttributes, genAiSpanName } from './genAiAttributes';

/** What the export is told about its source and itself. */
export interface OtlpExportOptions {
  /** The exporter's version, written as the instrumentation scope's version. */
  version: string;
  /** The trace file's base name, written as a resource attribute (never the full path: it may be private). */
  fileName: string;
  /** Spans per export request (one `resourceSpans` document each); default: all in one. */
  batchSize?: number;
}

/** The instrumentation scope every exported span carries. */
export const OTLP_SCOPE_NAME = 'agent-trace-viewer';

function hrTime(ms: number): HrTime {
  const whole = Math.floor(ms);
  const sec = Math.floor(whole / 1000);
  const nanos = (whole - sec * 1000) * 1e6 + Math.round((ms - whole) * 1e6);
  return [sec, Math.min(nanos, 999_999_999)];
}

/**
 * Start times of every event: its own, or (for an event without one) the last time seen before it in file
 * order, else the first time seen after it, else 0. Spans must have a start; a guess that keeps the order
 * of the file is marked with `agent_trace.time_inferred`.
 */
function startTimes(model: TraceModel): { start: number[]; inferred: boolean[] } {
  const t = model.events;
  const start: number[] = new Array(t.size);
  const inferred: boolean[] = new Array(t.size).fill(false);
  let last: number | null = null;
  for (let i = 0; i < t.size; i++) {
    const own = t.timeOf(i);
    if (own !== null) last = own;
    else inferred[i] = true;
    start[i] = own ?? last ?? NaN;
  }
  let next = 0;
  for (let i = t.size - 1; i >= 0; i--) {
    if (!Number.isNaN(start[i]) && !inferred[i]) next = start[i];
    if (Number.isNaN(start[i])) start[i] = next;
  }
  return { start, inferred };
}

/** Moves an event's `gen_ai.usage.*` tokens to `agent_trace.totals.*`: they sum the calls, they are none. */
function totalsApart(a: Attributes): void {
  for (const [from, to] of [[ATTR_GEN_AI_USAGE_INPUT_TOKENS, 'agent_trace.totals.input_tokens'], [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS, 'agent_trace.totals.output_tokens']] as const) {
    if (a[from] === undefined) continue;
    a[to] = a[from];
    delete a[from];
  }
}

/**
 * The trace's totals as the viewer's header shows them. A format may count them apart from its events (a usage
 * record of the whole run, a tool call and its result as one call), so the sum of the spans' `gen_ai.usage.*`
 * can differ; these keep the runtime's own figures.
 */
function headlineTotals(model: TraceModel): Attributes {
  const t = summarize(model).totals;
  const a: Attributes = { 'agent_trace.totals.tool_calls': t.toolCalls, 'agent_trace.totals.errors': t.errors };
  if (t.inputTokens !== null) a['agent_trace.totals.input_tokens'] = t.inputTokens;
  if (t.outputTokens !== null) a['agent_trace.totals.output_tokens'] = t.outputTokens;
  return a;
}

/** The status message of a failed event: what its label says after `error:`, else the whole label. */
function errorMessage(label: string): string {
  const m = /\berror: (.+)$/.exec(label);
  return m ? m[1] : label;
}

/** Attributes that keep what the event was in the source trace (kind, line, label), for people and for tests. */
function sourceAttributes(e: TraceEvent, inferredTime: boolean): Attributes {
  const a: Attributes = {
    'agent_trace.kind': e.kind,
    'agent_trace.category': e.category,
    'agent_trace.line': e.line,
    'agent_trace.label': e.label,
  };
  if (e.status !== 'ok') a['agent_trace.status'] = e.status;
  if (e.id !== null) a['agent_trace.id'] = e.id;
  if (e.group !== null) a['agent_trace.group'] = e.group;
  if (e.seq !== null) a['agent_trace.seq'] = e.seq;
  if (inferredTime) a['agent_trace.time_inferred'] = true;
  return a;
}

/**
 * Turns a loaded trace into SDK span records, one per event in file order, with GenAI attributes, parents
 * from the event tree and ids from {@link deriveOtlpIds}. The records feed the OpenTelemetry serializer.
 */
export function traceToSpans(model: TraceModel, options: OtlpExportOptions): ReadableSpan[] {
  const t = model.events;
  const ids = deriveOtlpIds(t, model.tree);
  const { start, inferred } = startTimes(model);
  const resource = resourceFromAttributes({
    [ATTR_SERVICE_NAME]: model.format,
    'agent_trace.source.format': model.format,
    'agent_trace.source.file': options.fileName,
    ...headlineTotals(model),
  });
  const scope = { name: OTLP_SCOPE_NAME, version: options.version };
  const spans: ReadableSpan[] = [];
  for (let i = 0; i < t.size; i++) {
    const e = t.get(i);
    const begin = start[i];
    const end = begin + Math.max(0, e.durationMs ?? 0);
    const attributes: Attributes = { ...genAiAttributes(e), ...sourceAttributes(e, inferred[i]) };
    // A record of the run's totals (a session's usage beside its model calls) is no call of its own: its numbers go
    // under names of ours, so no backend (nor our reader) adds them to the calls' gen_ai.usage.
    if (t.usageFactsOf(i)?.source === 'totals') totalsApart(attributes);
    if (e.status === 'error') attributes[ATTR_ERROR_TYPE] = e.kind;
    const ctx = { traceId: ids.traceIds[i], spanId: ids.spanIds[i], traceFlags: TraceFlags.SAMPLED };
    const parent = e.parent >= 0 ? { traceId: ids.traceIds[e.parent], spanId: ids.spanIds[e.parent], traceFlags: TraceFlags.SAMPLED } : undefined;
    spans.push({
      name: genAiSpanName(e),
      kind: e.category === 'inference' ? SpanKind.CLIENT : SpanKind.INTERNAL,
      spanContext: () => ctx,
      parentSpanContext: parent,
      startTime: hrTime(begin),
      endTime: hrTime(end),
      duration: hrTime(end - begin),
      // OK is set on purpose: readers (ours too) otherwise guess failure from span names such as `tool_error`.
      status: e.status === 'error' ? { code: SpanStatusCode.ERROR, message: errorMessage(e.label) } : { code: SpanStatusCode.OK },
      attributes,
      links: [],
      events: [],
      ended: true,
      resource,
      instrumentationScope: scope,
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    });
  }
  return spans;
}

/**
 * The OTLP/JSON export requests (`ExportTraceServiceRequest`) of a trace, serialized by the OpenTelemetry
 * JS transformer: one document, or one per `batchSize` spans for an endpoint that limits request sizes.
 */
export function traceToOtlpJson(model: TraceModel, options: OtlpExportOptions): string[] {
  const spans = traceToSpans(model, options);
  const size = options.batchSize && options.batchSize > 0 ? options.batchSize : Math.max(1, spans.length);
  const out: string[] = [];
  const decoder = new TextDecoder();
  for (let k = 0; k < Math.max(1, spans.length); k += size) out.push(decoder.decode(JsonTraceSerializer.serializeRequest(spans.slice(k, k + size))));
  return out;
}
