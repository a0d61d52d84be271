import type { Attributes } from '@opentelemetry/api';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
} from '@opentelemetry/semantic-conventions/incubating';
import type { EventCategory, TraceEvent } from '../model';

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
function toolCallId(e: TraceEvent): string | null {
  const m = e.mentions.find((x) => CALL_ID_FIELD.test(x.field));
  return m?.id ?? e.id;
}

/**
 * The `gen_ai.*` attributes of one event: operation, model, tool name and call id, token usage, and the run
 * or session as the conversation id. Names come from `@opentelemetry/semantic-conventions` (incubating).
 */
export function genAiAttributes(e: TraceEvent): Attributes {
  const a: Attributes = {};
  const op = genAiOperation(e.category);
  if (op !== null) a[ATTR_GEN_AI_OPERATION_NAME] = op;
  if (e.model !== null) a[ATTR_GEN_AI_REQUEST_MODEL] = e.model;
  if (e.tool !== null) {
    // The tool name marks a tool call for GenAI readers; on other events (a tool's result message) it is kept apart.
    if (e.category === 'tool') a[ATTR_GEN_AI_TOOL_NAME] = e.tool;
    else a['agent_trace.tool'] = e.tool;
  }
  if (e.category === 'tool') {
    const call = toolCallId(e);
    if (call !== null) a[ATTR_GEN_AI_TOOL_CALL_ID] = call;
  }
  if (e.tokensIn !== null) a[ATTR_GEN_AI_USAGE_INPUT_TOKENS] = e.tokensIn;
  if (e.tokensOut !== null) a[ATTR_GEN_AI_USAGE_OUTPUT_TOKENS] = e.tokensOut;
  if (e.group !== null) a[ATTR_GEN_AI_CONVERSATION_ID] = e.group;
  return a;
}

/**
 * The span name: `{operation} {model or tool}` as the GenAI conventions ask for model and tool calls, the
 * event's kind for everything else.
 */
export function genAiSpanName(e: TraceEvent): string {
  const op = genAiOperation(e.category);
  if (op === null) return e.kind;
  const target = e.category === 'inference' ? e.model : e.category === 'tool' ? e.tool : null;
  return target ? `${op} ${target}` : op;
}
