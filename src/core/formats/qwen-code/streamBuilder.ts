import type { UsageDraft } from '../../usageTypes';
import { EventStatus } from '../../model';
import { argsSummary, exitCodeInText, formatCount, formatDuration, formatTokens, isObj, label, num, Obj, short, str, toolCallLabel, toolResultLabel, type ToolStep } from '../common';
import { Emit, EventBuilder, FormatTotals, SourceRecord } from '../../format';
import { jsonPreview } from '../../json/jsonPreview';
import { isStreamMessage } from './qwenRecords';

/** A token count as the notes write it: every digit, grouped. */
const exact = (n: number): string => n.toLocaleString('en-US');

/** Where a message's events go: its id, session and parent. */
interface StepPlace {
  id: string | null;
  group: string | null;
  parentIndex: number | null;
}

/** A message of text alone with zero usage: the first half of a response whose calls come in the next message. */
function textOnly(m: Obj | null, content: readonly Obj[]): boolean {
  const u = m && isObj(m.usage) ? m.usage : null;
  if (!u || u.input_tokens !== 0 || u.output_tokens !== 0 || 'total_tokens' in u) return false;
  return content.length > 0 && content.every((b) => b.type === 'text');
}

/**
 * Reads `qwen -o stream-json` (one message a line) and `-o json` (one array of the same messages), shaped like the
 * Claude Agent SDK's: `system`/`init` opens a run, each `assistant` message is a model step (its `usage.input_tokens`
 * include the cached tokens, `cache_read_input_tokens` a part of them), its `tool_use` blocks are calls under it, a
 * `tool_result` block goes under its call (`tool_use_id`), a subagent's messages (`parent_tool_use_id`) and task
 * reports under the call that started it, and `result` is the run's totals line (no cost).
 */
export class StreamBuilder implements EventBuilder {
  private run = -1;
  private sessionId: string | null = null;
  private readonly calls = new Map<string, number>();
  /** What each call asks, by call id: its result's row says it (common.ts toolResultLabel). */
  private readonly steps = new Map<string, ToolStep>();
  private toolCalls = 0;
  private failedCalls = 0;
  /** The usage of the model steps the stream shows, summed. */
  private readonly seen = { input: 0, output: 0, steps: 0 };
  /** Background subagent runs the stream reports the usage of (`task_notification`), by call: total tokens. */
  private readonly tasks = new Map<string, number>();
  private notes: string[] = [];

  /**
   * A response's text, written first as its own message with zero usage: held until the next line, so that the
   * message with the response's calls and usage makes one model step with it (as the chat recording has it).
   */
  private pending: { m: Obj | null; content: Obj[]; at: StepPlace; rec: SourceRecord; under: string | null } | null = null;

