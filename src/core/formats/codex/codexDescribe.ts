import type { UsageDraft } from '../../usageTypes';
import { EventDraft, EventStatus } from '../../model';
import { describeItemCompleted, describeTaskEvent, describeUsageRecord } from './codexItems';
import { exitCodeInText, formatDuration, formatTokens, isObj, label, num, obj, Obj, short, str, statusFromWord, toolCallLabel } from '../common';

/** `head: text…`, or `head` alone when there is no text. */
function withText(head: string, text: string | null | undefined, max = 64): string {
  const t = text ? short(text, max) : '';
  return t ? `${head}: ${t}` : head;
}

/** Text of `content: [{type: input_text|output_text|…, text}]`. */
export function codexContentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    // Reasoning parts inside a message are the model's notes, not what it said.
    .map((c) => (isObj(c) && typeof c.text === 'string' && c.type !== 'reasoning' ? c.text : isObj(c) && c.type === 'input_image' ? '[image]' : ''))
    .filter((t) => t !== '')
    .join(' ');
}

/** Codex injects its environment and instructions as user-role messages; they are context, not a user turn. */
const CONTEXT_TEXT = /^\s*(<environment_context>|<user_instructions>|<permissions instructions>|<INSTRUCTIONS>|# AGENTS\.md instructions|<user_shell_command>)/;

/** True for a user message the user typed (not context Codex injected). */
export function isUserPrompt(type: string | null, p: Obj): boolean {
  if (type === 'event_msg') return p.type === 'user_message';
  if (type === 'response_item' && p.type === 'message' && p.role === 'user') return !CONTEXT_TEXT.test(codexContentText(p.content));
  return false;
}

/**
 * The output texts Codex gives the model for a call it did not run: a tool it does not have (`unsupported call:
 * <name>`), a patch or command the user (or the approval policy) rejected, a patch that failed verification.
 */
const FAILED_CALL = /^(unsupported call: |unsupported custom tool call: |patch rejected by user|exec command rejected by user|apply_patch verification failed: )/;

/** What a tool output says about success: exit codes in text or JSON, `success: false`. */
export function outputStatus(output: unknown): { status: EventStatus; durationMs: number | null; text: string; exitCode: number | null } {
  let text = typeof output === 'string' ? output : Array.isArray(output) ? codexContentText(output) : isObj(output) ? String(output.content ?? '') : '';
  let status: EventStatus = 'ok';
  let durationMs: number | null = null;
  let exitCode: number | null = null;
  if (isObj(output) && output.success === false) status = 'error';
  if (typeof output === 'string' && output.startsWith('{')) {
    // Older Codex versions wrote {"output": "...", "metadata": {"exit_code", "duration_seconds"}} as the output text.
    try {
      const j: unknown = JSON.parse(output);
      const meta = obj(j, 'metadata');
      if (meta && typeof meta.exit_code === 'number') exitCode = meta.exit_code;
      if (meta && typeof meta.exit_code === 'number' && meta.exit_code !== 0) status = 'error';
      if (meta && typeof meta.duration_seconds === 'number') durationMs = meta.duration_seconds * 1000;
      if (typeof str(j, 'output') === 'string') text = str(j, 'output')!;
    } catch {
      // plain text that happens to start with a brace
    }
  }
  const exit = /(?:^|\n)(?:Exit code:|Process exited with code) (-?\d+)/.exec(text);
  if (exit) exitCode ??= Number(exit[1]);
  if (exit && exit[1] !== '0') status = 'error';
  if (FAILED_CALL.test(text)) status = 'error';
  const wall = /(?:^|\n)Wall time: ([\d.]+) seconds/.exec(text);
  if (wall && durationMs === null) durationMs = Number(wall[1]) * 1000;
  const body = /(?:^|\n)Output:\n([\s\S]*)$/.exec(text);
  return { status, durationMs, text: body ? body[1] : text, exitCode };
}

/** A short preview of function-call arguments: the command or path when there is one. */
export function argumentsPreview(args: unknown): string {
  if (typeof args !== 'string') return '';
  try {
    const j: unknown = JSON.parse(args);
    if (isObj(j)) {
      for (const k of ['cmd', 'command', 'path', 'file_path', 'query', 'pattern', 'url']) {
        const v = j[k];
        if (typeof v === 'string') return v;
        if (Array.isArray(v)) return v.map(String).join(' ');
      }
    }
  } catch {
    // arguments that are not JSON are shown as written (codex/arguments-json reports them)
  }
  return args;
}

/** Token usage of a `token_count` event: the last response's usage, and the session total so far. */
export function tokenUsage(p: Obj): { last: Obj | null; total: Obj | null } {
  const info = obj(p, 'info');
  return { last: obj(info, 'last_token_usage'), total: obj(info, 'total_token_usage') };
}

/** What a call item asks, for its label: a function call's command or path, a custom tool's input, a shell call's command. */
export function codexCallArg(p: Obj): string | null {
  const t = str(p, 'type');
  const action = obj(p, 'action');
  const arg = t === 'function_call' ? argumentsPreview(p.arguments) : t === 'custom_tool_call' ? str(p, 'input') ?? '' : Array.isArray(action?.command) ? action!.command.join(' ') : '';
  // A patch is said by the files it touches, not by its first lines.
  const files = [...arg.slice(0, 65536).matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)].map((m) => m[1].trim());
  return files.length > 0 ? files.join(', ') : arg || null;
}

