import type { UsageDraft } from '../../usageTypes';
import { EventCategory, EventDraft, EventStatus, Finding, IdMention } from '../../model';
import { argsSummary, formatDuration, formatTokens, isObj, label, num, obj, Obj, parseTime, short, str, toolCallLabel, toolResultLabel } from '../common';
import { BuilderSource, Emit, EventBuilder, FormatTotals, SourceRecord } from '../../format';
import { jsonPreview } from '../../json/jsonPreview';
import { isCopilotEvent, isCopilotResult } from './copilotRecords';

/** Where one agent's events go: the main agent's (key '') or a subagent's (its `agentId`). */
interface AgentPlace {
  /** The run (session.start / session.resume) or the subagent's `subagent.started`; -1: none read. */
  root: number;
  /** Its current turn (`user.message`), -1 before the first. */
  turn: number;
  /** Its current model step (`assistant.turn_start`), -1 outside one. */
  step: number;
}

/** A `session.usage_record` not yet handed to the assistant message of its request. */
interface PendingUsage {
  record: number;
  apiCallId: string | null;
  tokensIn: number | null;
  tokensOut: number | null;
  usage: UsageDraft;
}

const MAIN = '';

/**
 * Reads GitHub Copilot CLI's events, both dialects (see `copilotRecords.ts`). Each line keeps its recorded link
 * (`id` / `parentId`, one chain from `session.start`); it is shown by the session model (`EventDraft.displayParent`):
 *
 * - `session.start` and each `session.resume` (a resumed run appended to the same file) are roots; the shutdown
 *   that ends a run is under it;
 * - a **turn** is a `user.message`, under its run; a **step** is an `assistant.turn_start` under its turn, with the
 *   model call (`assistant.message`, its `toolRequests`), the `session.usage_record` of that request and the
 *   streaming events of the step under it;
 * - a **tool call** is a `tool.execution_start`, under the message that requested it; its
 *   `tool.execution_complete` (and its output chunks) under it by `toolCallId`. A call failed when `success` is
 *   false or its shell command exited non-zero (Copilot records `ls /nonexistent` as `success: true`, exit 2);
 * - a **subagent** (`subagent.started`, `toolCallId` = its `task` call) is under that call, and the events of its
 *   `agentId` nest under it as the main agent's nest under the run.
 *
 * Usage is each `session.usage_record`'s (one per model request: `inputTokens` include the cached ones,
 * `cacheReadTokens` a part of them), counted once on the assistant message of the same `apiCallId` (on the record
 * itself when no message follows); a `cost` of 0 (BYOK: GitHub bills nothing) is recorded as the cost, not priced. `session.shutdown` holds the session's running totals (after a resume, both runs): checked, never added.
 * The stdout has no usage records: its messages' usage is missing, not 0. Its events' `parentId` may name an event
 * only the session file holds: such a link is kept as a mention, not as a dangling parent.
 */
export class CopilotEventsBuilder implements EventBuilder {
  /** Whether links to events not in the file are facts (the stdout: once an ephemeral event is read) or gaps. */
  private lenient = false;
  private group: string | null = null;
  private run = -1;
  private readonly agents = new Map<string, AgentPlace>([[MAIN, { root: -1, turn: -1, step: -1 }]]);
  /** A task call's id → the agentId of the subagent it started. */
  private readonly agentOfTask = new Map<string, string>();
  /** A tool call's id → the assistant message that requested it. */
  private readonly requestedBy = new Map<string, number>();
  /** A tool call's id → its `tool.execution_start` event and time. */
  private readonly calls = new Map<string, { index: number; time: number | null; tool: string; arg: string | null }>();
  /** A task call's id → its `subagent.started`. */
  private readonly subagents = new Map<string, number>();
  private readonly pending = new Map<string, PendingUsage>();
  /** `<agent>\0<apiCallId>` of the requests whose usage a message already took. */
  private readonly taken = new Set<string>();
  /** Every id read so far (stdout: a link to another is kept as a mention). */
  private readonly ids = new Set<string>();
  private toolCalls = 0;
  private failedCalls = 0;

  constructor(private readonly source: BuilderSource) {}

