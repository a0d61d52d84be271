import { EventCategory, EventDraft, EventStatus, IdMention } from '../../model';
import { argsSummary, collectHashRefs, exitCodeInText, formatDuration, formatTokens, isObj, label, mayHoldDigest, modelCallLabel, Obj, short, statusFromWord, toolResultLabel } from '../common';
import { categoryFromKind } from '../common';
import { LocateBudget } from '../locateBudget';
import { attributeMap, forEachOtlpEvent, isOtlpDocument, nanosToMs, OtlpPlaceholder, OtlpSpanRef, parentSpanIdOf, spanDurationMs, spanKey } from './otlpSpans';
import { describeLog } from './otlpLogs';
import { withGenAiNames } from './aiSdkSpans';
import { spanUsage } from './otlpUsage';
import { OtlpShape, readOtlpRecord } from './otlpShapes';
import { SpanSource, spanSourceOf } from './spanSource';
import { EventBuilder, FormatAdapter, FormatTotals, SniffResult, SniffSample, SourceRecord } from '../../format';

const INFERENCE_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content', 'embeddings', 'completion']);
const AGENT_OPERATIONS = new Set(['invoke_agent', 'create_agent']);

/** Attributes whose string values name other spans, calls, runs or sessions (for hover and jump). */
const ID_ATTRIBUTE = /(^|[._])(id|ids)$/;

/**
 * Counts tool and error spans. Tokens are left to the usage rollup: an agent span's usage sums its model
 * calls', and adding both counted them twice.
 */
class OtlpTotals {
  private toolCalls = 0;
  private errors = 0;
  /** The run's own cost an export of ours records on its resource (`agent_trace.totals.cost_usd`). */
  private costUsd: number | undefined;
  private resource: Obj | null = null;

  /** Reads the run's recorded cost from a span's resource (once per resource object). */
  addResource(resource: Obj | null): void {
    if (resource === null || resource === this.resource) return;
    this.resource = resource;
    const cost = attributeMap(resource.attributes).get('agent_trace.totals.cost_usd');
    if (typeof cost === 'number' && Number.isFinite(cost) && cost >= 0) this.costUsd = cost;
  }

  /** `toolCall`: a tool span (GenAI `execute_tool` or a `gen_ai.tool.name`) or a tool log event; never guessed from names. */
  add(draft: EventDraft, toolCall: boolean): void {
    if (toolCall) this.toolCalls++;
    if (draft.status === 'error') this.errors++;
  }

  result(): FormatTotals {
    return this.costUsd === undefined ? { errors: this.errors, toolCalls: this.toolCalls } : { errors: this.errors, toolCalls: this.toolCalls, costUsd: this.costUsd };
  }
}

function numberAttr(attrs: Map<string, unknown>, ...keys: string[]): number | null {
  for (const k of keys) {
    const v = attrs.get(k);
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  }
  return null;
}

function stringAttr(attrs: Map<string, unknown>, ...keys: string[]): string | null {
  for (const k of keys) {
    const v = attrs.get(k);
    if (typeof v === 'string' && v !== '') return v;
  }
  return null;
}

/** `status.code` 2 (or its enum name) is an error; `error.type` also marks a failed operation in GenAI spans. */
function spanStatus(span: Obj, name: string, attrs: Map<string, unknown>): EventStatus {
  const code = isObj(span.status) ? span.status.code : undefined;
  if (code === 2 || code === 'STATUS_CODE_ERROR') return 'error';
  if (attrs.has('error.type')) return 'error';
  if (code === 1 || code === 'STATUS_CODE_OK') return 'ok';
  // Event-style span names (agentledger writes one span per runtime event) say failure in the name itself.
  return /^[\w.:-]+$/.test(name) ? statusFromWord(name) ?? 'ok' : 'ok';
}

/**
 * A span is a tool call only by the GenAI conventions (`gen_ai.operation.name` = `execute_tool`, or a
 * `gen_ai.tool.name`): span names like `SELECT call_log` or `POST /exec` say nothing about agent tools.
 */
