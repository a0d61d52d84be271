import type { Attributes } from '@opentelemetry/api';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
} from '@opentelemetry/semantic-conventions/incubating';
import type { EventCategory, TraceEvent } from '../model';
import type { EventUsage } from '../usage/eventUsage';
import { bundledPriceOf } from '../usage/prices';

/**
 * The generation of the OpenTelemetry GenAI semantic conventions this export follows: the attribute names of
 * `@opentelemetry/semantic-conventions` 1.45 (its incubating entry), which carries the GenAI spans as the
 * conventions define them since v1.37 (`gen_ai.provider.name` in place of `gen_ai.system`, cache tokens as
 * `gen_ai.usage.cache_read.input_tokens` / `cache_creation.input_tokens`, both counted in `input_tokens`).
 */
export const GENAI_CONVENTIONS = '@opentelemetry/semantic-conventions 1.45.0 (GenAI spans, semantic conventions v1.37 and later)';

/** Attribute names of ours for a trace's own cost, where the GenAI conventions name none yet. */
export const ATTR_AGENT_TRACE_COST_USD = 'agent_trace.usage.cost_usd';
/** `totals` on a span that carries the run's totals as a line of the source recorded them. */
export const ATTR_AGENT_TRACE_USAGE_SOURCE = 'agent_trace.usage.source';

/** A totals line's counts and the names of ours they are written under. */
const TOTALS_FIELDS = [
  ['input', 'agent_trace.totals.input_tokens'],
  ['output', 'agent_trace.totals.output_tokens'],
  ['cacheRead', 'agent_trace.totals.cache_read.input_tokens'],
  ['cacheWrite', 'agent_trace.totals.cache_creation.input_tokens'],
  ['reasoning', 'agent_trace.totals.reasoning.output_tokens'],
] as const;

/** The part of `gen_ai.usage.cache_creation.input_tokens` written to a 1-hour cache (Anthropic prices it apart). */
export const ATTR_AGENT_TRACE_CACHE_CREATION_1H = 'agent_trace.usage.cache_creation_1h.input_tokens';

/**
 * The GenAI operation an event stands for, by its category: model calls are `chat`, tool calls
 * `execute_tool`, runs `invoke_agent`. Other events (messages, approvals, plain spans) carry no operation,
 * since the conventions name none for them and a wrong one would be counted by backends as a model call.
 */
export function genAiOperation(category: EventCategory): string | null {
  switch (category) {
    case 'inference': return GEN_AI_OPERATION_NAME_VALUE_CHAT;
    case 'tool': return GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL;
    case 'run': return GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT;
    default: return null;
  }
}

/** A mention that is the id of a tool call (`call_id`, `tool_use_id`, `callId`…). */
const CALL_ID_FIELD = /(call|tool_?use)[._]?id$/i;

/** The id the runtime gave a tool call: a call-id mention, else the tool event's own id. */
export function toolCallId(e: TraceEvent): string | null {
  const m = e.mentions.find((x) => CALL_ID_FIELD.test(x.field));
  return m?.id ?? e.id;
}

/** The price table's provider ids (`@pydantic/genai-prices`) as the conventions' `gen_ai.provider.name` values. */
const PROVIDER_VALUES: Record<string, string> = {
  anthropic: 'anthropic', openai: 'openai', google: 'gcp.gemini', deepseek: 'deepseek', mistral: 'mistral_ai',
  'x-ai': 'x_ai', groq: 'groq', cohere: 'cohere', aws: 'aws.bedrock', azure: 'azure.ai.openai', perplexity: 'perplexity',
};

/** The provider of the formats whose runtime talks to one provider's models only. */
const FORMAT_PROVIDERS: Record<string, string> = { 'claude-code': 'anthropic', codex: 'openai', 'gemini-cli': 'gcp.gemini' };

/**
 * `gen_ai.provider.name` for a model of a trace of `format`: the provider the price table files the model under,
 * else the one provider the runtime speaks to, else the runtime (format) itself, so the attribute the conventions
 * require is never missing and never a guess dressed up as a well-known value.
 */
export function genAiProvider(model: string | null, format: string): string {
  const entry = model !== null ? bundledPriceOf(model)?.entry : undefined;
  const id = entry?.slice(0, entry.indexOf('/'));
  if (id) return PROVIDER_VALUES[id] ?? id;
  return FORMAT_PROVIDERS[format] ?? format;
}