  add(rec: SourceRecord, emit: Emit): void {
    const v = rec.value;
    if (this.pending) {
      const p = this.pending;
      this.pending = null;
      const m = isStreamMessage(v) && v.type === 'assistant' && isObj(v.message) ? v.message : null;
      const calls = m && Array.isArray(m.content) && m.content.some((b) => isObj(b) && b.type === 'tool_use');
      if (m && calls && str(v as Obj, 'parent_tool_use_id') === p.under) {
        const content = (m.content as unknown[]).filter(isObj);
        this.assistant(m, [...p.content, ...content], p.at, p.rec, emit, rec);
        return;
      }
      this.assistant(p.m, p.content, p.at, p.rec, emit);
    }
    if (!isStreamMessage(v)) {
      emit({ kind: isObj(v) && typeof v.type === 'string' ? v.type : 'record', category: 'other', parentIndex: this.parent(), label: label('record', short(jsonPreview(v, 60), 60)) }, rec);
      return;
    }
    const group = str(v, 'session_id');
    const id = str(v, 'uuid');
    const under = str(v, 'parent_tool_use_id');
    const parentIndex = (under !== null ? this.calls.get(under) : undefined) ?? this.parent();
    const m = isObj(v.message) ? v.message : null;
    const content = m && Array.isArray(m.content) ? m.content.filter(isObj) : [];
    if (v.type === 'system' && v.subtype === 'init') {
      this.sessionId = group;
      this.run = emit({ kind: 'init', category: 'session', id, group, model: str(v, 'model'), label: label('session', group?.slice(0, 8), str(v, 'model'), str(v, 'qwen_code_version') && `qwen ${str(v, 'qwen_code_version')}`) }, rec);
      return;
    }
    if (v.type === 'assistant') {
      if (textOnly(m, content)) {
        this.pending = { m, content, at: { id, group, parentIndex }, rec, under };
        return;
      }
      return this.assistant(m, content, { id, group, parentIndex }, rec, emit);
    }
    if (v.type === 'user') return this.user(content, m, { id, group, parentIndex }, rec, emit);
    if (v.type === 'result') return this.result(v, { id, group }, rec, emit);
    if (v.type === 'system') {
      const d = isObj(v.data) ? v.data : null;
      const call = str(d, 'tool_use_id');
      const at = (call !== null ? this.calls.get(call) : undefined) ?? parentIndex;
      const taskTokens = isObj(d?.usage) ? num(d.usage, 'total_tokens') : null;
      if (v.subtype === 'task_notification' && taskTokens !== null) this.tasks.set(call ?? str(d, 'task_id') ?? '', taskTokens);
      emit({ kind: `system:${str(v, 'subtype') ?? ''}`, category: 'other', id, group, parentIndex: at, label: label('system', str(v, 'subtype'), str(d, 'description') ?? str(d, 'status')) }, rec);
      return;
    }
    emit({ kind: v.type as string, category: 'other', id, group, parentIndex, label: label(v.type as string, isObj(v.event) ? str(v.event, 'type') : null) }, rec);
  }

  finish(emit: Emit): [] {
    const p = this.pending;
    this.pending = null;
    if (p) this.assistant(p.m, p.content, p.at, p.rec, emit);
    return [];
  }

  totals(): FormatTotals {
    return { toolCalls: this.toolCalls, errors: this.failedCalls };
  }

  usageNotes(): string[] {
    return this.notes;
  }

  /** A model step at `rec`; its calls at `callsAt` (the line of the message that holds them, when another). */
  private assistant(m: Obj | null, content: Obj[], at: StepPlace, rec: SourceRecord, emit: Emit, callsAt: SourceRecord = rec): void {
    const u = m && isObj(m.usage) ? m.usage : null;
    const input = num(u, 'input_tokens');
    const output = num(u, 'output_tokens');
    // A response's text is written first with zero usage, its tool calls after it with the response's usage.
    const none = !u || (input === 0 && output === 0 && !('total_tokens' in u));
    const usage: UsageDraft = none ? { elsewhere: true } : { input, output, cacheRead: num(u, 'cache_read_input_tokens') ?? 0 };
    if (!none) {
      this.seen.input += input ?? 0;
      this.seen.output += output ?? 0;
      this.seen.steps++;
    }
    const text = content.map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('');
    const uses = content.filter((b) => b.type === 'tool_use');
    const step = emit({ kind: 'assistant', category: 'inference', ...at, model: str(m, 'model'), tokensIn: none ? null : input, tokensOut: none ? null : output, usage,
      label: label('qwen:', short(text, 70), uses.length ? `(${uses.length} tool call${uses.length > 1 ? 's' : ''})` : null, none ? null : formatTokens(input, output)) }, rec);
    for (const b of uses) {
      const id = str(b, 'id');
      const name = str(b, 'name') ?? 'tool';
      const arg = argsSummary(b.input);
      const idx = emit({ kind: 'tool_use', category: 'tool', id, tool: name, group: at.group, parentIndex: step, label: toolCallLabel({ tool: name, arg }) }, callsAt);
      this.toolCalls++;
      if (id) {
        this.calls.set(id, idx);
        this.steps.set(id, { tool: name, arg });
      }
    }
  }

