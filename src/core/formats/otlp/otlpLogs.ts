import { logUsage } from './otlpUsage';
import { EventDraft, EventStatus } from '../../model';
import { formatTokens, isObj, label, short } from '../common';
import { attributeMap, nanosToMs, OtlpLogRef, plainAnyValue, spanKey } from './otlpSpans';

/**
 * Log events that record one tool call, by the event names the coding CLIs document for their OpenTelemetry
 * export (Claude Code, Gemini CLI, Codex) and the GenAI semantic conventions' tool message event.
 */
const TOOL_LOG_EVENTS: ReadonlySet<string> = new Set(['claude_code.tool_result', 'gemini_cli.tool_call', 'codex.tool_result', 'gen_ai.tool.message']);
/** Log events that record one model request. */
const MODEL_LOG_EVENTS: ReadonlySet<string> = new Set(['claude_code.api_request', 'gemini_cli.api_response', 'codex.api_request', 'gen_ai.choice']);

function firstNumber(attrs: Map<string, unknown>, keys: string[]): number | null {
  for (const k of keys) {
    const v = attrs.get(k);
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  }
  return null;
}

function firstString(attrs: Map<string, unknown>, keys: string[]): string | null {
  for (const k of keys) {
    const v = attrs.get(k);
    if (typeof v === 'string' && v !== '') return v;
  }
  return null;
}

/** A short text of a log body: a string body, or the first string member of a key-value body. */
function bodyText(body: unknown): string | null {
  const v = plainAnyValue(body);
  if (typeof v === 'string') return v;
  if (isObj(v)) {
    const s = Object.values(v).find((x) => typeof x === 'string');
    return typeof s === 'string' ? s : null;
  }
  return null;
}

/**
 * Turns one log record into an event: its event name (`eventName`, else the `event.name` attribute) is the kind;
 * the span it names by `traceId`/`spanId` is a mention (log records have no ids of their own and their span is
 * usually in another file). Severity 17 and above (ERROR, FATAL) is an error; `success: false` a failed tool call.
 */
export function describeLog(ref: OtlpLogRef): { draft: EventDraft; toolCall: boolean } {
  const log = ref.log;
  const attrs = attributeMap(log.attributes);
  const name = (typeof log.eventName === 'string' && log.eventName) || firstString(attrs, ['event.name']) || 'log';
  const traceId = typeof log.traceId === 'string' && log.traceId !== '' ? log.traceId : null;
  const spanId = typeof log.spanId === 'string' && log.spanId !== '' ? log.spanId : null;
  const severity = typeof log.severityNumber === 'number' ? log.severityNumber : 0;
  const tool = firstString(attrs, ['gen_ai.tool.name', 'tool_name', 'function_name']);
  const toolCall = TOOL_LOG_EVENTS.has(name);
  const failed = attrs.get('success') === false || attrs.get('success') === 'false';
  const status: EventStatus = severity >= 17 ? 'error' : failed ? 'warning' : 'ok';
  const tokensIn = firstNumber(attrs, ['gen_ai.usage.input_tokens', 'input_tokens', 'input_token_count']);
  const tokensOut = firstNumber(attrs, ['gen_ai.usage.output_tokens', 'output_tokens', 'output_token_count']);
  const text = bodyText(log.body);
  const draft: EventDraft = {
    kind: name,
    category: toolCall ? 'tool' : MODEL_LOG_EVENTS.has(name) ? 'inference' : severity >= 17 ? 'error' : 'message',
    time: nanosToMs(log.timeUnixNano) ?? nanosToMs(log.observedTimeUnixNano),
    status,
    tool,
    model: firstString(attrs, ['gen_ai.response.model', 'gen_ai.request.model', 'model']),
    tokensIn,
    tokensOut,
    usage: logUsage(attrs, tokensIn),
    group: traceId ? traceId.toLowerCase() : firstString(attrs, ['session.id', 'gen_ai.conversation.id']),
    label: label(name, tool && !name.includes(tool) ? tool : null, text ? short(text, 60) : null, formatTokens(tokensIn, tokensOut), failed ? 'failed' : null),
    mentions: traceId && spanId ? [{ field: 'spanId', id: spanKey(traceId, spanId) }, { field: 'traceId', id: traceId }] : [],
  };
  return { draft, toolCall };
}
