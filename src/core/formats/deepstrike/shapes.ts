import * as z from 'zod';
import { isObj, Obj } from '../common';
import {
  CANCELLATION_REASONS, isKnownKind, MEMORY_KINDS, RESPONDERS, ROLLBACK_KINDS, TOOL_ERROR_KINDS,
} from './kinds';
import { Severity } from '../../model';
import { DEEPSTRIKE_CATALOG, DeepstrikeRuleId } from './catalog';

/** One finding of a per-event shape rule, before it gets its line. */
export interface DsIssue {
  rule: string;
  severity: Severity;
  message: string;
}

/** An issue of `rule` at its catalog severity. */
function issue(rule: DeepstrikeRuleId, message: string): DsIssue {
  return { rule, severity: DEEPSTRIKE_CATALOG.severityOf(rule), message };
}

const nonEmpty = z.string().min(1, { message: 'must be a non-empty string' });
const base64 = z.string().regex(/^(?:[A-Za-z0-9+/]{4})+(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$|^(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)$/, {
  message: 'must be standard base64 with padding (length % 4 == 0)',
});
const DurableSource = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('url'), url: nonEmpty }),
  z.strictObject({ kind: z.literal('base64'), data: base64 }),
  z.strictObject({ kind: z.literal('file_id'), id: nonEmpty, affinity: z.strictObject({ provider_id: nonEmpty, endpoint_id: nonEmpty }) }),
  z.strictObject({ kind: z.literal('object'), handle: nonEmpty, owner: nonEmpty, payload_ref: nonEmpty }),
]);
const mediaBlock = (type: 'image' | 'audio' | 'video' | 'file') =>
  z.strictObject({ type: z.literal(type), source: DurableSource, media_type: nonEmpty.optional(), provider_options: z.unknown().optional() });
/** `DurableContent` (DD): deny_unknown_fields, known block and source tags, non-empty strings, padded base64. */
export const DurableContentSchema = z.strictObject({
  blocks: z.array(z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('text'), text: nonEmpty }), mediaBlock('image'), mediaBlock('audio'), mediaBlock('video'), mediaBlock('file'),
  ])),
});
const opt = <T extends z.ZodType>(t: T) => t.nullable().optional();
/** `ProviderReplay` (seed): deny_unknown_fields with a mandatory non-empty protocol. */
export const ProviderReplaySchema = z.strictObject({
  protocol: nonEmpty, provider: opt(z.string()), model: opt(z.string()), native_blocks: opt(z.array(z.unknown())),
  reasoning_content: opt(z.string()), reasoning_details: z.unknown().optional(), native_message: z.unknown().optional(), tool_calls: opt(z.array(z.unknown())),
});

function zodText(error: z.ZodError): string {
  return error.issues.slice(0, 3).map((i) => `${i.path.map(String).join('.') || '(value)'}: ${i.message}`).join('; ');
}

/** The session-log dialect an `llm_completed` shows: core (`message`) or SDK (flat `content` + `tool_calls`). */
export function llmDialect(e: Obj): 'core' | 'sdk' | null {
  if ('message' in e) return 'core';
  return 'content' in e || 'tool_calls' in e ? 'sdk' : null;
}

function checkResults(e: Obj, dialect: 'core' | 'sdk' | null, out: DsIssue[]): void {
  const results = Array.isArray(e.results) ? e.results : [];
  results.forEach((r, i) => {
    if (!isObj(r)) return;
    const who = `results[${i}]${typeof r.call_id === 'string' ? ` (${r.call_id})` : ''}`;
    if ('blocks' in r) out.push(issue('deepstrike/legacy-blocks', `${who}: removed blocks field (results carry content: {"blocks": […]} now)`));
    for (const key of ['content', 'durable_content'] as const) {
      if (!(key in r)) continue;
      const p = DurableContentSchema.safeParse(r[key]);
      if (!p.success) out.push(issue('deepstrike/durable-content', `${who}.${key} is not DurableContent: ${zodText(p.error)}`));
    }
    const sdkShaped = dialect === 'sdk' || (dialect === null && !('durable_content' in r));
    if (sdkShaped && !('content' in r) && !('durable_content' in r)) {
      out.push(issue('deepstrike/result-content', `${who} has no content {"blocks": […]}: the Node and Python readers reject it (durable content must be an object)`));
    }
    if (typeof r.error_kind === 'string' && !TOOL_ERROR_KINDS.has(r.error_kind)) {
      out.push(issue('deepstrike/enum-values', `${who}.error_kind is "${r.error_kind}", not a ToolErrorKind (${[...TOOL_ERROR_KINDS].join(', ')})`));
    }
  });
}

function enumValue(out: DsIssue[], field: string, v: unknown, known: ReadonlySet<string>): void {
  if (v === undefined || v === null) return;
  if (typeof v !== 'string' || !known.has(v)) {
    out.push(issue('deepstrike/enum-values', `${field} is ${JSON.stringify(v)}, expected one of ${[...known].join(', ')}`));
  }
}

/** Per-event field rules of §11 (kind, run fields, llm shape, results, durable content, provider replay, enums). */
export function checkDsEventShape(kind: string, e: Obj, dialect: 'core' | 'sdk' | null): DsIssue[] {
  const out: DsIssue[] = [];
  if (!isKnownKind(kind)) out.push(issue('deepstrike/kind-known', `unknown kind "${kind}": not one of the 32 core kinds or the SDK-only kinds (the core reader rejects it)`));
  switch (kind) {
    case 'run_started':
      for (const f of ['run_id', 'goal']) {
        if (typeof e[f] !== 'string') out.push(issue('deepstrike/run-fields', `run_started has no ${f} (missing field \`${f}\`)`));
      }
      break;
    case 'llm_completed': {
      const core = isObj(e.message);
      const sdk = typeof e.content === 'string' && Array.isArray(e.tool_calls);
      if (!core && !sdk) out.push(issue('deepstrike/llm-shape', 'llm_completed has neither message (core) nor content + tool_calls (SDK): missing field `message`'));
      if ('provider_replay' in e) {
        const p = ProviderReplaySchema.safeParse(e.provider_replay);
        if (!p.success) out.push(issue('deepstrike/provider-replay', `provider_replay: ${zodText(p.error)}`));
      }
      break;
    }
    case 'tool_completed': checkResults(e, dialect, out); break;
    case 'operation_cancelled': enumValue(out, 'operation_cancelled.reason', e.reason, CANCELLATION_REASONS); break;
    case 'memory_written': enumValue(out, 'memory_written.memory_kind', e.memory_kind, MEMORY_KINDS); break;
    case 'permission_resolved': enumValue(out, 'permission_resolved.responder', e.responder, RESPONDERS); break;
    case 'rollbacked': if (isObj(e.reason)) enumValue(out, 'rollbacked.reason.kind', e.reason.kind, ROLLBACK_KINDS); break;
  }
  return out;
}