  add(rec: SourceRecord, emit: Emit): void {
    const v = rec.value;
    if (isCopilotResult(v)) return this.result(v, rec, emit);
    if (!isCopilotEvent(v)) {
      const kind = isObj(v) && typeof v.type === 'string' ? v.type : 'record';
      emit({ kind, category: 'other', displayParent: this.place(MAIN), group: this.group, label: label(kind, short(jsonPreview(v, 60), 60)) }, rec);
      return;
    }
    // Only the stdout writes ephemeral events (its first lines are some): from the first one on, a link to an event
    // the file does not hold is a fact. A session file, even one cut at its head, stays strict: its lost links are gaps.
    if (v.ephemeral === true) this.lenient = true;
    const d = v.data as Obj;
    const key = this.agentKey(v, d);
    const base = this.base(v, key);
    switch (v.type) {
      case 'session.start':
      case 'session.resume': return this.runStart(v, d, base, rec, emit);
      case 'session.shutdown': return this.shutdown(d, base, rec, emit);
      case 'user.message': return this.userMessage(d, key, base, rec, emit);
      case 'assistant.turn_start': return this.turnStart(d, key, base, rec, emit);
      case 'assistant.message': return this.message(d, key, base, rec, emit);
      case 'session.usage_record': return this.usageRecord(d, key, base, rec, emit);
      case 'tool.execution_start': return this.toolStart(d, key, base, rec, emit);
      case 'tool.execution_complete': return this.toolComplete(d, key, base, rec, emit);
      case 'subagent.started': return this.subagentStarted(v, d, base, rec, emit);
      default: return this.other(v, d, key, base, rec, emit);
    }
  }

  finish(): Finding[] {
    for (const p of this.pending.values()) this.source.setUsage(p.record, p.tokensIn, p.tokensOut, p.usage);
    this.pending.clear();
    return [];
  }

  totals(): FormatTotals {
    return { toolCalls: this.toolCalls, errors: this.failedCalls };
  }

  /** The agent an event is of: its `agentId`, else the subagent of the task call its data names, else the main one. */
  private agentKey(v: Obj, d: Obj): string {
    const id = str(v, 'agentId');
    if (id !== null) return id;
    const task = str(d, 'parentToolCallId');
    return (task !== null ? this.agentOfTask.get(task) : undefined) ?? MAIN;
  }

  private agent(key: string): AgentPlace {
    let a = this.agents.get(key);
    if (!a) this.agents.set(key, (a = { root: this.place(MAIN), turn: -1, step: -1 }));
    return a;
  }

  /** Where an agent's event outside a step or turn of its own goes: its step, else its turn, else its root. */
  private place(key: string): number {
    const a = this.agent(key);
    return a.step >= 0 ? a.step : a.turn >= 0 ? a.turn : a.root;
  }

  /** The event's id, its recorded link, time and group. */
  private base(v: Obj, key: string): EventDraft {
    const id = v.id as string;
    const parent = v.parentId as string | null;
    const mentions: IdMention[] = [];
    let parentId = parent;
    // The stdout names parents only the session file has (its start, system prompt, usage records): a fact, not a gap.
    if (parent !== null && this.lenient && !this.ids.has(parent)) {
      parentId = null;
      mentions.push({ field: 'parentId', id: parent });
    }
    this.ids.add(id);
    if (key !== MAIN) mentions.push({ field: 'agentId', id: key });
    return { kind: v.type as string, label: '', id, parentId, time: parseTime(v.timestamp), group: this.group, mentions };
  }

  private runStart(v: Obj, d: Obj, base: EventDraft, rec: SourceRecord, emit: Emit): void {
    const resume = v.type === 'session.resume';
    if (!resume) this.group = str(d, 'sessionId') ?? this.group;
    const model = str(d, 'selectedModel');
    const version = str(d, 'copilotVersion');
    this.run = emit({
      ...base, group: this.group, category: 'session', model, displayParent: -1,
      label: resume ? label('resume', model, num(d, 'eventCount') !== null ? `after ${num(d, 'eventCount')} events` : null)
        : label('session', this.group?.slice(0, 8), model, version && `copilot ${version}`),
    }, rec);
    this.agents.clear();
    this.agents.set(MAIN, { root: this.run, turn: -1, step: -1 });
  }

  private shutdown(d: Obj, base: EventDraft, rec: SourceRecord, emit: Emit): void {
    const snapshot = obj(d, 'accountingSnapshot');
    const metrics = obj(d, 'modelMetrics') ?? obj(snapshot, 'modelMetrics');
    // The session's totals so far, per model (after a resume: both runs): checked against the records, never added.
    const sum = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
    let models = 0;
    for (const m of Object.values(metrics ?? {})) {
      const u = obj(m, 'usage');
      if (!u) continue;
      models++;
      sum.input += num(u, 'inputTokens') ?? 0;
      sum.output += num(u, 'outputTokens') ?? 0;
      sum.cacheRead += num(u, 'cacheReadTokens') ?? 0;
      sum.cacheWrite += num(u, 'cacheWriteTokens') ?? 0;
      sum.reasoning += num(u, 'reasoningTokens') ?? 0;
    }
    const usage: UsageDraft | undefined = models > 0 ? { source: 'totals', runningTotals: { ...sum } } : undefined;
    emit({ ...base, category: 'run', usage, displayParent: this.run,
      label: label('shutdown', str(d, 'shutdownType'), models > 0 ? formatTokens(sum.input, sum.output) : null) }, rec);
  }