function describeResponseItem(p: Obj, d: EventDraft, cwd: string | null): void {
  const t = str(p, 'type') ?? 'response_item';
  d.kind = t;
  switch (t) {
    case 'message': {
      const role = str(p, 'role') ?? '?';
      d.category = role === 'assistant' ? 'inference' : 'message';
      d.label = withText(`message ${role}`, codexContentText(p.content), 72);
      return;
    }
    case 'reasoning': {
      d.category = 'inference';
      // encrypted_content is opaque and never shown.
      const summary = Array.isArray(p.summary) ? codexContentText(p.summary) : '';
      d.label = withText('reasoning', summary || (Array.isArray(p.content) ? codexContentText(p.content) : ''), 72);
      return;
    }
    case 'function_call':
    case 'custom_tool_call':
    case 'local_shell_call': {
      d.category = 'tool';
      d.tool = str(p, 'name') ?? (t === 'local_shell_call' ? 'shell' : null);
      d.status = statusFromWord(str(p, 'status')) ?? 'ok';
      d.label = toolCallLabel({ tool: d.tool ?? t, arg: codexCallArg(p), cwd });
      return;
    }
    case 'web_search_call': {
      d.category = 'tool';
      d.tool = 'web_search';
      d.label = withText('web_search_call', str(obj(p, 'action'), 'query') ?? str(obj(p, 'action'), 'url'), 56);
      return;
    }
    default:
      d.category = t.endsWith('_output') ? 'tool' : 'other';
      d.label = t;
  }
}

const EVENT_CATEGORY: Record<string, EventDraft['category']> = {
  user_message: 'message', agent_message: 'message', agent_reasoning: 'inference', token_count: 'other',
  task_started: 'turn', task_complete: 'turn', turn_aborted: 'turn', exec_approval_request: 'approval',
  apply_patch_approval_request: 'approval', error: 'error', stream_error: 'error',
};

function eventStatus(t: string, p: Obj): EventStatus {
  if (t === 'error') return 'error';
  if (t === 'turn_aborted' || t === 'stream_error') return 'warning';
  if (typeof p.exit_code === 'number' && p.exit_code !== 0) return 'error';
  if (p.success === false) return 'error';
  if (isObj(p.result) && 'Err' in p.result) return 'error';
  return statusFromWord(t) ?? 'ok';
}

function describeEventMsg(p: Obj, d: EventDraft): void {
  const t = str(p, 'type') ?? 'event_msg';
  d.kind = t;
  d.category = EVENT_CATEGORY[t] ?? (/exec|patch|mcp|tool/.test(t) ? 'tool' : 'other');
  d.status = eventStatus(t, p);
  if (t === 'token_count') {
    const { last, total } = tokenUsage(p);
    d.tokensIn = num(last, 'input_tokens');
    d.tokensOut = num(last, 'output_tokens');
    d.usage = codexUsage(last, total);
    const totalText = total ? `(session ${formatTokens(num(total, 'input_tokens'), num(total, 'output_tokens'))})` : null;
    d.label = label('token_count', formatTokens(d.tokensIn, d.tokensOut), totalText) || 'token_count';
    return;
  }
  if (t === 'item_completed') return describeItemCompleted(p, d);
  if (t === 'task_started' || t === 'task_complete') return describeTaskEvent(t, p, d);
  const duration = obj(p, 'duration');
  if (duration && typeof duration.secs === 'number') d.durationMs = duration.secs * 1000 + (num(duration, 'nanos') ?? 0) / 1e6;
  const text = str(p, 'message') ?? str(p, 'text') ?? str(p, 'reason') ?? (Array.isArray(p.command) ? p.command.join(' ') : null);
  d.tool = str(p, 'tool') ?? null;
  d.label = withText(label(t, typeof p.exit_code === 'number' ? `exit ${p.exit_code}` : null, formatDuration(d.durationMs)), text, 72);
}

/** Describes one rollout line's payload (kind, category, label, status); the builder adds structure. */
export function describeCodexPayload(type: string, p: Obj, d: EventDraft, cwd: string | null = null): void {
  switch (type) {
    case 'session_meta': {
      d.category = 'session';
      d.label = label('session', str(p, 'id'), str(p, 'originator'), str(p, 'cli_version'), str(p, 'model_provider') && `(${str(p, 'model_provider')})`);
      return;
    }
    case 'turn_context': {
      d.category = 'turn';
      d.model = str(p, 'model');
      d.label = label('turn_context', d.model, str(p, 'approval_policy'), str(obj(p, 'sandbox_policy'), 'type'));
      return;
    }
    case 'response_item':
      return describeResponseItem(p, d, cwd);
    case 'event_msg':
      return describeEventMsg(p, d);
    case 'token_usage_record':
      return describeUsageRecord(p, d);
    case 'compacted':
      d.category = 'other';
      d.label = withText('compacted', str(p, 'message'), 72);
      d.usage = { compaction: { preTokens: null, trigger: null } };
      return;
    default:
      d.category = 'other';
      d.label = label(type, str(p, 'type'));
  }
}

/**
 * A `token_count` reports its response (`last_token_usage`, input including cached input, output including
 * reasoning) and the thread's running totals (`total_token_usage`), which the rollup is checked against.
 */
export function codexUsage(last: Obj | null, total: Obj | null): UsageDraft {
  return {
    cacheRead: num(last, 'cached_input_tokens'), cacheWrite: num(last, 'cache_write_input_tokens'), reasoning: num(last, 'reasoning_output_tokens'),
    ...(total ? { runningTotals: { input: num(total, 'input_tokens'), output: num(total, 'output_tokens'), cacheRead: num(total, 'cached_input_tokens'), cacheWrite: num(total, 'cache_write_input_tokens'), reasoning: num(total, 'reasoning_output_tokens') } } : {}),
  };
}
