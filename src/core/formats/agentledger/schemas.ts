/**
 * Zod schemas for AgentLedger rows (the contract's `required_event_fields`) and for the payload keys each event
 * type always carries (format doc §5.1, checked against the Python reference runtime's rows). Unknown keys pass.
 */
import * as z from 'zod';
import { isObj } from '../common';
import { Dialect } from './rows';

const optStr = z.string().nullable().optional();
const ROW_COMMON = {
  event_id: z.string(),
  run_id: z.string(),
  seq: z.number().int().min(1),
  timestamp: z.number(),
  payload_ref: z.string(),
  session_id: optStr,
  step_id: optStr,
  agent_role: optStr,
  causal_token: optStr,
  state_version: z.number().int().min(0).nullable().optional(),
};

const SPAN_SCHEMA = z.looseObject({
  trace_id: z.string(), span_id: z.string(), name: z.string(), start_time: z.number(), end_time: z.number(),
  parent_span_id: optStr, attributes: z.looseObject({ 'agentledger.run_id': z.string(), 'agentledger.seq': z.number().int() }),
});

const ROW_SCHEMAS: Record<Dialect, z.ZodType> = {
  'python-event': z.looseObject({ ...ROW_COMMON, type: z.string(), payload_hash: z.string().nullable() }),
  'ts-event': z.looseObject({ ...ROW_COMMON, type: z.string(), payload_hash: z.string() }),
  // Rust records use `event_type`; an SQL export names the column `type` (§4.1), so either is accepted.
  'rust-event': z.looseObject({ ...ROW_COMMON, payload_hash: z.string() }).and(
    z.union([z.looseObject({ event_type: z.string() }), z.looseObject({ type: z.string() })], { error: 'event_type (or type) must be a string' }),
  ),
  'python-span': SPAN_SCHEMA,
  // The TypeScript runtime's traceSpans is the Python exporter's shape; only its digests differ.
  'ts-span': SPAN_SCHEMA,
  'rust-span': z.looseObject({ trace_id: z.string(), span_id: z.string(), name: z.string() }),
};

const str = z.string();
const num = z.number();
const obj = z.record(z.string(), z.unknown());

/** Payload keys per event type. Types whose Python payload is a blob (the request or response) are Rust-only. */
const PAYLOAD_SHAPES: Record<string, z.ZodRawShape> = {
  run_created: { initial_state: obj },
  step_created: { step_id: str },
  step_claimed: { attempt: num, lease_token: str, worker_id: str },
  lease_expired: { attempt: num },
  step_retry_scheduled: { step_id: str },
  run_cancel_requested: { reason: str },
  step_cancelled: { reason: str },
  run_cancelled: { reason: str, cancelled_steps: num },
  state_patch_committed: { patch: obj, state_version: num },
  state_committed: { patch: obj, state_version: num },
  system_state_patch_applied: { patch: obj },
  state_patch_proposed: { key: str },
  step_completed: { step_id: str },
  failure_classified: { error: str, error_type: str, retryable: z.boolean() },
  error_raised: { error: str, error_type: str },
  step_waiting_human: { reason: str, approval_id: str },
  step_failed: { step_id: str, error_type: str },
  tool_approval_decided: { approval_id: str, tool: str, status: z.enum(['APPROVED', 'DENIED']) },
  cost_recorded: { cost_id: str, category: str, name: str, amount: num, unit: str },
  agent_started: { agent_role: str },
  tool_call_requested: { tool: str, args: obj },
  tool_permission_decided: { tool: str, allowed: z.boolean(), reason: str },
  tool_approval_required: { tool: str, approval_id: str, approval_key: str, risk_level: str },
  budget_check_failed: { category: str, error: str },
  sandbox_started: { tool_name: str, executor: str, network: str, filesystem: str, timeout_seconds: num },
  sandbox_completed: { ok: z.boolean(), metadata: obj },
  tool_call_failed: { tool: str, error: str },
};

/** Rust inline payloads of types that Python stores as blobs (§4.2). */
const RUST_ONLY_SHAPES: Record<string, z.ZodRawShape> = {
  tool_call_completed: { tool: str },
  artifact_created: { artifact_id: str, name: str },
  model_call_completed: { model: str, input_tokens: num, output_tokens: num, total_tokens: num, total_usd: num },
  agent_result_returned: { agent: str },
};

const PAYLOAD_SCHEMAS = new Map(Object.entries(PAYLOAD_SHAPES).map(([k, shape]) => [k, z.looseObject(shape)]));
const RUST_PAYLOAD_SCHEMAS = new Map(Object.entries(RUST_ONLY_SHAPES).map(([k, shape]) => [k, z.looseObject(shape)]));

function describe(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (isObj(v)) return 'an object';
  const text = JSON.stringify(v);
  return `${typeof v} ${text.length > 40 ? text.slice(0, 39) + '…' : text}`;
}

function at(value: unknown, path: PropertyKey[]): unknown {
  let v = value;
  for (const k of path) v = isObj(v) || Array.isArray(v) ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

/** Readable problems of a value against a schema: `seq: expected int, found string "3"`. */
export function schemaProblems(schema: z.ZodType, value: unknown): string[] {
  const r = schema.safeParse(value);
  if (r.success) return [];
  return r.error.issues.slice(0, 4).map((i) => {
    const path = i.path.map(String).join('.') || '(row)';
    const found = describe(at(value, i.path));
    if (i.code === 'invalid_type') return `${path}: expected ${i.expected}, found ${found}`;
    if (i.code === 'invalid_value' && 'values' in i) return `${path}: expected one of ${(i.values as unknown[]).map((x) => JSON.stringify(x)).join(', ')}, found ${found}`;
    return `${path}: ${i.message}${found === 'missing' ? '' : ` (found ${found})`}`;
  });
}

/** Problems of a row's required fields for its dialect. */
export function rowProblems(dialect: Dialect, value: unknown): string[] {
  return schemaProblems(ROW_SCHEMAS[dialect], value);
}

/** The payload schema for an event type in a dialect, or null when payloads of that type are not checked. */
export function payloadSchema(type: string, dialect: Dialect): z.ZodType | null {
  return PAYLOAD_SCHEMAS.get(type) ?? (dialect === 'rust-event' ? RUST_PAYLOAD_SCHEMAS.get(type) ?? null : null);
}