  private user(content: Obj[], m: Obj | null, at: StepPlace, rec: SourceRecord, emit: Emit): void {
    const results = content.filter((b) => b.type === 'tool_result');
    if (results.length === 0) {
      const text = typeof m?.content === 'string' ? m.content : content.map((b) => (typeof b.text === 'string' ? b.text : '')).join('');
      emit({ kind: 'user', category: 'message', ...at, label: label('user:', short(text, 80)) }, rec);
      return;
    }
    results.forEach((b, k) => {
      const callId = str(b, 'tool_use_id');
      const call = callId !== null ? this.calls.get(callId) : undefined;
      const failed = b.is_error === true;
      if (failed && call !== undefined) this.failedCalls++;
      const status: EventStatus = failed ? 'error' : 'ok';
      const mentions = callId ? [{ field: 'tool_use_id', id: callId }] : [];
      const step = callId !== null ? this.steps.get(callId) : undefined;
      const text = typeof b.content === 'string' ? b.content : null;
      emit({ kind: 'tool_result', category: 'message', id: k === 0 ? at.id : null, group: at.group, status, mentions,
        ...(call !== undefined ? { parentIndex: call } : callId !== null ? { parentId: callId } : { parentIndex: at.parentIndex }),
        label: step ? toolResultLabel({ ...step, exitCode: exitCodeInText(text), failed, error: text }) : label('tool result', failed ? 'error' : null, text ? short(text, 60) : null) }, rec);
    });
  }

  private result(v: Obj, at: { id: string | null; group: string | null }, rec: SourceRecord, emit: Emit): void {
    const u = isObj(v.usage) ? v.usage : null;
    const input = num(u, 'input_tokens');
    const output = num(u, 'output_tokens');
    const duration = num(v, 'duration_ms');
    // The run's totals (its background subagents' requests included): input counts the cached input already.
    const usage: UsageDraft | undefined = u ? { source: 'totals', input, output, cacheRead: num(u, 'cache_read_input_tokens') } : undefined;
    const status: EventStatus = v.is_error === true ? 'error' : 'ok';
    const unseen = this.unseen(input, output, rec.line);
    emit({ kind: 'result', category: 'run', ...at, status, durationMs: duration, parentIndex: this.run >= 0 ? this.run : null, usage,
      label: label('result', str(v, 'subtype'), formatTokens(input, output), duration !== null ? formatDuration(duration) : null,
        unseen > 0 ? `(includes ${formatCount(unseen)} tokens of requests the stream does not show)` : null) }, rec);
  }

  /**
   * The tokens the result counts beyond the model steps the stream shows: a background subagent's requests (its
   * `task_notification` reports their total) and side requests (Qwen's auto-memory extractor) are in the run's
   * totals, never in the stream. Said in `usage.explain.notes`, so the difference is not a silent mismatch.
   */
  private unseen(input: number | null, output: number | null, line: number): number {
    const extraIn = (input ?? 0) - this.seen.input;
    const extraOut = (output ?? 0) - this.seen.output;
    const extra = extraIn + extraOut;
    if (input === null || output === null || extra <= 0) return 0;
    const tasks = [...this.tasks].filter(([, n]) => n > 0);
    const byTasks = tasks.reduce((a, [, n]) => a + n, 0);
    const parts = tasks.map(([call, n]) => `${exact(n)} tokens of the background subagent of call ${call}, as its task_notification reports`);
    const rest = extra - byTasks;
    if (rest > 0) parts.push(`${exact(rest)} tokens of other requests, such as Qwen's auto-memory side request`);
    this.notes.push(`The result on line ${line} counts ${exact(extraIn)} input and ${exact(extraOut)} output tokens more than the ${this.seen.steps} model step${this.seen.steps === 1 ? '' : 's'} the stream shows, from requests it does not show: ${parts.join('; ')}. The rollup counts the steps.`);
    return extra;
  }

  private parent(): number | null {
    return this.run >= 0 ? this.run : null;
  }
}