function spanCategory(operation: string | null, name: string, tool: string | null): EventCategory {
  if (operation && INFERENCE_OPERATIONS.has(operation)) return 'inference';
  if (operation === 'execute_tool' || (operation === null && tool !== null)) return 'tool';
  if (operation && AGENT_OPERATIONS.has(operation)) return 'run';
  const c = categoryFromKind(name);
  return c === 'other' || c === 'tool' ? 'span' : c;
}

function spanMentions(span: Obj, traceId: string | null, attrs: Map<string, unknown>): IdMention[] {
  const out: IdMention[] = [];
  const parent = parentSpanIdOf(span);
  if (traceId) out.push({ field: 'traceId', id: traceId });
  if (traceId && parent) out.push({ field: 'parentSpanId', id: spanKey(traceId, parent) });
  if (Array.isArray(span.links)) {
    span.links.forEach((l, i) => {
      if (isObj(l) && typeof l.traceId === 'string' && typeof l.spanId === 'string') out.push({ field: `links[${i}]`, id: spanKey(l.traceId, l.spanId) });
    });
  }
  for (const [k, v] of attrs) if (typeof v === 'string' && v !== '' && ID_ATTRIBUTE.test(k)) out.push({ field: `attributes.${k}`, id: v });
  return out;
}

/** The GenAI semantic-convention fields of a span's attributes (older `prompt/completion_tokens` names too). */
function genAiFields(attrs: Map<string, unknown>) {
  return {
    operation: stringAttr(attrs, 'gen_ai.operation.name'),
    model: stringAttr(attrs, 'gen_ai.response.model', 'gen_ai.request.model'),
    tool: stringAttr(attrs, 'gen_ai.tool.name'),
    agent: stringAttr(attrs, 'gen_ai.agent.name'),
    tokensIn: numberAttr(attrs, 'gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens'),
    tokensOut: numberAttr(attrs, 'gen_ai.usage.output_tokens', 'gen_ai.usage.completion_tokens'),
  };
}

/** A tool call's arguments as the span gives them (a JSON object's text, GenAI or the AI SDK's names): their summary. */
function toolArg(attrs: Map<string, unknown>): string | null {
  const raw = attrs.get('gen_ai.tool.call.arguments') ?? attrs.get('ai.toolCall.args');
  if (typeof raw !== 'string') return argsSummary(raw);
  if (!raw.trimStart().startsWith('{')) return raw;
  try {
    return argsSummary(JSON.parse(raw));
  } catch {
    return null;
  }
}

/**
 * A span's row. A tool span (`execute_tool`) and a model call (`chat`, `text_completion`…) say what happened through
 * the shared builder (`shell: npm run build → exit 2, 80 ms`, `model gpt-5: 812 in / 31 out`); any other span is its
 * name, plus what the name does not already say (`invoke_agent corpus-agent 2.3 s`).
 */
function spanLabel(span: Obj, name: string, g: ReturnType<typeof genAiFields>, attrs: Map<string, unknown>, category: EventCategory, durationMs: number | null, errored: boolean): string {
  const statusMessage = isObj(span.status) && typeof span.status.message === 'string' ? span.status.message : '';
  if (category === 'tool') {
    const result = attrs.get('gen_ai.tool.call.result') ?? attrs.get('ai.toolCall.result');
    const exitCode = numberAttr(attrs, 'process.exit.code') ?? exitCodeInText(typeof result === 'string' ? result : null);
    return toolResultLabel({ tool: g.tool ?? name, arg: toolArg(attrs) ?? stringAttr(attrs, 'process.command_line'), exitCode, failed: errored || (exitCode !== null && exitCode !== 0), error: statusMessage || stringAttr(attrs, 'error.type'), durationMs });
  }
  if (category === 'inference' && g.operation) return `${modelCallLabel(g.model, g.tokensIn, g.tokensOut)}${errored ? ` → error${statusMessage ? `: ${short(statusMessage, 60)}` : ''}` : ''}`;
  const target = g.tool ?? g.agent ?? g.model;
  return label(
    g.operation && !name.includes(g.operation) ? g.operation : null,
    short(name, 60),
    target && !name.includes(target) ? short(target, 40) : null,
    formatTokens(g.tokensIn, g.tokensOut),
    durationMs ? formatDuration(durationMs) : null,
    errored && statusMessage ? `error: ${short(statusMessage, 60)}` : null,
  );
}

