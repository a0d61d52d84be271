import * as z from 'zod';
import { isObj, Obj } from '../common';
import { HarnessEventName } from './records';

/** platonic-core id newtypes: strings that must be non-empty after trim (`<Type> cannot be empty`). */
const id = (type: string) => z.string().refine((s) => s.trim().length > 0, { message: `${type} cannot be empty` });
const u32 = z.number().int().min(0).max(4294967295);
const u64 = z.number().int().min(0);
/** A serde_json `Value` field: anything, but present. */
const value = z.unknown().refine((v) => v !== undefined, { message: 'missing field' });

const ContextLane = z.enum(['system_contract', 'current_task', 'tool_schemas', 'recent_turns', 'retrieved_context', 'artifact_summary', 'policy']);
const ContextFragment = z.strictObject({ lane: ContextLane, source: z.string(), content: z.string(), estimated_tokens: u32 });
const ContextPack = z.strictObject({ token_budget: u32, fragments: z.array(ContextFragment) });
const Message = z.strictObject({ role: z.enum(['system', 'user', 'assistant', 'tool']), content: z.string() });
const ToolProposal = z.strictObject({ tool: id('ToolName'), input: value });
/** `EffectClass` values and their default policy decisions (§2.3). */
export const EFFECT_DEFAULT_POLICY: Readonly<Record<string, string>> = {
  read_only: 'allow', workspace_write: 'require_approval', network: 'require_approval', external_side_effect: 'deny', secret_access: 'deny',
};
const EffectClass = z.enum(['read_only', 'workspace_write', 'network', 'external_side_effect', 'secret_access']);
const ToolCall = z.strictObject({ id: id('ToolCallId'), tool: id('ToolName'), effect: EffectClass, input: value });
// PolicyDecision is not deny_unknown_fields at 0.1.0; unknown keys are reported apart as unknown-event-field.
const PolicyDecision = z.discriminatedUnion('decision', [
  z.looseObject({ decision: z.literal('allow') }),
  z.looseObject({ decision: z.literal('require_approval'), reason: z.string() }),
  z.looseObject({ decision: z.literal('deny'), reason: z.string() }),
]);
const ToolResult = z.strictObject({
  call_id: id('ToolCallId'), summary: z.string(), data: value, artifacts: z.array(id('ArtifactId')), visibility: z.enum(['model', 'user', 'both']),
});
const ModelUsage = z.strictObject({ input_tokens: u32, output_tokens: u32 });

const RUN = { run_id: id('RunId') };
const TURN = { ...RUN, turn_id: id('TurnId') };

/** Declared fields per event (the variant structs of `HarnessEvent`, with the 0.2.0–0.3.1 and monorepo additions). */
const EVENT_FIELDS: Readonly<Record<HarnessEventName, z.ZodRawShape>> = {
  run_started: { ...RUN, agent_id: id('AgentId').optional(), profile_id: id('ProfileId').optional(), profile_revision: u64.optional() },
  context_built: { ...TURN, context: ContextPack },
  context_compacted: { ...TURN, estimated_tokens_before: u32, estimated_tokens_after: u32, dropped_turn_start: u64, dropped_turn_end_exclusive: u64 },
  model_requested: { ...TURN, step: u32, model: id('ModelName') },
  model_responded: { ...TURN, step: u32, output: Message, proposed_calls: z.array(ToolProposal), usage: ModelUsage.nullable().optional(), served_model: id('ModelName').optional() },
  model_failed: { ...TURN, step: u32, reason: z.string() },
  tool_call_proposed: { ...TURN, call: ToolCall },
  tool_proposals_rejected: { ...TURN, reason: z.string() },
  policy_evaluated: { ...RUN, call_id: id('ToolCallId'), decision: PolicyDecision },
  approval_granted: { ...RUN, call_id: id('ToolCallId'), actor_id: id('ActorId') },
  approval_denied: { ...RUN, call_id: id('ToolCallId'), actor_id: id('ActorId'), reason: z.string() },
  tool_started: { ...RUN, call_id: id('ToolCallId') },
  tool_finished: { ...RUN, result: ToolResult },
  tool_failed: { ...RUN, call_id: id('ToolCallId'), reason: z.string() },
  run_finished: { ...RUN },
  run_failed: { ...RUN, reason: z.string() },
};

const SCHEMAS = Object.fromEntries(
  Object.entries(EVENT_FIELDS).map(([name, shape]) => [name, z.looseObject({ event: z.literal(name), ...shape })]),
) as unknown as Record<HarnessEventName, z.ZodType>;

/** One schema problem of an event, classified by rule. */
export interface ShapeIssue {
  rule: 'harness/nested-shape' | 'harness/empty-id' | 'harness/unknown-event-field';
  message: string;
}

function pathText(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i > 0 ? '.' : ''}${String(p)}`)).join('') || '(event)';
}

/** Validates one event against its variant's declared fields (strict nested types, loose variant; §2.3, §2.4). */
export function checkEventShape(name: HarnessEventName, event: Obj): ShapeIssue[] {
  const out: ShapeIssue[] = [];
  const r = SCHEMAS[name].safeParse(event);
  if (!r.success) {
    for (const issue of r.error.issues) {
      const where = pathText(issue.path);
      if (issue.message.endsWith('cannot be empty')) out.push({ rule: 'harness/empty-id', message: `${issue.message} (${name}.${where})` });
      else if (issue.path.length === 1 && issue.code === 'invalid_type' && event[String(issue.path[0])] === undefined) {
        out.push({ rule: 'harness/nested-shape', message: `missing field \`${String(issue.path[0])}\` in ${name}` });
      } else out.push({ rule: 'harness/nested-shape', message: `${name}.${where}: ${issue.message}` });
    }
  }
  if (name === 'run_started' && typeof event.agent_id !== 'string' && !(typeof event.profile_id === 'string' && 'profile_revision' in event)) {
    out.push({ rule: 'harness/nested-shape', message: 'run_started needs agent_id, or profile_id and profile_revision' });
  }
  const declared = new Set(['event', ...Object.keys(EVENT_FIELDS[name])]);
  for (const k of Object.keys(event)) {
    if (!declared.has(k)) out.push({ rule: 'harness/unknown-event-field', message: `unknown field \`${k}\` in ${name} (accepted by platonic-core 0.1.0, rejected from 0.3.0)` });
  }
  const decision = name === 'policy_evaluated' && isObj(event.decision) ? event.decision : null;
  if (decision) {
    const allowed = decision.decision === 'allow' ? ['decision'] : ['decision', 'reason'];
    for (const k of Object.keys(decision)) {
      if (!allowed.includes(k)) out.push({ rule: 'harness/unknown-event-field', message: `unknown field \`${k}\` in policy_evaluated.decision (accepted by platonic-core 0.1.0, rejected from 0.3.0)` });
    }
  }
  return out;
}
