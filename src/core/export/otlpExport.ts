import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
// The functions the transformer's JsonTraceSerializer builds its request with, from their own modules (the package
// index also loads the protobuf serializers and the metrics SDK: about 600 KB in each bundle): each span's JSON
// object is made once and stringified once, never a batch serialized, parsed back and stringified again.
import { createExportTraceServiceRequest, sdkSpanToOtlpSpan } from '@opentelemetry/otlp-transformer/build/esm/trace/internal';
import { JSON_ENCODER } from '@opentelemetry/otlp-transformer/build/esm/common/utils';
import type { IExportTraceServiceRequest, IScopeSpans, ISpan } from '@opentelemetry/otlp-transformer/build/esm/trace/internal-types';
import type { TraceModel } from '../traceModel';
import type { SourceSpan } from '../format';
import { otlpSpans, type OtlpExportOptions } from './otlpSpans';

export { OTLP_SCOPE_NAME, otlpSourceSpansOf, otlpSpans, traceToSpans, type OtlpContentSource, type OtlpExportOptions } from './otlpSpans';

type Sources = ReadonlyMap<string, SourceSpan> | null;

function sourcesOf(options: OtlpExportOptions): Sources {
  return options.sourceSpans && options.sourceSpans.size > 0 ? options.sourceSpans : null;
}

/**
 * The OTLP/JSON object of one span (the transformer's `sdkSpanToOtlpSpan`, as its JSON serializer makes it), with
 * what its source span wrote put back when the trace is OpenTelemetry spans: the attributes the export does not set
 * (after the export's own, as written) and the exact start and end nanoseconds.
 */
function jsonSpan(span: ReadableSpan, sources: Sources): ISpan {
  const json = sdkSpanToOtlpSpan(span, JSON_ENCODER);
  const src = sources?.get(`${(json.traceId as string).toLowerCase()}/${(json.spanId as string).toLowerCase()}`);
  if (!src) return json;
  const attrs = json.attributes;
  const ours = new Set(attrs.map((kv) => kv.key));
  for (const kv of src.attributes) {
    const key = (kv as { key?: unknown } | null)?.key;
    if (typeof key === 'string' && !ours.has(key)) {
      attrs.push(kv as ISpan['attributes'][number]);
      ours.add(key);
    }
  }
  if (src.startTimeUnixNano !== null && src.endTimeUnixNano !== null && BigInt(src.endTimeUnixNano) >= BigInt(src.startTimeUnixNano)) {
    json.startTimeUnixNano = src.startTimeUnixNano;
    json.endTimeUnixNano = src.endTimeUnixNano;
  }
  return json;
}

/**
 * The request around the spans (resource and scope, which every span of an export shares), made by the transformer
 * from the first span, with its `spans` list (in its place among the keys) to be filled.
 */
function frameOf(first: ReadableSpan): { doc: IExportTraceServiceRequest; scopeSpans: IScopeSpans } {
  const doc = createExportTraceServiceRequest([first], JSON_ENCODER);
  const scopeSpans = doc.resourceSpans![0].scopeSpans[0];
  scopeSpans.spans = [];
  return { doc, scopeSpans };
}

/** The text of a request with no span (an empty trace), as the transformer writes it. */
const EMPTY: IExportTraceServiceRequest = { resourceSpans: [] };

/** Groups JSON spans into requests of `size` spans: one request's text, once it is full. */
class Requests {
  private frame: ReturnType<typeof frameOf> | null = null;
  private batch: ISpan[] = [];
  private made = 0;
  private readonly size: number;
  private readonly sources: Sources;
  constructor(options: OtlpExportOptions) {
    this.size = options.batchSize && options.batchSize > 0 ? options.batchSize : Infinity;
    this.sources = sourcesOf(options);
  }
  add(span: ReadableSpan): string | null {
    this.frame ??= frameOf(span);
    this.batch.push(jsonSpan(span, this.sources));
    return this.batch.length >= this.size ? this.text() : null;
  }
  /** The last request: what is left, or an empty one when nothing was made. */
  end(): string | null {
    return this.batch.length > 0 || this.made === 0 ? this.text() : null;
  }
  private text(): string {
    this.made++;
    if (!this.frame) return JSON.stringify(EMPTY);
    this.frame.scopeSpans.spans = this.batch;
    const text = JSON.stringify(this.frame.doc);
    this.batch = [];
    return text;
  }
}