/** Turns one span into an event: `traceId/spanId` ids, parent within the same trace, GenAI fields for the label. */
export function describeSpan(ref: OtlpSpanRef): { draft: EventDraft; toolCall: boolean } {
  const { span, resource } = ref;
  const raw = attributeMap(span.attributes);
  // An AI SDK span's `ai.*` attributes read under their GenAI names; ids and digests are looked for in its own.
  const attrs = withGenAiNames(raw);
  const traceId = typeof span.traceId === 'string' && span.traceId !== '' ? span.traceId : null;
  const spanId = typeof span.spanId === 'string' && span.spanId !== '' ? span.spanId : null;
  const parent = parentSpanIdOf(span);
  const name = typeof span.name === 'string' && span.name !== '' ? span.name : 'span';
  const g = genAiFields(attrs);
  const durationMs = spanDurationMs(span.startTimeUnixNano, span.endTimeUnixNano);
  const status = spanStatus(span, name, attrs);
  const category = spanCategory(g.operation, name, g.tool);
  const draft: EventDraft = {
    kind: g.operation ?? name,
    category,
    id: traceId && spanId ? spanKey(traceId, spanId) : null,
    parentId: traceId && parent ? spanKey(traceId, parent) : null,
    seq: numberAttr(attrs, 'agentledger.seq'),
    time: nanosToMs(span.startTimeUnixNano),
    durationMs,
    status,
    label: spanLabel(span, name, g, attrs, category, durationMs, status === 'error'),
    tokensIn: g.tokensIn,
    tokensOut: g.tokensOut,
    model: g.model,
    tool: g.tool,
    group: traceId ? traceId.toLowerCase() : stringAttr(attributeMap(resource?.attributes), 'service.name'),
    // Most spans' attributes hold no digest: no object is made to walk them.
    hashRefs: mayHoldDigest(raw.values()) ? collectHashRefs(Object.fromEntries(raw)).map((h) => ({ ...h, field: `attributes.${h.field}` })) : [],
    mentions: spanMentions(span, traceId, raw),
    usage: spanUsage(attrs, g.operation, name),
  };
  return { draft, toolCall: draft.category === 'tool' };
}

/** The event for an OTLP record that holds no span or log record: an empty or metrics export, or not OTLP at all. */
function placeholder(value: unknown, p: OtlpPlaceholder): EventDraft {
  // A JS file export writes one metric a line: name it (its data points are not read as events either).
  if (p.metrics !== null && isObj(value) && value.type === 'metric' && typeof value.name === 'string') return { kind: 'metrics', category: 'other', label: `metric ${short(value.name, 80)} (not shown as events)` };
  if (p.metrics !== null) return { kind: 'metrics', category: 'other', label: `OTLP metrics export (${p.metrics} resource${p.metrics === 1 ? '' : 's'}; metrics are not shown as events)` };
  if (p.logs) return { kind: 'export', category: 'other', label: 'OTLP logs export with no log records' };
  const issues = p.issues;
  if (isOtlpDocument(value) && issues.length === 0) return { kind: 'export', category: 'other', label: 'OTLP export with no spans' };
  const why = issues[0]?.message ?? 'no spans';
  return { kind: isOtlpDocument(value) ? 'export' : 'record', category: 'error', status: 'error', label: `not a valid OTLP traces document: ${short(why, 80)}` };
}

/**
 * Points a span of a multi-line document at its own line, by its `spanId` (a log record by its `timeUnixNano`).
 * When it cannot be found (or the locate budget is spent on a huge export) the element keeps the line of the one
 * before it, so lines never go backwards.
 */
