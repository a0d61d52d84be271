import type { UsageDraft } from '../../usageTypes';
import { exitCodeInText, isObj, num, Obj, str, toolResultLabel, type ToolStep } from '../common';

/** The dialects pi writes: its session files (`~/.pi/agent/sessions/`) and the `--mode json` stdout. */
export type PiDialect = 'session' | 'mode-json';

/**
 * The entry types of a session file after its `session` header (`SessionEntry` in pi's session-manager, session
 * version 3): each `{type, id, parentId, timestamp, …}`.
 */
export const PI_ENTRY_TYPES: ReadonlySet<string> = new Set([
  'message', 'thinking_level_change', 'model_change', 'compaction', 'branch_summary', 'custom', 'custom_message', 'label', 'session_info',
]);

/** The message roles pi records (`AgentMessage`: pi-ai's user, assistant, toolResult and the coding agent's own). */
export const PI_ROLES: ReadonlySet<string> = new Set(['user', 'assistant', 'toolResult', 'bashExecution', 'custom', 'branchSummary', 'compactionSummary']);

/** The events of `--mode json` (pi-agent-core's `AgentEvent` and the coding agent's `AgentSessionEvent`). */
export const PI_STREAM_TYPES: ReadonlySet<string> = new Set([
  'agent_start', 'agent_end', 'turn_start', 'turn_end', 'message_start', 'message_update', 'message_end',
  'tool_execution_start', 'tool_execution_update', 'tool_execution_end',
  'queue_update', 'compaction_start', 'compaction_end', 'session_info_changed', 'thinking_level_changed', 'auto_retry_start', 'auto_retry_end',
]);

/** The `session` header (line 1 of a session file, and of `--mode json` stdout): `{type, version?, id, timestamp, cwd}`. */
export function isPiHeader(v: unknown): v is Obj {
  return isObj(v) && v.type === 'session' && typeof v.id === 'string' && typeof v.cwd === 'string' && typeof v.timestamp === 'string';
}

/** A session entry: `{type, id, parentId, timestamp}` with a type of pi's (a message of a role pi writes). */
export function isPiEntry(v: unknown): v is Obj {
  if (!isObj(v) || typeof v.type !== 'string' || !PI_ENTRY_TYPES.has(v.type)) return false;
  if (typeof v.id !== 'string' || !('parentId' in v) || (v.parentId !== null && typeof v.parentId !== 'string') || typeof v.timestamp !== 'string') return false;
  if (v.type === 'message') return isObj(v.message) && typeof v.message.role === 'string' && PI_ROLES.has(v.message.role);
  return true;
}

/** A `--mode json` event: a type of pi's, no entry id; a message event holds a message of a role pi writes. */
export function isPiStreamEvent(v: unknown): v is Obj {
  if (!isObj(v) || typeof v.type !== 'string' || !PI_STREAM_TYPES.has(v.type) || 'id' in v || 'parentId' in v) return false;
  if (v.type.startsWith('message_')) return isObj(v.message) ? typeof v.message.role === 'string' && PI_ROLES.has(v.message.role) : isObj(v.assistantMessageEvent);
  if (v.type.startsWith('tool_execution_')) return typeof v.toolCallId === 'string';
  return true;
}

/** The content blocks of a message (a string content is one text block). */
export function contentBlocks(m: Obj | null): Obj[] {
  if (!m) return [];
  if (typeof m.content === 'string') return [{ type: 'text', text: m.content }];
  return Array.isArray(m.content) ? m.content.filter(isObj) : [];
}

/** The text blocks of a message, joined. */
export function messageText(m: Obj | null): string {
  return contentBlocks(m).map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('');
}

/** The `toolCall` blocks of an assistant message. */
export function toolCalls(m: Obj | null): Obj[] {
  return contentBlocks(m).filter((b) => b.type === 'toolCall');
}


/** An assistant message's response failed (pi's `stopReason` `error` or `aborted`, with its `errorMessage`). */
export function responseFailed(m: Obj | null): boolean {
  const r = str(m, 'stopReason');
  return r === 'error' || r === 'aborted';
}

/**
 * The usage of an assistant message (pi-ai's `Usage`): pi's `input` is the prompt LESS its cache reads and cache
 * writes (the providers subtract them: `input = prompt_tokens - cacheRead - cacheWrite`), so the input the model
 * read is `input + cacheRead + cacheWrite`; the cost is pi's own (`cost.total`, from the model's rates), never
 * priced again. Null when the message carries no usage.
 */
export function piUsage(m: Obj | null): { tokensIn: number; tokensOut: number; usage: UsageDraft } | null {
  const u = m && isObj(m.usage) ? m.usage : null;
  if (!u) return null;
  const cacheRead = num(u, 'cacheRead') ?? 0;
  const cacheWrite = num(u, 'cacheWrite') ?? 0;
  const tokensIn = (num(u, 'input') ?? 0) + cacheRead + cacheWrite;
  const tokensOut = num(u, 'output') ?? 0;
  const cost = isObj(u.cost) ? num(u.cost, 'total') : null;
  return { tokensIn, tokensOut, usage: { input: tokensIn, output: tokensOut, cacheRead, cacheWrite, ...(cost !== null ? { costUsd: cost } : {}) } };
}

/** A tool result's label from its call's step (common.ts toolResultLabel), with the time from the call; null without the call. */
export function resultLabel(step: (ToolStep & { time: number | null }) | undefined, failed: boolean, time: number | null, text = ''): string | null {
  if (!step) return null;
  return toolResultLabel({ ...step, failed, exitCode: exitCodeInText(text), error: text, durationMs: step.time !== null && time !== null && time >= step.time ? time - step.time : null });
}
