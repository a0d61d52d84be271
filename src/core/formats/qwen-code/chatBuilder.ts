import { EventDraft, EventStatus } from '../../model';
import { argsSummary, formatTokens, isObj, label, num, Obj, parseTime, short, str, toolCallLabel, toolResultLabel, type ToolStep } from '../common';
import { BuilderSource, Emit, EventBuilder, FormatTotals, SourceRecord } from '../../format';
import { jsonPreview } from '../../json/jsonPreview';
import { messageParts, partsText } from './qwenRecords';
import { subagentModelSync } from './subagents';

const TOOL_USE_ID = /<tool-use-id>([^<]+)<\/tool-use-id>/;

/**
 * Reads a Qwen Code chat recording (`~/.qwen/projects/<cwd>/chats/<session>.jsonl`, a subagent's
 * `subagents/<session>/agent-*.jsonl` alike). Each line keeps its recorded link (`uuid` / `parentUuid`, one chain);
 * it is shown by the session model (`EventDraft.displayParent`):
 *
 * - a **turn** is a `user` line (the user's prompt, or a background task's `notification`): a root;
 * - a **model step** is an `assistant` line, under its turn, with its `usageMetadata` (prompt tokens include the
 *   cached ones); each `functionCall` part is a **tool call** row of that line, under the step;
 * - a **tool result** (`tool_result` line) goes under its call (`functionResponse.id`); a failed one
 *   (`toolCallResult.status` `error`) marks the call as an error;
 * - `system` lines (telemetry, attribution snapshots) go under the current turn, a tool call's telemetry under
 *   that call. The `api_response` telemetry repeats a step's tokens: it is shown, never counted.
 */
export class ChatBuilder implements EventBuilder {
  private turn = -1;
  private readonly calls = new Map<string, number>();
  /** What each call asks and when, by call id: its result's row says it (common.ts toolResultLabel). */
  private readonly steps = new Map<string, ToolStep & { time: number | null }>();
  private toolCalls = 0;
  private failedCalls = 0;

  constructor(private readonly source: BuilderSource) {}

  /** A subagent recording's model from its `.meta.json`; undefined until asked. */
  private metaModel: string | null | undefined = undefined;
  /** The turn's first `system` row, which its other system lines sit under; -1 until there is one. */
  private systemRow = -1;
  /** What the last `qwen-code.api_response` recorded of the request the next model step is the answer of. */
  private request: { durationMs: number | null; model: string | null } | null = null;
  /** The last model step and its line's uuid, while the lines after it may still be the same response. */
  private lastStep: { index: number; uuid: string | null } | null = null;

  add(rec: SourceRecord, emit: Emit): void {
    const v = rec.value;
    const step = this.lastStep;
    if (!isObj(v) || v.type !== 'system') this.lastStep = null;
    if (!isObj(v)) {
      emit({ kind: 'record', category: 'other', displayParent: this.turn, label: label('record', short(jsonPreview(v, 60), 60)) }, rec);
      return;
    }
    const base: EventDraft = { kind: str(v, 'type') ?? 'record', label: '', id: str(v, 'uuid'), parentId: str(v, 'parentUuid'), time: parseTime(v.timestamp), group: str(v, 'sessionId') };
    const parts = messageParts(v) ?? [];
    switch (v.type) {
      case 'user': return this.user(v, parts, base, rec, emit);
      case 'assistant': return this.assistant(v, parts, base, rec, emit, step);
      case 'tool_result': return this.toolResult(v, parts, base, rec, emit);
      case 'system': return this.system(v, base, rec, emit);
      default:
        emit({ ...base, category: 'other', displayParent: this.turn, label: label(base.kind, short(jsonPreview(v, 60), 60)) }, rec);
    }
  }

  totals(): FormatTotals {
    return { toolCalls: this.toolCalls, errors: this.failedCalls };
  }

  private user(v: Obj, parts: Obj[], base: EventDraft, rec: SourceRecord, emit: Emit): void {
    const text = partsText(parts);
    const notification = v.subtype === 'notification';
    const callId = notification ? TOOL_USE_ID.exec(text)?.[1] ?? null : null;
    const mentions = callId ? [{ field: 'tool-use-id', id: callId }] : [];
    this.systemRow = -1;
    this.turn = emit({ ...base, category: 'turn', displayParent: -1, mentions, label: label(notification ? 'notification:' : 'user:', short(text, 80)) }, rec);
  }