  private userMessage(d: Obj, key: string, base: EventDraft, rec: SourceRecord, emit: Emit): void {
    const a = this.agent(key);
    a.turn = emit({ ...base, category: 'turn', displayParent: a.root, label: label('user:', short(str(d, 'content') ?? '', 80)) }, rec);
    a.step = -1;
  }

  private turnStart(d: Obj, key: string, base: EventDraft, rec: SourceRecord, emit: Emit): void {
    const a = this.agent(key);
    a.step = emit({ ...base, category: 'other', displayParent: a.turn >= 0 ? a.turn : a.root, label: label('step', str(d, 'turnId')) }, rec);
  }

  private usageRecord(d: Obj, key: string, base: EventDraft, rec: SourceRecord, emit: Emit): void {
    const u = obj(d, 'usage') ?? d;
    const model = str(u, 'model');
    const tokensIn = num(u, 'inputTokens');
    const tokensOut = num(u, 'outputTokens');
    // inputTokens is the request's prompt_tokens: the cached part (cacheReadTokens) and cache writes are in it.
    // `cost` counts premium requests (model multiplier included), not dollars: 0 (BYOK, or a model the plan
    // includes) is what GitHub bills, in any unit, so it is the call's recorded cost; other values are priced.
    const usage: UsageDraft = {
      cacheRead: num(u, 'cacheReadTokens'), cacheWrite: num(u, 'cacheWriteTokens'), reasoning: num(u, 'reasoningTokens'),
      costUsd: num(u, 'cost') === 0 ? 0 : null,
    };
    this.flushPending(key);
    const record = emit({ ...base, category: 'other', model, displayParent: this.place(key),
      label: label('usage', model, formatTokens(tokensIn, tokensOut), str(u, 'initiator')) }, rec);
    this.pending.set(key, { record, apiCallId: str(u, 'apiCallId'), tokensIn, tokensOut, usage });
  }

  /** A usage record whose request wrote no message keeps its usage itself. */
  private flushPending(key: string): void {
    const p = this.pending.get(key);
    if (!p) return;
    this.source.setUsage(p.record, p.tokensIn, p.tokensOut, p.usage);
    this.pending.delete(key);
  }

  private message(d: Obj, key: string, base: EventDraft, rec: SourceRecord, emit: Emit): void {
    const requests = Array.isArray(d.toolRequests) ? d.toolRequests.filter(isObj) : [];
    const apiCallId = str(d, 'apiCallId');
    const p = this.pending.get(key);
    const own = p && (p.apiCallId === null || apiCallId === null || p.apiCallId === apiCallId) ? p : null;
    if (own) this.pending.delete(key);
    // The session file's usage record of this request precedes it; the stdout has none (usage missing, not 0). A
    // second message of one request finds the record taken: its usage is on the first.
    const usage: UsageDraft | undefined = own ? own.usage : this.taken.has(`${key}\u0000${apiCallId}`) ? { elsewhere: true } : undefined;
    if (own && apiCallId !== null) this.taken.add(`${key}\u0000${apiCallId}`);
    const tokensIn = own ? own.tokensIn : null;
    const tokensOut = own ? own.tokensOut : null;
    const text = str(d, 'content') ?? '';
    const index = emit({
      ...base, category: 'inference', model: str(d, 'model'), tokensIn, tokensOut, usage, displayParent: this.place(key),
      label: label('copilot:', short(text, 70), requests.length ? `(${requests.length} tool call${requests.length > 1 ? 's' : ''})` : null, formatTokens(tokensIn, tokensOut)),
    }, rec);
    for (const r of requests) {
      const id = str(r, 'toolCallId');
      if (id !== null) this.requestedBy.set(id, index);
    }
  }

  private toolStart(d: Obj, key: string, base: EventDraft, rec: SourceRecord, emit: Emit): void {
    const callId = str(d, 'toolCallId');
    const name = str(d, 'toolName') ?? 'tool';
    const arg = argsSummary(d.arguments);
    const under = callId !== null ? this.requestedBy.get(callId) : undefined;
    const index = emit({ ...base, category: 'tool', tool: name, mentions: [...base.mentions!, ...(callId ? [{ field: 'toolCallId', id: callId }] : [])],
      displayParent: under ?? this.place(key), label: toolCallLabel({ tool: name, arg }) }, rec);
    this.toolCalls++;
    if (callId !== null) this.calls.set(callId, { index, time: base.time ?? null, tool: name, arg });
  }

