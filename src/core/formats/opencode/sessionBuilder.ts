import type { UsageDraft } from '../../usageTypes';
import { EventDraft, EventStatus, Finding, IdMention } from '../../model';
import { argsSummary, formatTokens, isObj, label, num, Obj, short, str, toolCallLabel, toolResultLabel } from '../common';
import { Emit, EventBuilder, FormatTotals, SourceRecord } from '../../format';
import { jsonPreview } from '../../json/jsonPreview';
import { childSessionOf, errorText, isExportDocument, isRunEvent, tokensUsage } from './opencodeRecords';

/** One part of a message, with the record (line) it is shown at. */
interface PartEntry {
  value: Obj;
  rec: SourceRecord;
}

/** One message: its `info` (the export has it; the stream only names its id) and its parts in order. */
interface MessageEntry {
  id: string;
  sessionId: string | null;
  info: Obj | null;
  rec: SourceRecord;
  parts: PartEntry[];
  /** Part id → index in `parts`: a part printed again (updated) keeps its place and takes its last state. */
  byId: Map<string, number>;
}

/** What a stream's line is, in file order: a message (by id, at its first part), a session error, another line. */
type StreamEntry = { kind: 'message'; id: string } | { kind: 'error' | 'other'; rec: SourceRecord; value: unknown };

/** The line of `"id": "<id>"` in a document (pretty-printed or compact), else the record's own line. */
function at(rec: SourceRecord, id: string | null): SourceRecord {
  if (!rec.locate || id === null) return rec;
  const quoted = JSON.stringify(id);
  const line = rec.locate(`"id": ${quoted}`) ?? rec.locate(`"id":${quoted}`);
  return line ? { ...rec, line } : rec;
}

function textOf(parts: readonly PartEntry[], type: string): string {
  return parts.map((p) => (p.value.type === type && typeof p.value.text === 'string' ? p.value.text : '')).join('').trim();
}

/**
 * Reads opencode's files by the session model:
 *
 * - `opencode export <id>` (one document `{info, messages: [{info, parts}]}`): the **session** (`info`, its
 *   `tokens` and `cost` its own totals, a subagent's session naming its parent in `parentID`) → each **user message**
 *   a turn → each **assistant message** a model step under the turn its `parentID` names (every step of a turn
 *   names the same user message: a turn, never a chain) → its parts: text, reasoning, each **tool part** a call with
 *   its **result** (the part's `state`) under it, patches, files…; a message of several steps (`step-start` …
 *   `step-finish`) shows each step under it.
 * - `opencode run --format json` (one event a line, `{type, timestamp, sessionID, part}`): the parts of the main
 *   session grouped by `part.messageID` under a session row; a part printed again shows once, with its last state
 *   (so the stream is read to its end before its rows are made). No user message or session totals are printed.
 *
 * Usage is counted once, from each model call's `step-finish` (`tokens`, `cost`); a message's own `tokens` are the
 * sum of its steps (counted only when it has no `step-finish`, and checked against them when it has several). A
 * tool part whose `state.status` is `error` is a failed call, and so is a shell command that exits non-zero (opencode
 * records it `completed`, its exit code in `metadata.exit`).
 */
export class OpencodeBuilder implements EventBuilder {
  private dialect: 'export' | 'run-json' | null = null;
  private readonly messages = new Map<string, MessageEntry>();
  private readonly entries: StreamEntry[] = [];
  private readonly sessions = new Map<string, number>();
  private toolCalls = 0;
  private errors = 0;
  private recorded: FormatTotals = {};

  add(rec: SourceRecord, emit: Emit): void {
    this.dialect ??= isExportDocument(rec.value) ? 'export' : 'run-json';
    if (this.dialect === 'export' && isExportDocument(rec.value)) return this.exportDocument(rec, rec.value, emit);
    const v = rec.value;
    if (!isRunEvent(v)) {
      this.entries.push({ kind: 'other', rec, value: v });
      return;
    }
    if (v.type === 'error') {
      this.entries.push({ kind: 'error', rec, value: v });
      return;
    }
    const part = v.part as Obj;
    const messageId = part.messageID as string;
    let m = this.messages.get(messageId);
    if (!m) {
      m = { id: messageId, sessionId: str(part, 'sessionID') ?? str(v, 'sessionID'), info: null, rec, parts: [], byId: new Map() };
      this.messages.set(messageId, m);
      this.entries.push({ kind: 'message', id: messageId });
    }
    this.addPart(m, part, rec);
  }

