import * as z from 'zod';
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

type Fields = Record<string, unknown>;
const isFields = (v: unknown): v is Fields => v !== null && typeof v === 'object' && !Array.isArray(v);
const isU64 = (n: unknown): boolean => typeof n === 'number' && n >= 0 && Number.isInteger(n);
const hasCell = (v: Fields): boolean => typeof v.cell === 'string';
const details = (v: Fields): Fields | null => (isFields(v.details) ? v.details : null);

/**
 * For each kind, true only when its schema above accepts the line: a line written right passes here without
 * going through zod (a sixth of `check`'s time on a large lumen trace); any other line gets zod's verdict.
 */
const FAST: Partial<Record<LumenKind, (v: Fields) => boolean>> = {
  cell_start: hasCell,
  cell_end: hasCell,
  call_enter: hasCell,
  call_exit: (v) => hasCell(v) && typeof details(v)?.result_type === 'string',
  vm_step: (v) => {
    const d = details(v);
    return hasCell(v) && d !== null && isU64(d.ip) && typeof d.opcode === 'string';
  },
  tool_call: (v) => hasCell(v) && typeof v.tool_id === 'string' && typeof v.tool_version === 'string' && isU64(v.latency_ms)
    && typeof v.cached === 'boolean' && typeof details(v)?.success === 'boolean',
  schema_validate: (v) => {
    const d = details(v);
    return hasCell(v) && d !== null && typeof d.schema === 'string' && typeof d.valid === 'boolean';
  },
  error: (v) => typeof v.message === 'string',
};

/** What a line of `kind` lacks or mistypes, as one sentence; null when it has every field its kind needs. */
export function kindFieldProblem(kind: LumenKind, value: unknown): string | null {
  const fast = FAST[kind];
  if (fast && isFields(value) && fast(value)) return null;
  return zodFieldProblem(kind, KIND_SCHEMAS[kind], value);
}

/** The schema's verdict (exported for the test that holds the fast path to it). */
export function zodFieldProblem(kind: LumenKind, schema: z.ZodType | undefined, value: unknown): string | null {
  if (!schema) return null;
  const r = schema.safeParse(value);
  if (r.success) return null;
  const parts = r.error.issues.map((i) => `\`${i.path.join('.')}\` (${i.message.replace(/^Invalid input: /, '')})`);
  return `${kind} lacks or mistypes ${parts.join(', ')}`;
}
