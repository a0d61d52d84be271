import * as z from 'zod';
import { isObj, Obj } from '../common';
import { issuePath } from '../../rules/checkRecords';

const isoTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), { message: 'not an ISO 8601 time' });
const count = z.number().int().nonnegative();

/**
 * Keys every message line may carry. Claude Code has no published schema and fixtures omit ids, so keys are
 * optional; when present they must have the declared type.
 */
const lineCommon = {
  uuid: z.string().min(1).optional(),
  parentUuid: z.string().min(1).nullable().optional(),
  sessionId: z.string().optional(),
  timestamp: isoTime.optional(),
  isSidechain: z.boolean().optional(),
  userType: z.string().optional(),
  cwd: z.string().optional(),
  version: z.string().optional(),
  gitBranch: z.string().optional(),
  agentId: z.string().nullable().optional(),
  isMeta: z.boolean().nullable().optional(),
  requestId: z.string().optional(),
};

const usage = z.looseObject({
  input_tokens: count,
  output_tokens: count,
  cache_creation_input_tokens: count.nullable().optional(),
  cache_read_input_tokens: count.nullable().optional(),
});

/** Per line type: the fields the Messages API and Claude Code declare. */
export const claudeLineSchemas: Record<string, z.ZodType> = {
  user: z.looseObject({
    ...lineCommon,
    message: z.looseObject({ role: z.literal('user'), content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]) }),
  }),
  assistant: z.looseObject({
    ...lineCommon,
    message: z.looseObject({
      id: z.string().optional(),
      role: z.literal('assistant'),
      model: z.string().optional(),
      content: z.array(z.looseObject({ type: z.string() })),
      stop_reason: z.string().nullable().optional(),
      usage: usage.optional(),
    }),
  }),
  system: z.looseObject({ ...lineCommon, content: z.string().optional(), subtype: z.string().optional(), level: z.string().optional() }),
  summary: z.looseObject({ summary: z.string(), leafUuid: z.string().min(1) }),
};

/** Content blocks by type; other block types (images, documents, server tools) are accepted as they are. */
const blockSchemas: Record<string, z.ZodType> = {
  text: z.looseObject({ text: z.string() }),
  thinking: z.looseObject({ thinking: z.string() }),
  tool_use: z.looseObject({ id: z.string().min(1), name: z.string().min(1), input: z.record(z.string(), z.unknown()) }),
  tool_result: z.looseObject({
    tool_use_id: z.string().min(1),
    content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).optional(),
    is_error: z.boolean().nullable().optional(),
  }),
};

function own<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}

/** Schema problems of one transcript line, as `path: message` strings (at most `max`). */
export function claudeSchemaProblems(v: Obj, max = 5): string[] {
  const type = typeof v.type === 'string' ? v.type : '';
  // Own keys only: a line typed `constructor` or `toString` names no schema (Object.prototype's members are no schemas).
  const schema = own(claudeLineSchemas, type);
  if (!schema) return [];
  const out: string[] = [];
  const r = schema.safeParse(v);
  if (!r.success) for (const i of r.error.issues) out.push(`${issuePath(i.path) || '(line)'}: ${i.message}`);
  const content = isObj(v.message) ? v.message.content : undefined;
  if (Array.isArray(content)) {
    content.forEach((b, idx) => {
      const s = isObj(b) && typeof b.type === 'string' ? own(blockSchemas, b.type) : undefined;
      const br = s?.safeParse(b);
      if (br && !br.success) for (const i of br.error.issues) out.push(`message.content[${idx}].${issuePath(i.path)}: ${i.message}`);
    });
  }
  return out.slice(0, max);
}