  finish(emit: Emit): Finding[] {
    if (this.dialect !== 'run-json') return [];
    for (const e of this.entries) {
      if (e.kind === 'message') {
        const m = this.messages.get(e.id)!;
        this.message(m, { parentIndex: this.session(m.sessionId, m.rec, emit) }, emit);
      } else if (e.kind === 'error') {
        const v = e.value as Obj;
        this.errors++;
        emit({ kind: 'error', category: 'error', status: 'error', time: num(v, 'timestamp'), group: str(v, 'sessionID'), parentIndex: this.session(str(v, 'sessionID'), e.rec, emit),
          label: label('error:', short(errorText(v.error) ?? jsonPreview(v.error, 60), 80)) }, e.rec);
      } else {
        const v = e.value;
        const kind = isObj(v) && typeof v.type === 'string' ? v.type : 'record';
        emit({ kind, category: 'other', parentIndex: this.sessions.size > 0 ? [...this.sessions.values()][this.sessions.size - 1] : null,
          label: label(kind, short(jsonPreview(v, 60), 60)) }, e.rec);
      }
    }
    return [];
  }

  totals(): FormatTotals {
    return { ...this.recorded, toolCalls: this.toolCalls, errors: this.errors };
  }

  private addPart(m: MessageEntry, part: Obj, rec: SourceRecord): void {
    const id = str(part, 'id');
    const before = id !== null ? m.byId.get(id) : undefined;
    if (before !== undefined) {
      m.parts[before] = { value: part, rec };
      return;
    }
    if (id !== null) m.byId.set(id, m.parts.length);
    m.parts.push({ value: part, rec });
  }

  /** The stream's session row for `sessionId`, made at the first line that names it. */
  private session(sessionId: string | null, rec: SourceRecord, emit: Emit): number {
    const key = sessionId ?? '';
    let s = this.sessions.get(key);
    if (s === undefined) {
      s = emit({ kind: 'session', category: 'session', id: sessionId, group: sessionId, label: label('session', sessionId, '(opencode run --format json)') }, rec);
      this.sessions.set(key, s);
    }
    return s;
  }

  private exportDocument(rec: SourceRecord, doc: Obj, emit: Emit): void {
    const info = doc.info as Obj;
    const sessionId = str(info, 'id');
    const parentSession = str(info, 'parentID');
    const usage = tokensUsage(info.tokens, info.cost, 'totals');
    if (usage) this.recorded = { inputTokens: usage.input ?? undefined, outputTokens: usage.output ?? undefined, ...(usage.costUsd !== null ? { costUsd: usage.costUsd } : {}) };
    const time = isObj(info.time) ? info.time : null;
    const created = num(time, 'created');
    const updated = num(time, 'updated');
    const model = isObj(info.model) ? str(info.model, 'id') : null;
    const mentions: IdMention[] = parentSession ? [{ field: 'info.parentID', id: parentSession }] : [];
    const session = emit({
      kind: 'session', category: 'session', id: sessionId, group: sessionId, time: created, durationMs: created !== null && updated !== null ? updated - created : null,
      model, mentions, ...(usage ? { usage, tokensIn: usage.input, tokensOut: usage.output } : {}),
      label: label(parentSession ? 'subagent session' : 'session', str(info, 'title') && `"${short(str(info, 'title')!, 60)}"`, str(info, 'version') && `opencode ${str(info, 'version')}`,
        usage ? formatTokens(usage.input, usage.output) : null),
    }, at(rec, sessionId));
    for (const raw of doc.messages as unknown[]) {
      if (!isObj(raw) || !isObj(raw.info)) {
        emit({ kind: 'record', category: 'other', group: sessionId, parentIndex: session, label: label('message', short(jsonPreview(raw, 60), 60)) }, rec);
        continue;
      }
      const mi = raw.info;
      const id = str(mi, 'id') ?? '';
      const m: MessageEntry = { id, sessionId: str(mi, 'sessionID') ?? sessionId, info: mi, rec: at(rec, id || null), parts: [], byId: new Map() };
      for (const p of Array.isArray(raw.parts) ? raw.parts : []) {
        if (isObj(p)) this.addPart(m, p, at(rec, str(p, 'id')));
      }
      const parentId = str(mi, 'parentID');
      // An assistant message names the user message it answers: its turn (a recorded link, resolved in the file).
      this.message(m, mi.role === 'assistant' && parentId ? { parentId } : { parentIndex: session }, emit);
    }
  }