/** What the export knows of an event besides its own fields. */
export interface GenAiContext {
  /** The GenAI operation the span carries (null: none); a tool call's result is no call of its own. */
  operation: string | null;
  /** `gen_ai.provider.name` (set on every span with an operation). */
  provider: string;
  /** The model that answered: the event's, else the one its run last named (what the usage was priced as). */
  responseModel: string | null;
  /** The event's usage when it counts in the trace's totals; other usage goes under `agent_trace.usage.*`. */
  counted: EventUsage | null;
  /** The usage of a totals line (the run's totals, which never count as a call), else null. */
  totals?: EventUsage | null;
  /** The part of the cache writes written to the 1-hour cache (priced apart), when the trace says. */
  cacheWrite1h?: number | null;
  /** Why the model stopped, as the format's reader took it from the writer's record (`UsageDraft.finishReasons`). */
  finishReasons?: readonly string[] | null;
}

/** Token counts a usage record holds, as the conventions count them (cached input in input, reasoning in output). */
function usageAttributes(u: EventUsage, cacheWrite1h: number | null | undefined, a: Attributes): void {
  const c = u.counts;
  const reasoning = c.reasoning ?? null;
  if (c.input !== null && c.input !== undefined) a[ATTR_GEN_AI_USAGE_INPUT_TOKENS] = c.input;
  if (c.output !== null && c.output !== undefined) a[ATTR_GEN_AI_USAGE_OUTPUT_TOKENS] = c.output + (u.reasoningApart && reasoning !== null ? reasoning : 0);
  if (c.cacheRead !== null && c.cacheRead !== undefined) a[ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS] = c.cacheRead;
  if (c.cacheWrite !== null && c.cacheWrite !== undefined) a[ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS] = c.cacheWrite;
  if (cacheWrite1h !== null && cacheWrite1h !== undefined) a[ATTR_AGENT_TRACE_CACHE_CREATION_1H] = cacheWrite1h;
  if (reasoning !== null) a[ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS] = reasoning;
  if (c.total !== null && c.total !== undefined && c.input == null && c.output == null) a['agent_trace.usage.total_tokens'] = c.total;
  if (u.costUsd !== null) a[ATTR_AGENT_TRACE_COST_USD] = u.costUsd;
}

/**
 * The `gen_ai.*` attributes of one event: operation and provider, request and response model, tool name and call
 * id, token usage (cache and reasoning tokens included) where the event's usage counts, and the run or session as
 * the conversation id. Names come from `@opentelemetry/semantic-conventions` (incubating).
 */
export function genAiAttributes(e: TraceEvent, ctx: GenAiContext): Attributes {
  const a: Attributes = {};
  if (ctx.operation !== null) {
    a[ATTR_GEN_AI_OPERATION_NAME] = ctx.operation;
    a[ATTR_GEN_AI_PROVIDER_NAME] = ctx.provider;
  }
  if (e.model !== null) a[ATTR_GEN_AI_REQUEST_MODEL] = e.model;
  if (ctx.responseModel !== null && (ctx.operation === GEN_AI_OPERATION_NAME_VALUE_CHAT || ctx.counted)) a[ATTR_GEN_AI_RESPONSE_MODEL] = ctx.responseModel;
  if (ctx.operation === GEN_AI_OPERATION_NAME_VALUE_CHAT && ctx.finishReasons && ctx.finishReasons.length > 0) a[ATTR_GEN_AI_RESPONSE_FINISH_REASONS] = [...ctx.finishReasons];
  const toolCall = ctx.operation === GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL;
  if (e.tool !== null) {
    // The tool name marks a tool call for GenAI readers; on other events (a tool's result) it is kept apart.
    if (toolCall) a[ATTR_GEN_AI_TOOL_NAME] = e.tool;
    else a['agent_trace.tool'] = e.tool;
  }
  if (toolCall) {
    const call = toolCallId(e);
    if (call !== null) a[ATTR_GEN_AI_TOOL_CALL_ID] = call;
  }
  if (ctx.counted) usageAttributes(ctx.counted, ctx.cacheWrite1h, a);
  else if (ctx.totals) {
    // The run's totals as a line records them (Claude Code's result, a session's usage beside its model calls) are
    // no call of their own: they go under names of ours, so no backend (nor our reader) adds them to the calls'
    // gen_ai.usage; our reader takes them back as a totals line, which fills what no call reports.
    const c = ctx.totals.counts;
    a[ATTR_AGENT_TRACE_USAGE_SOURCE] = 'totals';
    for (const [field, key] of TOTALS_FIELDS) {
      const v = c[field];
      if (v !== null && v !== undefined) a[key] = v;
    }
    if (ctx.totals.costUsd !== null) a['agent_trace.totals.cost_usd'] = ctx.totals.costUsd;
  } else {
    // Usage that does not count (a repeated snapshot, an aggregate of counted calls) keeps its numbers apart too.
    if (e.tokensIn !== null) a['agent_trace.usage.input_tokens'] = e.tokensIn;
    if (e.tokensOut !== null) a['agent_trace.usage.output_tokens'] = e.tokensOut;
  }
  if (e.group !== null) a[ATTR_GEN_AI_CONVERSATION_ID] = e.group;
  return a;
}

