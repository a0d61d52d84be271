import * as z from 'zod';
import { Obj } from '../common';
import { issuePath } from '../../rules/checkRecords';

const contentItems = z.array(z.looseObject({ type: z.string() }));

/** `session_meta` payload: `SessionMeta` of codex-rs/protocol (instructions and model_provider are Option). */
const sessionMeta = z.looseObject({
  id: z.string().min(1),
  timestamp: z.string(),
  cwd: z.string(),
  originator: z.string(),
  cli_version: z.string(),
  instructions: z.string().nullable().optional(),
  model_provider: z.string().nullable().optional(),
  git: z.looseObject({}).nullable().optional(),
});

/** `turn_context` payload: `TurnContextItem`. */
const turnContext = z.looseObject({
  cwd: z.string(),
  approval_policy: z.string(),
  sandbox_policy: z.looseObject({ type: z.string() }),
  model: z.string(),
  summary: z.string().optional(),
});

/** `response_item` payloads by `payload.type` (`ResponseItem` variants); other variants are accepted as they are. */
const responseItems: Record<string, z.ZodType> = {
  message: z.looseObject({ role: z.string(), content: contentItems }),
  reasoning: z.looseObject({ summary: contentItems, encrypted_content: z.string().nullable().optional() }),
  function_call: z.looseObject({ name: z.string(), arguments: z.string(), call_id: z.string().min(1) }),
  function_call_output: z.looseObject({ call_id: z.string().min(1), output: z.union([z.string(), contentItems, z.looseObject({ content: z.string() })]) }),
  custom_tool_call: z.looseObject({ name: z.string(), input: z.string(), call_id: z.string().min(1) }),
  custom_tool_call_output: z.looseObject({ call_id: z.string().min(1), output: z.union([z.string(), contentItems]) }),
  local_shell_call: z.looseObject({ call_id: z.string().nullable().optional(), status: z.string(), action: z.looseObject({ type: z.string() }) }),
};

/** `event_msg` payloads by `payload.type` (`EventMsg` variants the format doc names). */
const eventMsgs: Record<string, z.ZodType> = {
  user_message: z.looseObject({ message: z.string() }),
  agent_message: z.looseObject({ message: z.string() }),
  token_count: z.looseObject({ info: z.looseObject({}).nullable().optional() }),
};

const compacted = z.looseObject({ message: z.string(), replacement_history: z.array(z.looseObject({ type: z.string() })).optional() });

/** The schema for one rollout line's payload, or null for types the format does not declare. */
function schemaFor(type: string, payload: Obj): z.ZodType | null {
  switch (type) {
    case 'session_meta':
      return sessionMeta;
    case 'turn_context':
      return turnContext;
    case 'compacted':
      return compacted;
    case 'response_item':
      return typeof payload.type === 'string' ? responseItems[payload.type] ?? z.looseObject({ type: z.string() }) : z.looseObject({ type: z.string() });
    case 'event_msg':
      return typeof payload.type === 'string' ? eventMsgs[payload.type] ?? null : z.looseObject({ type: z.string() });
    default:
      return null;
  }
}

/** Schema problems of a rollout payload as `payload.path: message` strings (at most `max`). */
export function codexPayloadProblems(type: string, payload: Obj, max = 5): string[] {
  const schema = schemaFor(type, payload);
  if (!schema) return [];
  const r = schema.safeParse(payload);
  if (r.success) return [];
  return r.error.issues.slice(0, max).map((i) => {
    const path = issuePath(i.path);
    return `payload${path === '' || path.startsWith('[') ? path : '.' + path}: ${i.message}`;
  });
}