  /** A message's rows: a user message is a turn, an assistant message a model step; its parts under it. */
  private message(m: MessageEntry, parent: { parentIndex?: number; parentId?: string }, emit: Emit): void {
    const info = m.info;
    const group = m.sessionId;
    const time = isObj(info?.time) ? info.time : null;
    const created = num(time, 'created');
    const completed = num(time, 'completed');
    const base = { id: m.id || null, group, time: created ?? this.firstTime(m), ...parent };
    if (info?.role === 'user') {
      const textParts = m.parts.filter((p) => p.value.type === 'text' && p.value.synthetic !== true);
      const prompt = textParts[0];
      const turn = emit({ ...base, kind: 'user', category: 'turn', label: label('user:', short(prompt && typeof prompt.value.text === 'string' ? prompt.value.text : '', 80)) }, m.rec);
      // Each part a row under the turn, the prompt's too: the transcript and the Content tab read a row's own part.
      for (const p of m.parts) this.part(p, turn, group, emit);
      return;
    }
    const finishes = m.parts.filter((p) => p.value.type === 'step-finish');
    const err = info ? errorText(info.error) : null;
    const status: EventStatus = err ? 'error' : 'ok';
    if (err) this.errors++;
    // One step: the message is the model call (its step-finish's usage); several: each step is one, the message sums them.
    const own: UsageDraft | null = finishes.length === 1 ? tokensUsage(finishes[0].value.tokens, finishes[0].value.cost)
      : finishes.length === 0 ? (info ? tokensUsage(info.tokens, info.cost) : null)
        : info ? tokensUsage(info.tokens, info.cost, 'aggregate') : { elsewhere: true };
    const calls = m.parts.filter((p) => p.value.type === 'tool').length;
    const text = textOf(m.parts, 'text');
    const model = str(info, 'modelID');
    const step = emit({
      ...base, kind: 'assistant', category: 'inference', status, model, durationMs: created !== null && completed !== null ? completed - created : null,
      ...(own ? { usage: own, tokensIn: own.input ?? null, tokensOut: own.output ?? null } : {}),
      label: label('opencode:', err ? `error: ${short(err, 60)}` : short(text, 70), calls ? `(${calls} tool call${calls > 1 ? 's' : ''})` : null,
        finishes.length > 1 ? `(${finishes.length} steps)` : null, own && !own.elsewhere ? formatTokens(own.input, own.output) : null),
    }, m.rec);
    let under = step;
    let k = 0;
    for (const p of m.parts) {
      const type = p.value.type;
      if (finishes.length > 1 && type === 'step-start') {
        // The step's model call: its usage is the step-finish that closes it.
        const end = m.parts.slice(m.parts.indexOf(p) + 1).find((x) => x.value.type === 'step-finish' || x.value.type === 'step-start');
        const usage = end && end.value.type === 'step-finish' ? tokensUsage(end.value.tokens, end.value.cost) : null;
        under = emit({ kind: 'step', category: 'inference', group, parentIndex: step, model, ...(usage ? { usage, tokensIn: usage.input, tokensOut: usage.output } : {}),
          label: label(`step ${++k}`, end && str(end.value, 'reason'), usage ? formatTokens(usage.input, usage.output) : null) }, p.rec);
        continue;
      }
      if (type === 'step-start') continue;
      if (type === 'step-finish') {
        under = step;
        continue;
      }
      this.part(p, under, group, emit, model);
    }
  }

