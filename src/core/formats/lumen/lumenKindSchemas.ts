import { z } from 'zod';
import { LumenKind } from './lumenFields';

const u64 = z.number().nonnegative().refine((n) => Number.isInteger(n), 'expected an integer');
const cell = z.string();

/**
 * The fields each writer method sets (lumen.md §4), which `lumen trace show --format replay` reads.
 * Objects are loose: unknown keys are kept and reported elsewhere (lumen/unknown-key).
 */
export const KIND_SCHEMAS: Partial<Record<LumenKind, z.ZodType>> = {
  cell_start: z.looseObject({ cell }),
  cell_end: z.looseObject({ cell }),
  call_enter: z.looseObject({ cell }),
  call_exit: z.looseObject({ cell, details: z.looseObject({ result_type: z.string() }) }),
  vm_step: z.looseObject({ cell, details: z.looseObject({ ip: u64, opcode: z.string() }) }),
  tool_call: z.looseObject({
    cell, tool_id: z.string(), tool_version: z.string(), latency_ms: u64, cached: z.boolean(),
    details: z.looseObject({ success: z.boolean() }),
  }),
  schema_validate: z.looseObject({ cell, details: z.looseObject({ schema: z.string(), valid: z.boolean() }) }),
  error: z.looseObject({ message: z.string() }),
};

/** What a line of `kind` lacks or mistypes, as one sentence; null when it has every field its kind needs. */
export function kindFieldProblem(kind: LumenKind, value: unknown): string | null {
  const schema = KIND_SCHEMAS[kind];
  if (!schema) return null;
  const r = schema.safeParse(value);
  if (r.success) return null;
  const parts = r.error.issues.map((i) => `\`${i.path.join('.')}\` (${i.message.replace(/^Invalid input: /, '')})`);
  return `${kind} lacks or mistypes ${parts.join(', ')}`;
}
