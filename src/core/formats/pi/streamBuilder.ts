import type { EventDraft } from '../../model';
import { BuilderSource, Emit, EventBuilder, FormatTotals, SourceRecord } from '../../format';
import { argsSummary, formatCount, formatTokens, isObj, label, num, Obj, parseTime, short, str, toolCallLabel, type ToolStep } from '../common';
import { jsonPreview } from '../../json/jsonPreview';
import { isPiHeader, messageText, piUsage, responseFailed, resultLabel, toolCalls } from './piRecords';

/**
 * Reads `pi --mode json` stdout: the session header, then pi's agent events, which carry no ids. They are grouped
 * by their order and by `toolCallId`:
 *
 * - `agent_start` opens a **run** (one prompt) under the session, `agent_end` (every message of the run again)
 *   closes it;
 * - `turn_start` opens a **turn** (one model request and the tools it called) under the run; `turn_end` (its
 *   message and tool results again) closes it;
 * - `message_start` opens a message under the turn; its streamed `message_update`s (each a snapshot of the message
 *   so far, usage included: never counted) and its `message_end` go under it. The `message_end` is the message
 *   itself: an assistant's is the **model step**, with the usage (counted there only), and each `toolCall` block
 *   of it is a **tool call** row under the step;
 * - `tool_execution_start` / `_update` / `_end` and the `toolResult` message go under their call (`toolCallId`);
 *   the result message's `message_end` is the **tool result**; `isError` on either marks the call failed, once;
 * - the coding agent's own events (queue, compaction, retry, thinking level, session name) go under the turn or
 *   the run.
 */
export class StreamBuilder implements EventBuilder {
  private session = -1;
  private run = -1;
  private turn = -1;
  /** The message being streamed (its `message_start`), and whether it is a tool result's (then under its call). */
  private message = -1;
  private group: string | null = null;
  private readonly calls = new Map<string, number>();
  /** What each call asks and when, by call id: its result's row says it (common.ts toolResultLabel). */
  private readonly steps = new Map<string, ToolStep & { time: number | null }>();
  private readonly failed = new Set<string>();
  private toolCalls = 0;
  private failedResponses = 0;

  constructor(private readonly source: BuilderSource) {}

  add(rec: SourceRecord, emit: Emit): void {
    const v = rec.value;
    if (!isObj(v)) {
      emit({ kind: 'record', category: 'other', parentIndex: this.inner() >= 0 ? this.inner() : null, label: label('record', short(jsonPreview(v, 60), 60)) }, rec);
      return;
    }
    const type = str(v, 'type') ?? 'record';
    const at = (parentIndex: number): EventDraft => ({ kind: type, label: '', group: this.group, parentIndex: parentIndex >= 0 ? parentIndex : null });
    switch (type) {
      case 'session':
        if (!isPiHeader(v)) break;
        this.group = str(v, 'id');
        this.session = emit({ kind: 'session', category: 'session', id: this.group, group: this.group, time: parseTime(v.timestamp), label: label('session', this.group?.slice(0, 8), str(v, 'cwd'), num(v, 'version') !== null && `v${num(v, 'version')}`) }, rec);
        return;
      case 'agent_start':
        this.run = emit({ ...at(this.session), category: 'run', label: 'run' }, rec);
        this.turn = this.message = -1;
        return;
      case 'agent_end': {
        const n = Array.isArray(v.messages) ? v.messages.length : null;
        // It repeats every message of the run: a closing row, not a conversation of its own.
        emit({ ...at(this.run >= 0 ? this.run : this.session), category: 'other', label: label('run end', n !== null && `${n} message${n === 1 ? '' : 's'}`) }, rec);
        this.run = this.turn = this.message = -1;
        return;
      }
      case 'turn_start':
        this.turn = emit({ ...at(this.outer()), category: 'turn', label: 'turn' }, rec);
        this.message = -1;
        return;
      case 'turn_end': {
        const results = Array.isArray(v.toolResults) ? v.toolResults.length : 0;
        emit({ ...at(this.turn >= 0 ? this.turn : this.outer()), category: 'other', label: label('turn end', results > 0 && `${results} tool result${results > 1 ? 's' : ''}`) }, rec);
        this.turn = this.message = -1;
        return;
      }
      case 'message_start':
      case 'message_update':
      case 'message_end':
        return this.messageEvent(type, v, at, rec, emit);
      case 'tool_execution_start':
      case 'tool_execution_update':
      case 'tool_execution_end': {
        const callId = str(v, 'toolCallId');
        const call = callId !== null ? this.calls.get(callId) : undefined;
        const failed = type === 'tool_execution_end' && v.isError === true;
        if (failed) this.fail(callId, call);
        const arg = type === 'tool_execution_start' ? argsSummary(v.args) : null;
        emit({ ...at(call ?? this.inner()), category: 'other', status: failed ? 'error' : 'ok', mentions: callId ? [{ field: 'toolCallId', id: callId }] : [],
          label: label(type.replace('tool_execution_', 'tool '), str(v, 'toolName'), arg && short(arg, 60), failed && 'error') }, rec);
        return;
      }
      case 'compaction_end': {
        const result = isObj(v.result) ? v.result : null;
        const before = num(result, 'tokensBefore');
        emit({ ...at(this.inner()), category: 'other', usage: { compaction: { preTokens: before, trigger: str(v, 'reason') } },
          label: label('compaction end', str(v, 'reason'), before !== null && `${formatCount(before)} tokens before`, v.aborted === true && 'aborted', str(v, 'errorMessage')) }, rec);
        return;
      }
      case 'auto_retry_start':
        emit({ ...at(this.inner()), category: 'other', usage: { retry: { attempt: num(v, 'attempt') } }, label: label('retry', num(v, 'attempt') !== null && `attempt ${num(v, 'attempt')}`, short(str(v, 'errorMessage') ?? '', 60)) }, rec);
        return;
      default:
        break;
    }
    emit({ ...at(this.inner()), category: 'other', label: label(type, short(jsonPreview(v, 60), 60)) }, rec);
  }