  /** One part's row (a tool part: its call and its result under it). */
  private part(p: PartEntry, parentIndex: number, group: string | null, emit: Emit, model: string | null = null): void {
    const v = p.value;
    const type = str(v, 'type') ?? 'part';
    const id = str(v, 'id');
    const base = { id, group, parentIndex };
    const time = isObj(v.time) ? num(v.time, 'start') ?? num(v.time, 'created') : null;
    switch (type) {
      case 'tool': return this.tool(p, parentIndex, group, emit);
      case 'text':
        emit({ ...base, kind: 'text', category: 'message', time, label: label(v.synthetic === true ? 'text (synthetic):' : 'text:', short(str(v, 'text') ?? '', 80)) }, p.rec);
        return;
      case 'reasoning':
        emit({ ...base, kind: 'reasoning', category: 'message', time, label: label('reasoning:', short(str(v, 'text') ?? '', 80)) }, p.rec);
        return;
      case 'file':
        emit({ ...base, kind: 'file', category: 'message', label: label('file', str(v, 'filename') ?? short(str(v, 'url') ?? '', 60), str(v, 'mime')) }, p.rec);
        return;
      case 'agent':
        emit({ ...base, kind: 'agent', category: 'message', label: label('agent', str(v, 'name')) }, p.rec);
        return;
      case 'subtask':
        emit({ ...base, kind: 'subtask', category: 'task', label: label('subtask', str(v, 'agent'), short(str(v, 'description') ?? '', 60)) }, p.rec);
        return;
      case 'patch': {
        const files = Array.isArray(v.files) ? v.files.length : 0;
        emit({ ...base, kind: 'patch', category: 'other', label: label('patch', `${files} file${files === 1 ? '' : 's'}`, str(v, 'hash')?.slice(0, 10)) }, p.rec);
        return;
      }
      case 'snapshot':
        emit({ ...base, kind: 'snapshot', category: 'other', label: label('snapshot', str(v, 'snapshot')?.slice(0, 10)) }, p.rec);
        return;
      case 'retry': {
        const attempt = num(v, 'attempt');
        emit({ ...base, kind: 'retry', category: 'inference', status: 'warning', model, usage: { retry: { attempt } }, time,
          label: label('retry', attempt !== null ? `attempt ${attempt}` : null, short(errorText(v.error) ?? '', 60)) }, p.rec);
        return;
      }
      case 'compaction':
        emit({ ...base, kind: 'compaction', category: 'other', usage: { compaction: { preTokens: null, trigger: v.auto === true ? 'auto' : v.auto === false ? 'manual' : null } },
          label: label('compaction', v.auto === true ? 'auto' : 'manual', v.overflow === true ? '(context overflow)' : null) }, p.rec);
        return;
      default:
        // A part type this reader does not know: a plain row of its own.
        emit({ ...base, kind: type, category: 'other', label: label('part', type, short(jsonPreview(v, 60), 60)) }, p.rec);
    }
  }

  private tool(p: PartEntry, parentIndex: number, group: string | null, emit: Emit): void {
    const v = p.value;
    const name = str(v, 'tool') ?? 'tool';
    const callId = str(v, 'callID');
    const state = isObj(v.state) ? v.state : null;
    const status = str(state, 'status');
    const t = isObj(state?.time) ? state.time : null;
    const start = num(t, 'start');
    const end = num(t, 'end');
    const child = childSessionOf(v);
    const arg = argsSummary(state?.input);
    const done = status === 'completed' || status === 'error';
    const mentions: IdMention[] = child ? [{ field: 'state.metadata.sessionId', id: child }] : [];
    const meta = isObj(state?.metadata) ? state.metadata : null;
    const exit = num(meta, 'exit');
    // A shell command that exits non-zero is a failed call, as the other agents' are, though opencode records it
    // `completed`: its exit code is in `metadata.exit`.
    const failed = status === 'error' || (status === 'completed' && exit !== null && exit !== 0);
    const call = emit({
      kind: 'tool', category: 'tool', id: callId, tool: name, group, parentIndex, time: start, durationMs: start !== null && end !== null ? end - start : null, mentions,
      status: failed ? 'error' : done ? 'ok' : 'warning',
      label: label(toolCallLabel({ tool: name, arg }), child ? `→ session ${child}` : null, done ? null : `(not finished: ${status ?? 'no state'})`),
    }, p.rec);
    this.toolCalls++;
    if (!done) return;
    if (failed) this.errors++;
    const output = status === 'error' ? str(state, 'error') : str(state, 'output');
    const draft: EventDraft = {
      kind: 'tool_result', category: 'message', id: str(v, 'id'), group, parentIndex: call, time: end, status: failed ? 'error' : 'ok',
      mentions: callId ? [{ field: 'callID', id: callId }] : [],
      label: toolResultLabel({ tool: name, arg, exitCode: exit, failed, error: output, durationMs: start !== null && end !== null ? end - start : null }),
    };
    emit(draft, p.rec);
  }

  private firstTime(m: MessageEntry): number | null {
    for (const p of m.parts) {
      const t = isObj(p.value.time) ? num(p.value.time, 'start') : null;
      if (t !== null) return t;
      const st = isObj(p.value.state) && isObj(p.value.state.time) ? num(p.value.state.time, 'start') : null;
      if (st !== null) return st;
    }
    return isObj(m.rec.value) ? num(m.rec.value, 'timestamp') : null;
  }
}