  private toolComplete(d: Obj, key: string, base: EventDraft, rec: SourceRecord, emit: Emit): void {
    const callId = str(d, 'toolCallId');
    const call = callId !== null ? this.calls.get(callId) : undefined;
    const exit = num(obj(d, 'shellExecution'), 'exitCode');
    const failed = d.success === false || (exit !== null && exit !== 0);
    const status: EventStatus = failed ? 'error' : 'ok';
    if (call) {
      if (failed) this.source.setStatus(call.index, 'error');
      if (call.time !== null && base.time != null && base.time >= call.time) this.source.setDuration(call.index, base.time - call.time);
    }
    if (failed) this.failedCalls++;
    const result = obj(d, 'result');
    const error = obj(d, 'error');
    const text = str(error, 'message') ?? str(result, 'content');
    emit({ ...base, category: 'message', status, mentions: [...base.mentions!, ...(callId ? [{ field: 'toolCallId', id: callId }] : [])],
      displayParent: call ? call.index : this.place(key),
      label: call
        ? toolResultLabel({ tool: call.tool, arg: call.arg, exitCode: exit, failed, error: str(error, 'message'), durationMs: call.time !== null && base.time != null && base.time >= call.time ? base.time - call.time : null })
        : label('tool result', d.success === false ? 'failed' : null, exit !== null && exit !== 0 ? `exit ${exit}` : null, text && short(text, 60)) }, rec);
  }

  private subagentStarted(v: Obj, d: Obj, base: EventDraft, rec: SourceRecord, emit: Emit): void {
    const task = str(d, 'toolCallId');
    const agentId = str(v, 'agentId');
    const call = task !== null ? this.calls.get(task) : undefined;
    const index = emit({ ...base, category: 'task', model: str(d, 'model'), mentions: [...base.mentions!, ...(task ? [{ field: 'toolCallId', id: task }] : [])],
      displayParent: call ? call.index : this.place(MAIN),
      label: label('subagent', str(d, 'agentName'), str(d, 'agentDisplayName') && short(str(d, 'agentDisplayName')!, 60)) }, rec);
    if (task !== null) {
      this.subagents.set(task, index);
      if (agentId !== null) this.agentOfTask.set(task, agentId);
    }
    if (agentId !== null) this.agents.set(agentId, { root: index, turn: -1, step: -1 });
  }

  private other(v: Obj, d: Obj, key: string, base: EventDraft, rec: SourceRecord, emit: Emit): void {
    const kind = v.type as string;
    const callId = str(d, 'toolCallId');
    let at = this.place(key);
    let category: EventCategory = 'other';
    let status: EventStatus = 'ok';
    let detail: string | null = null;
    if (kind === 'subagent.completed' || kind === 'subagent.failed') {
      const sub = callId !== null ? this.subagents.get(callId) : undefined;
      if (sub !== undefined) at = sub;
      if (kind === 'subagent.failed') {
        status = 'error';
        if (sub !== undefined) this.source.setStatus(sub, 'error');
      }
      const ms = num(d, 'durationMs');
      detail = label(str(d, 'agentName'), num(d, 'totalTokens') !== null ? `${num(d, 'totalTokens')} tokens` : null, ms !== null ? formatDuration(ms) : null);
    } else if (callId !== null && this.calls.has(callId)) {
      // A tool's streamed output (`tool.shell_output`, `tool.execution_partial_result`) goes under its call.
      at = this.calls.get(callId)!.index;
    } else if (kind === 'system.message') {
      const a = this.agent(key);
      at = a.turn >= 0 ? a.turn : a.root;
      category = 'message';
      detail = short(str(d, 'content') ?? '', 60);
    } else if (kind === 'assistant.turn_end') {
      const a = this.agent(key);
      this.flushPending(key);
      at = a.step >= 0 ? a.step : at;
      a.step = -1;
    } else if (kind === 'assistant.message_delta') {
      // A chunk of the message written whole after it: shown, never its content twice.
      detail = short(str(d, 'deltaContent') ?? '', 40);
    } else if (kind === 'session.model_change') {
      detail = str(d, 'newModel');
    } else if (kind === 'session.error' || str(d, 'outcome') === 'error') {
      status = 'error';
    }
    if (kind === 'session.error') category = 'error';
    emit({ ...base, category, status, displayParent: at, label: label(kind, detail) }, rec);
  }

  private result(v: Obj, rec: SourceRecord, emit: Emit): void {
    const u = obj(v, 'usage');
    const exit = num(v, 'exitCode');
    const ms = num(u, 'sessionDurationMs');
    const status: EventStatus = exit !== null && exit !== 0 ? 'error' : 'ok';
    // The stdout's last line: premium requests and durations, no tokens (the session file's records have them).
    emit({ kind: 'result', category: 'run', status, group: this.group, durationMs: ms, displayParent: this.run,
      label: label('result', str(v, 'sessionId')?.slice(0, 8), exit !== null ? `exit ${exit}` : null, num(u, 'premiumRequests') !== null ? `${num(u, 'premiumRequests')} premium requests` : null, ms !== null ? formatDuration(ms) : null) }, rec);
  }
}
