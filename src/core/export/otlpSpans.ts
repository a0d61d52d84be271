import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type HrTime } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import type { TraceModel } from '../traceModel';
import type { SourceSpan } from '../format';
import { formatModule } from '../formats';
import { TraceEvent } from '../model';
import { summarize } from '../summary';
import { deriveOtlpIds } from './otlpIds';
import { ATTR_AGENT_TRACE_USAGE_SOURCE, genAiAttributes, genAiContentAttributes, type OtlpContent, genAiOperation, genAiProvider, genAiSpanName } from './genAiAttributes';
import { usageRollupOf } from '../usage/rollup';
import { toolCallsOf } from '../usage/toolStats';

/**
 * Content read as the export goes (`--include-content`): `through(index)` reads the trace until event `index`'s
 * content is known, `content(index)` then hands it over (once: the source drops it).
 */
export interface OtlpContentSource {
  content: (index: number) => OtlpContent | undefined;
  through: (index: number) => Promise<void>;
  /** Content read and not handed over yet (messages, tool arguments and results): what the source holds now. */
  held?: () => number;
}

/** What the export is told about its source and itself. */
export interface OtlpExportOptions {
  /** The exporter's version, written as the instrumentation scope's version. */
  version: string;
  /** The trace file's base name, written as a resource attribute (never the full path: it may be private). */
  fileName: string;
  /** Spans per export request (one `resourceSpans` document each); default: all in one. */
  batchSize?: number;
  /**
   * The source's own spans by event id, when the trace is OpenTelemetry spans ({@link otlpSourceSpansOf}): each
   * exported span of one keeps its attributes that the export does not set and its start and end nanoseconds as
   * written.
   */
  sourceSpans?: ReadonlyMap<string, SourceSpan>;
  /**
   * Opt-in content (`--include-content`): the conversation of event `index`, asked for as its span is made; its
   * messages and tool arguments and results are written as the GenAI content attributes. Without it none are.
   */
  content?: (index: number) => OtlpContent | undefined;
  /**
   * With `content`, for a content source that reads the trace as the export goes (`--include-content`): the
   * streaming writers ({@link writeOtlpJson}, {@link otlpJsonRequests}) await it before event `index`'s span is
   * made, so `content(index)` has its answer then (and the source holds only what is not asked for yet).
   */
  contentThrough?: (index: number) => Promise<void>;
}

/**
 * The trace's own spans as its file writes them, when its format's records are spans (`FormatModule.sourceSpans`),
 * for {@link OtlpExportOptions.sourceSpans}; undefined for any other trace, a compressed file, or a session read with
 * other files (whose events are not all this file's).
 */
export async function otlpSourceSpansOf(model: TraceModel): Promise<ReadonlyMap<string, SourceSpan> | undefined> {
  const read = formatModule(model.format).sourceSpans;
  if (!read || model.compression || model.parts) return undefined;
  // The file was just read: one that is gone or changed since exports as the model has it, without the extras.
  return read(model.path).catch(() => undefined);
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
  // The run's own cost (Claude Code's total_cost_usd): the cost the viewer shows, which our reader takes back.
  const cost = model.formatTotals.costUsd;
  if (typeof cost === 'number' && Number.isFinite(cost)) a['agent_trace.totals.cost_usd'] = cost;
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
  return [...otlpSpans(model, options)];
}

/**
 * The span records of {@link traceToSpans} one at a time, in file order: only the per-event numbers and ids are
 * held for the whole trace, so a writer that serializes them in batches never holds every span at once.
 */
export function* otlpSpans(model: TraceModel, options: OtlpExportOptions): Generator<ReadableSpan> {
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
  const rollup = usageRollupOf(model);
  const callOf = toolCallsOf(t, rollup).callOf;
  // A tool call is one span from the call to its result: the end of its last part (result, progress) ends it.
  const end: number[] = new Array(t.size);
  for (let i = 0; i < t.size; i++) end[i] = start[i] + Math.max(0, t.durationOf(i) || 0);
  for (let i = 0; i < t.size; i++) {
    const call = callOf[i];
    if (call >= 0 && call !== i && end[i] > end[call]) end[call] = Math.max(end[i], start[call]);
  }
  // A run whose usage only its one totals line records (Gemini stream-json's result) has that line's usage as the
  // spans' gen_ai.usage: nothing else counts it, so a backend that sums gen_ai.usage finds the run's tokens.
  const soleTotals = rollup.countedIndex.length === 0 && rollup.totalsIndex.length === 1 ? rollup.totalsIndex[0] : -1;
  const providers = new Map<string | null, string>();
  const providerOf = (m: string | null): string => {
    let p = providers.get(m);
    if (p === undefined) providers.set(m, (p = genAiProvider(m, model.format)));
    return p;
  };
  for (let i = 0; i < t.size; i++) {
    const e = t.get(i);
    const begin = start[i];
    // Only the call itself is an `execute_tool`: its result and progress events are parts of it, and a tool event
    // no call counts (one without a tool name) is no call a backend should count either.
    const operation = e.category === 'tool' ? (callOf[i] === i ? genAiOperation('tool') : null) : genAiOperation(e.category);
    const responseModel = e.model ?? rollup.modelOf(i);
    const own = rollup.usage.usageOf(i);
    const counted = rollup.isCounted[i] === 1 || i === soleTotals ? own : null;
    const totals = counted === null && own?.source === 'totals' ? own : null;
    const facts = t.usageFactsOf(i);
    const ctx = { operation, provider: providerOf(responseModel), responseModel, counted, totals, cacheWrite1h: counted ? facts?.cacheWrite1h : null, finishReasons: facts?.finishReasons };
    const attributes: Attributes = { ...genAiAttributes(e, ctx), ...sourceAttributes(e, inferred[i]) };
    // Our reader takes it back as the totals line it is (priced as the source prices such a line).
    if (i === soleTotals) attributes[ATTR_AGENT_TRACE_USAGE_SOURCE] = 'totals';
    const content = operation !== null ? options.content?.(i) : undefined;
    if (content) genAiContentAttributes(operation, content, facts?.finishReasons, attributes);
    if (e.status === 'error') attributes[ATTR_ERROR_TYPE] = e.kind;
    const span = { traceId: ids.traceId(i), spanId: ids.spanId(i), traceFlags: TraceFlags.SAMPLED };
    const parent = e.parent >= 0 ? { traceId: ids.traceId(e.parent), spanId: ids.spanId(e.parent), traceFlags: TraceFlags.SAMPLED } : undefined;
    yield {
      name: genAiSpanName(e, operation),
      kind: e.category === 'inference' ? SpanKind.CLIENT : SpanKind.INTERNAL,
      spanContext: () => span,
      parentSpanContext: parent,
      startTime: hrTime(begin),
      endTime: hrTime(end[i]),
      duration: hrTime(end[i] - begin),
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
    };
  }
}