/**
 * The span name: `{operation} {model or tool}` as the GenAI conventions ask for model and tool calls, the
 * event's kind for everything else.
 */
export function genAiSpanName(e: TraceEvent, operation: string | null): string {
  if (operation === null) return e.kind;
  const target = operation === GEN_AI_OPERATION_NAME_VALUE_CHAT ? e.model : operation === GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL ? e.tool : null;
  return target ? `${operation} ${target}` : operation;
}

/** One part of a GenAI message as the conventions' JSON schema has it (text, a tool call, a tool's response). */
export type GenAiPart =
  | { type: 'text'; content: string }
  | { type: 'tool_call'; id: string | null; name: string; arguments: unknown }
  | { type: 'tool_call_response'; id: string | null; response: unknown };

/** One message of `gen_ai.input.messages` / `gen_ai.output.messages`. */
export interface GenAiMessage {
  role: string;
  parts: GenAiPart[];
  finish_reason?: string;
}

/**
 * The conversation content of one span (opt-in: `--include-content`): on a model call what was sent and what came
 * back (and the system prompt), on a tool call its arguments and result.
 */
export interface OtlpContent {
  input?: GenAiMessage[];
  output?: GenAiMessage[];
  system?: GenAiPart[];
  toolArguments?: unknown;
  toolResult?: unknown;
}

/** The system prompt's attribute (semantic conventions v1.37+; the package names it only in later releases). */
export const ATTR_GEN_AI_SYSTEM_INSTRUCTIONS = 'gen_ai.system_instructions';

/** Most characters of one content attribute's value; a longer one is cut and ends with {@link contentCut}'s marker. */
export const MAX_CONTENT_CHARS = 64 * 1024;

/** The marker that ends a cut value. */
export function contentCut(leftOut: number): string {
  return `…[agent-trace: ${leftOut} more characters cut]`;
}

function bounded(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? 'null';
  return text.length > MAX_CONTENT_CHARS ? text.slice(0, MAX_CONTENT_CHARS) + contentCut(text.length - MAX_CONTENT_CHARS) : text;
}

/**
 * The content attributes of one span: messages and the system prompt on a model call (`chat`), arguments and result
 * on a tool call (`execute_tool`), each a string cut at {@link MAX_CONTENT_CHARS}. Output messages without a finish
 * reason take the span's first one.
 */
export function genAiContentAttributes(operation: string | null, content: OtlpContent, finishReasons: readonly string[] | null | undefined, a: Attributes): void {
  if (operation === GEN_AI_OPERATION_NAME_VALUE_CHAT) {
    if (content.input && content.input.length > 0) a[ATTR_GEN_AI_INPUT_MESSAGES] = bounded(content.input);
    if (content.output && content.output.length > 0) {
      const reason = finishReasons?.[0];
      const out = reason ? content.output.map((m) => (m.finish_reason ? m : { ...m, finish_reason: reason })) : content.output;
      a[ATTR_GEN_AI_OUTPUT_MESSAGES] = bounded(out);
    }
    if (content.system && content.system.length > 0) a[ATTR_GEN_AI_SYSTEM_INSTRUCTIONS] = bounded(content.system);
  } else if (operation === GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL) {
    if (content.toolArguments !== undefined) a[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS] = bounded(content.toolArguments);
    if (content.toolResult !== undefined) a[ATTR_GEN_AI_TOOL_CALL_RESULT] = bounded(content.toolResult);
  }
}