/**
 * The OTLP/JSON export requests (`ExportTraceServiceRequest`) of a trace, made with the OpenTelemetry JS
 * transformer: one document, or one per `batchSize` spans for an endpoint that limits request sizes. Content comes
 * from `options.content` alone (a `contentThrough` is not awaited here: {@link otlpJsonRequests} streams).
 */
export function traceToOtlpJson(model: TraceModel, options: OtlpExportOptions): string[] {
  const out: string[] = [];
  const requests = new Requests(options);
  for (const span of otlpSpans(model, options)) {
    const text = requests.add(span);
    if (text !== null) out.push(text);
  }
  const last = requests.end();
  if (last !== null) out.push(last);
  return out;
}

/**
 * The spans of {@link otlpSpans}, each made when asked for, after the content source (`contentThrough`) has the
 * content of its event: the one place the streaming writers take spans from.
 */
async function* pacedSpans(model: TraceModel, options: OtlpExportOptions): AsyncGenerator<ReadableSpan> {
  const spans = otlpSpans(model, options);
  const through = options.content ? options.contentThrough : undefined;
  for (let i = 0; ; i++) {
    if (through && i < model.events.size) await through(i);
    const next = spans.next();
    if (next.done) return;
    yield next.value;
  }
}

/**
 * The requests of {@link traceToOtlpJson} one at a time, each made when asked for (its spans made, and their
 * content read, only then), for a sender that sends each before the next is made.
 */
export async function* otlpJsonRequests(model: TraceModel, options: OtlpExportOptions): AsyncGenerator<string> {
  const requests = new Requests(options);
  for await (const span of pacedSpans(model, options)) {
    const text = requests.add(span);
    if (text !== null) yield text;
  }
  const last = requests.end();
  if (last !== null) yield last;
}

/** Spans stringified at a time by {@link writeOtlpJson}: one stringify call per group; a small group dies young (256 grew the heap by promoted spans). */
const WRITE_SPANS = 32;

/**
 * Writes the trace as one indented OTLP/JSON document (the same text as `JSON.stringify` of
 * {@link traceToOtlpJson}'s one document with an indent of 2), made as it is written: spans are made and turned
 * into their JSON objects a few hundred at a time, and each group is stringified once, in its place in the
 * document (the request around it, cut off again), so a trace of a million events is written without its
 * document, its spans or (with a `contentThrough`) its content in memory.
 */
export async function writeOtlpJson(model: TraceModel, options: OtlpExportOptions, write: (text: string) => void | Promise<void>): Promise<void> {
  const sources = sourcesOf(options);
  let frame: ReturnType<typeof frameOf> | null = null;
  let head = 0;
  let tail = '';
  let group: ISpan[] = [];
  let first = true;
  const flush = async (): Promise<void> => {
    frame!.scopeSpans.spans = group;
    const text = JSON.stringify(frame!.doc, null, 2);
    group = [];
    await write((first ? '' : ',\n') + text.slice(head, text.length - tail.length));
    first = false;
  };
  for await (const span of pacedSpans(model, options)) {
    if (frame === null) {
      // The document around the spans, cut where they go: the text before the first span and after the last.
      frame = frameOf(span);
      frame.scopeSpans.spans = [SPANS_MARK as unknown as ISpan];
      const text = JSON.stringify(frame.doc, null, 2);
      const mark = JSON.stringify(SPANS_MARK);
      const at = text.indexOf(mark);
      head = text.lastIndexOf('\n', at) + 1;
      tail = text.slice(at + mark.length);
      await write(text.slice(0, head));
    }
    group.push(jsonSpan(span, sources));
    if (group.length >= WRITE_SPANS) await flush();
  }
  if (frame === null) return void (await write(JSON.stringify(EMPTY, null, 2)));
  if (group.length > 0) await flush();
  await write(tail);
}

const SPANS_MARK = 'agent-trace: the spans go here';