  private assistant(v: Obj, parts: Obj[], base: EventDraft, rec: SourceRecord, emit: Emit, before: { index: number; uuid: string | null } | null): void {
    const u = isObj(v.usageMetadata) ? v.usageMetadata : null;
    const prompt = num(u, 'promptTokenCount');
    const out = num(u, 'candidatesTokenCount');
    const calls = parts.flatMap((p) => (isObj(p.functionCall) ? [p.functionCall] : []));
    const model = str(v, 'model');
    // A subagent recording writes one response as two lines, its text (with the usage) and then its calls: the
    // calls line, with no usage and no text, linked to the text line, is the same model step (the main chat and
    // the stream's result count one request).
    if (before && !u && calls.length > 0 && calls.length === parts.length && before.uuid !== null && base.parentId === before.uuid) {
      this.lastStep = { index: before.index, uuid: base.id ?? null };
      // The line keeps its recorded link (the tool result names its uuid) as a row of the step, not a step.
      emit({ ...base, kind: 'assistant_calls', category: 'other', displayParent: before.index, label: label('qwen: the same response\'s', `${calls.length} tool call${calls.length > 1 ? 's' : ''}`, '(its usage is on the step)') }, rec);
      this.calls_(calls, before.index, base, rec, emit);
      return;
    }
    // promptTokenCount includes the cached tokens (cachedContentTokenCount is a part of it); thoughts are apart
    // from the candidates (totalTokenCount = prompt + candidates + thoughts). A response split over two lines
    // (a subagent's text, then its call) carries usageMetadata on the first only.
    const usage = u ? { cacheRead: num(u, 'cachedContentTokenCount') ?? 0, reasoning: num(u, 'thoughtsTokenCount') ?? 0, reasoningApart: true } : { elsewhere: true };
    const request = this.request;
    this.request = null;
    // A subagent recording names no model on its lines: its .meta.json does (asked once).
    if (model === null && request === null && this.metaModel === undefined) this.metaModel = subagentModelSync(this.source.path);
    const step = emit({
      ...base, kind: 'assistant', category: 'inference', model: model ?? request?.model ?? this.metaModel ?? null, durationMs: request?.durationMs ?? null, tokensIn: prompt, tokensOut: out, usage, displayParent: this.turn,
      label: label('qwen:', short(partsText(parts), 70), calls.length ? `(${calls.length} tool call${calls.length > 1 ? 's' : ''})` : null, formatTokens(prompt, out)),
    }, rec);
    this.lastStep = { index: step, uuid: base.id ?? null };
    this.calls_(calls, step, base, rec, emit);
  }

  /** Each `functionCall` part a tool call row of its line, under its model step. */
  private calls_(calls: Obj[], step: number, base: EventDraft, rec: SourceRecord, emit: Emit): void {
    for (const c of calls) {
      const id = str(c, 'id');
      const name = str(c, 'name') ?? 'tool';
      const arg = argsSummary(c.args);
      const idx = emit({ kind: 'tool_call', category: 'tool', id, tool: name, time: base.time, group: base.group, parentIndex: step, label: toolCallLabel({ tool: name, arg }) }, rec);
      this.toolCalls++;
      if (id) {
        this.calls.set(id, idx);
        this.steps.set(id, { tool: name, arg, time: base.time ?? null });
      }
    }
  }

  private toolResult(v: Obj, parts: Obj[], base: EventDraft, rec: SourceRecord, emit: Emit): void {
    const r = isObj(v.toolCallResult) ? v.toolCallResult : null;
    const responses = parts.flatMap((p) => (isObj(p.functionResponse) ? [p.functionResponse] : []));
    const callId = str(r, 'callId') ?? str(responses[0], 'id');
    const failed = str(r, 'status') === 'error' || responses.some((x) => isObj(x.response) && 'error' in x.response);
    const status: EventStatus = failed ? 'error' : 'ok';
    const call = callId !== null ? this.calls.get(callId) : undefined;
    if (failed && call !== undefined) {
      this.source.setStatus(call, 'error');
      this.failedCalls++;
    }
    const names = responses.map((x) => str(x, 'name') ?? 'tool').join(', ');
    const mentions = callId ? [{ field: 'functionResponse.id', id: callId }] : [];
    const exit = isObj(r?.resultDisplay) ? num(r.resultDisplay, 'exitCode') : null;
    const step = callId !== null && responses.length <= 1 ? this.steps.get(callId) : undefined;
    emit({ ...base, category: 'message', status, mentions, displayParent: call ?? this.turn,
      label: step ? toolResultLabel({ ...step, exitCode: exit, failed, durationMs: step.time !== null && base.time != null && base.time >= step.time ? base.time - step.time : null })
        : label('tool result', names, failed ? 'error' : null, exit !== null && exit !== 0 ? `exit ${exit}` : null) }, rec);
  }

  /**
   * `system` lines fold into what they describe. A `qwen-code.api_response` names the request of the next model step:
   * its `duration_ms` is that step's duration (a subagent's, `subagent_id`, goes under the agent call that started
   * it); a `qwen-code.tool_call` is the duration of its call and sits under it; the other system lines of a turn
   * (telemetry, attribution snapshots) sit under the turn's first one, one row in the turn.
   */
  private system(v: Obj, base: EventDraft, rec: SourceRecord, emit: Emit): void {
    const subtype = str(v, 'subtype');
    const ui = isObj(v.systemPayload) && isObj(v.systemPayload.uiEvent) ? v.systemPayload.uiEvent : null;
    const name = str(ui, 'event.name');
    const callId = str(ui, 'call_id');
    const subagent = str(ui, 'subagent_id');
    let call = callId !== null ? this.calls.get(callId) : undefined;
    if (call === undefined && subagent !== null) {
      for (const [id, idx] of this.calls) if (subagent === id || subagent.endsWith(`-${id}`)) call = idx;
    }
    const ms = num(ui, 'duration_ms');
    if (name === 'qwen-code.api_response' && subagent === null) this.request = { durationMs: ms, model: str(ui, 'model') };
    if (name === 'qwen-code.tool_call' && call !== undefined && callId !== null && ms !== null) this.source.setDuration(call, ms);
    const detail = name === 'qwen-code.api_response'
      ? label(str(ui, 'model'), formatTokens(num(ui, 'input_token_count'), num(ui, 'output_token_count')))
      : name === 'qwen-code.tool_call' ? label(str(ui, 'function_name'), ui?.success === false ? 'failed' : null) : null;
    const idx = emit({ ...base, kind: name ?? (subtype ? `system:${subtype}` : 'system'), category: 'other', displayParent: call ?? (this.systemRow >= 0 ? this.systemRow : this.turn),
      label: label('system', name ?? subtype, detail) }, rec);
    if (call === undefined && this.systemRow < 0) this.systemRow = idx;
  }
}