function placedRecord(rec: SourceRecord, src: SpanSource | null, budget: LocateBudget, last: { line: number }): SourceRecord {
  if (!rec.locate) return rec;
  const key = src ? JSON.stringify(src.key) : null;
  const id = src ? JSON.stringify(src.value) : null;
  const found = id === null ? null : budget.locate(rec, `${key}: ${id}`) ?? budget.locate(rec, `${key}:${id}`);
  const line = found !== null && found >= last.line ? found : Math.max(last.line, rec.line);
  last.line = line;
  return { ...rec, line };
}

/** The `dialect` of an OTLP file: its records' shape, with `-lines` for one export request per JSON line. */
function dialectOf(shapes: OtlpShape[], sample: SniffSample): string {
  const shape = shapes[0];
  if (shape === 'otlp-json' && !sample.document && sample.values.length > 1) return 'otlp-json-lines';
  return shape;
}

function sniffOtlp(sample: SniffSample): SniffResult {
  const values = sample.values;
  if (values.length === 0) return { confidence: 0, reason: 'no values' };
  const shapes = values.map(readOtlpRecord).filter((r) => r !== null).map((r) => r!.shape);
  if (shapes.length === 0) return { confidence: 0, reason: 'no resourceSpans, resourceLogs or spans' };
  const share = shapes.length / values.length;
  if (share < 0.5) return { confidence: 0.3, reason: 'some values hold OTLP data' };
  const nameHint = /otlp|otel|\.traces?\.json/i.test(sample.fileName) ? 0.02 : 0;
  const foreign = shapes[0] === 'jaeger-ui' || shapes[0] === 'python-console' || shapes[0] === 'js-file-export' ? 0.05 : 0;
  const what: Record<OtlpShape, string> = {
    'otlp-json': 'OTLP/JSON with resourceSpans', 'otlp-snake-case': 'OTLP protobuf-JSON with snake_case names', 'jaeger-api-v3': 'a Jaeger API v3 reply with resourceSpans',
    'jaeger-ui': 'Jaeger UI JSON (traceID, spans, processes)', 'python-console': 'spans of the Python SDK ConsoleSpanExporter', 'js-file-export': 'spans and metrics of an OpenTelemetry JS file export (startTime [s, ns])', 'otlp-logs': 'OTLP/JSON logs with resourceLogs', 'otlp-metrics': 'OTLP/JSON metrics with resourceMetrics',
  };
  // The plain export keeps the reason it always had (it is shown to users and scripts may match it).
  const reason = shapes[0] === 'otlp-json'
    ? sample.document ? 'an OTLP/JSON document with resourceSpans' : 'JSON lines of OTLP/JSON documents with resourceSpans'
    : `${sample.document ? 'a document of' : 'JSON lines of'} ${what[shapes[0]]}`;
  return { confidence: Math.min(1, 0.9 + 0.07 * share + nameHint - foreign), reason, dialect: dialectOf(shapes, sample) };
}

/** OTLP/JSON traces: one document or one document per line; every span becomes an event. */
export const otlpAdapter: FormatAdapter = {
  name: 'otlp',
  title: 'OTLP/JSON spans',
  sniff: sniffOtlp,
  createBuilder(): EventBuilder {
    const totals = new OtlpTotals();
    const budget = new LocateBudget();
    const last = { line: 0 };
    return {
      add(rec, emit) {
        forEachOtlpEvent(
          rec.value,
          (ref) => {
            const { draft, toolCall } = describeSpan(ref);
            totals.add(draft, toolCall);
            totals.addResource(ref.resource);
            emit(draft, placedRecord(rec, spanSourceOf(ref.span), budget, last));
          },
          (p) => emit(placeholder(rec.value, p), rec),
          (ref) => {
            const { draft, toolCall } = describeLog(ref);
            totals.add(draft, toolCall);
            const t = ref.log.timeUnixNano;
            emit(draft, placedRecord(rec, typeof t === 'string' ? { key: 'timeUnixNano', value: t } : null, budget, last));
          },
        );
      },
      totals: () => totals.result(),
    };
  },
};