  totals(): FormatTotals {
    return { toolCalls: this.toolCalls, errors: this.failed.size + this.failedResponses };
  }

  private messageEvent(type: string, v: Obj, at: (p: number) => EventDraft, rec: SourceRecord, emit: Emit): void {
    const update = type === 'message_update';
    const m = isObj(v.message) ? v.message : update && isObj(v.assistantMessageEvent) && isObj(v.assistantMessageEvent.partial) ? v.assistantMessageEvent.partial : null;
    const role = str(m, 'role');
    // A message's time (epoch ms) is when it was made: every event of it carries it.
    const time = num(m, 'timestamp');
    at = ((a) => (p: number) => ({ ...a(p), time }))(at);
    if (role === 'toolResult') {
      // A tool's result message: its start and its end under the call; the end is the result.
      const callId = str(m, 'toolCallId');
      const call = callId !== null ? this.calls.get(callId) : undefined;
      const failed = m?.isError === true;
      const end = type === 'message_end';
      if (failed && end) this.fail(callId, call);
      emit({ ...at(call ?? this.inner()), kind: end ? 'tool_result' : type, category: end ? 'message' : 'other', status: failed ? 'error' : 'ok', mentions: callId ? [{ field: 'toolCallId', id: callId }] : [],
        label: (end ? resultLabel(callId !== null ? this.steps.get(callId) : undefined, failed, time ?? null, messageText(m)) : null) ?? label(end ? 'tool result' : 'tool result start', str(m, 'toolName'), failed && 'error', short(messageText(m), 60)) }, rec);
      return;
    }
    if (type === 'message_start') {
      // Opens the message: its streamed snapshots and its end (the message itself) go under it.
      this.message = emit({ ...at(this.turn >= 0 ? this.turn : this.outer()), category: 'other', model: str(m, 'model'), label: label('message start', role, str(m, 'model')) }, rec);
      return;
    }
    const parent = this.message >= 0 ? this.message : this.inner();
    if (update) {
      const e = isObj(v.assistantMessageEvent) ? v.assistantMessageEvent : null;
      const delta = str(e, 'delta');
      emit({ ...at(parent), category: 'other', label: label('update', str(e, 'type'), delta !== null && short(JSON.stringify(delta), 40)) }, rec);
      return;
    }
    // message_end: the whole message, counted here only.
    this.message = -1;
    if (role !== 'assistant') {
      emit({ ...at(parent), kind: role ?? type, category: 'message', label: label(`${role ?? 'message'}:`, short(messageText(m), 80)) }, rec);
      return;
    }
    const u = piUsage(m);
    const calls = toolCalls(m);
    const failed = responseFailed(m);
    if (failed) this.failedResponses++;
    const step = emit({
      // The response's id is the step's own (the stream has no entry ids): the detail and the transcript find its message by it.
      ...at(parent), kind: 'assistant', category: 'inference', id: str(m, 'responseId'), model: str(m, 'model'), status: failed ? 'error' : 'ok',
      tokensIn: u?.tokensIn ?? null, tokensOut: u?.tokensOut ?? null, ...(u ? { usage: u.usage } : {}),
      label: label('pi:', short(failed ? str(m, 'errorMessage') ?? str(m, 'stopReason') ?? '' : messageText(m), 70), calls.length ? `(${calls.length} tool call${calls.length > 1 ? 's' : ''})` : null, u && formatTokens(u.tokensIn, u.tokensOut)),
    }, rec);
    for (const c of calls) {
      const callId = str(c, 'id');
      const name = str(c, 'name') ?? 'tool';
      const arg = argsSummary(c.arguments);
      const idx = emit({ kind: 'tool_call', category: 'tool', id: callId, tool: name, group: this.group, time, parentIndex: step, label: toolCallLabel({ tool: name, arg }) }, rec);
      this.toolCalls++;
      if (callId) {
        this.calls.set(callId, idx);
        this.steps.set(callId, { tool: name, arg, time: time ?? null });
      }
    }
  }

  private fail(callId: string | null, call: number | undefined): void {
    if (callId === null || this.failed.has(callId)) return;
    this.failed.add(callId);
    if (call !== undefined) this.source.setStatus(call, 'error');
  }

  /** The innermost open group: the turn, else the run, else the session. */
  private inner(): number {
    return this.turn >= 0 ? this.turn : this.outer();
  }

  private outer(): number {
    return this.run >= 0 ? this.run : this.session;
  }
}
