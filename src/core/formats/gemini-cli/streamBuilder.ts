import type { UsageDraft } from '../../usageTypes';
import { EventStatus } from '../../model';
import { exitCodeInText, formatDuration, formatTokens, isObj, label, num, Obj, parseTime, short, str, toolCallLabel, toolResultLabel } from '../common';
import { Emit, EventBuilder, FormatTotals, SourceRecord } from '../../format';
import { isStreamEvent } from './geminiRecords';
import { jsonPreview } from '../../json/jsonPreview';

/** An assistant message whose `delta: true` chunks are still arriving. */
interface PendingText {
  rec: SourceRecord;
  text: string;
  time: number | null;
}

/**
 * Reads `gemini --output-format stream-json`: `init` opens a session, a user `message` a turn; assistant `delta`
 * chunks are joined into one message (at the line of its first chunk), `tool_use` sits under the turn's last
 * assistant message, `tool_result` under its `tool_use` (by `tool_id`), `result` closes the run with the CLI's stats.
 * Totals are the `result` lines' own stats when present.
 */
export class StreamBuilder implements EventBuilder {
  private session = -1;
  private sessionId: string | null = null;
  private turn = -1;
  private lastAssistant = -1;
  private pending: PendingText | null = null;
  private readonly tools = new Map<string, number>();
  /** Each call's name, main argument and time, by tool id: its result's row says them. */
  private readonly steps = new Map<string, { tool: string; arg: string | null; time: number | null }>();
  private readonly counted = { toolCalls: 0, errors: 0 };
  private stats: { inputTokens: number; outputTokens: number; toolCalls: number; cachedTokens: number } | null = null;

  add(rec: SourceRecord, emit: Emit): void {
    const v = rec.value;
    if (!(isObj(v) && v.type === 'message' && v.role === 'assistant' && v.delta === true)) this.flush(emit);
    if (!isStreamEvent(v)) {
      const kind = isObj(v) && typeof v.type === 'string' ? v.type : 'record';
      emit({ kind, category: 'other', parentIndex: this.parent(), group: this.sessionId, label: label(kind, short(jsonPreview(v, 60), 60)) }, rec);
      return;
    }
    const time = parseTime(v.timestamp);
    switch (v.type) {
      case 'init': return this.init(v, rec, time, emit);
      case 'message': return this.message(v, rec, time, emit);
      case 'tool_use': return this.toolUse(v, rec, time, emit);
      case 'tool_result': return this.toolResult(v, rec, time, emit);
      case 'error': return this.error(v, rec, time, emit);
      default: return this.result(v, rec, time, emit);
    }
  }

  finish(emit: Emit): [] {
    this.flush(emit);
    return [];
  }

  totals(): FormatTotals {
    if (this.stats) return { ...this.stats };
    return { toolCalls: this.counted.toolCalls };
  }

  private init(v: Obj, rec: SourceRecord, time: number | null, emit: Emit): void {
    this.sessionId = str(v, 'session_id');
    this.turn = this.lastAssistant = -1;
    this.session = emit({ kind: 'init', category: 'session', id: this.sessionId, time, group: this.sessionId, model: str(v, 'model'), label: label('session', this.sessionId?.slice(0, 8), str(v, 'model')) }, rec);
  }

  private message(v: Obj, rec: SourceRecord, time: number | null, emit: Emit): void {
    const text = typeof v.content === 'string' ? v.content : '';
    if (v.role === 'assistant' && v.delta === true) {
      if (this.pending) this.pending.text += text;
      else this.pending = { rec, text, time };
      return;
    }
    if (v.role === 'user') {
      this.turn = emit({ kind: 'user', category: 'turn', time, parentIndex: this.session >= 0 ? this.session : null, group: this.sessionId, label: label('user:', short(text, 80)) }, rec);
      this.lastAssistant = -1;
      return;
    }
    this.pending = { rec, text, time };
    this.flush(emit);
  }

  private flush(emit: Emit): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    // Its usage is in the run's result stats, not on the message.
    this.lastAssistant = emit({ kind: 'assistant', category: 'inference', usage: { elsewhere: true }, time: p.time, parentIndex: this.turnOrSession(), group: this.sessionId, label: label('gemini:', short(p.text, 80)) }, p.rec);
  }

  private toolUse(v: Obj, rec: SourceRecord, time: number | null, emit: Emit): void {
    const id = str(v, 'tool_id');
    const name = str(v, 'tool_name') ?? 'tool';
    const params = isObj(v.parameters) ? v.parameters : {};
    const arg = typeof params.command === 'string' ? params.command : Object.values(params).find((x) => typeof x === 'string');
    const parentIndex = this.lastAssistant >= 0 ? this.lastAssistant : this.turnOrSession();
    const idx = emit({ kind: 'tool_use', category: 'tool', id, time, tool: name, parentIndex, group: this.sessionId, label: toolCallLabel({ tool: name, arg: typeof arg === 'string' ? arg : null }) }, rec);
    this.counted.toolCalls++;
    if (id) {
      this.tools.set(id, idx);
      this.steps.set(id, { tool: name, arg: typeof arg === 'string' ? arg : null, time });
    }
  }

  private toolResult(v: Obj, rec: SourceRecord, time: number | null, emit: Emit): void {
    const id = str(v, 'tool_id');
    const status: EventStatus = v.status === 'error' ? 'error' : 'ok';
    const err = isObj(v.error) && typeof v.error.message === 'string' ? v.error.message : null;
    const idx = id !== null ? this.tools.get(id) : undefined;
    const parent = idx !== undefined ? { parentIndex: idx } : id !== null ? { parentId: id } : { parentIndex: this.turnOrSession() };
    const call = id !== null ? this.steps.get(id) : undefined;
    const durationMs = call && call.time !== null && time !== null && time >= call.time ? time - call.time : null;
    const output = typeof v.output === 'string' ? v.output : null;
    const step = { tool: call?.tool ?? 'tool', arg: call?.arg ?? null, exitCode: exitCodeInText(output), failed: status === 'error', durationMs };
    emit({ kind: 'tool_result', category: 'message', time, status, group: this.sessionId, ...parent, mentions: id ? [{ field: 'tool_id', id }] : [], label: `${toolResultLabel(step)}${err ? `: ${short(err, 60)}` : ''}` }, rec);
  }

  private error(v: Obj, rec: SourceRecord, time: number | null, emit: Emit): void {
    const status: EventStatus = v.severity === 'warning' ? 'warning' : 'error';
    if (status === 'error') this.counted.errors++;
    emit({ kind: 'error', category: 'error', status, time, parentIndex: this.turnOrSession(), group: this.sessionId, label: label('error:', short(str(v, 'message') ?? '', 80)) }, rec);
  }

  private result(v: Obj, rec: SourceRecord, time: number | null, emit: Emit): void {
    const s = isObj(v.stats) ? v.stats : null;
    const inTok = num(s, 'input_tokens');
    const outTok = num(s, 'output_tokens');
    if (s) {
      const t = (this.stats ??= { inputTokens: 0, outputTokens: 0, toolCalls: 0, cachedTokens: 0 });
      t.inputTokens += inTok ?? 0;
      t.outputTokens += outTok ?? 0;
      t.toolCalls += num(s, 'tool_calls') ?? 0;
      t.cachedTokens += num(s, 'cached') ?? 0;
    }
    const status: EventStatus = v.status === 'error' ? 'error' : 'ok';
    const duration = num(s, 'duration_ms');
    const err = isObj(v.error) && typeof v.error.message === 'string' ? short(v.error.message, 60) : null;
    // The run's totals line (stream-json messages carry no usage): input counts cached input, as Gemini reports it.
    const usage: UsageDraft | undefined = s ? { source: 'totals', input: inTok, output: outTok, cacheRead: num(s, 'cached') } : undefined;
    emit({ kind: 'result', category: 'run', status, time, durationMs: duration, parentIndex: this.session >= 0 ? this.session : null, group: this.sessionId, usage,
      label: label('result', str(v, 'status'), formatTokens(inTok, outTok), duration !== null ? formatDuration(duration) : null, err && `error: ${err}`) }, rec);
  }

  private parent(): number | null {
    return this.turnOrSession();
  }

  private turnOrSession(): number | null {
    if (this.turn >= 0) return this.turn;
    return this.session >= 0 ? this.session : null;
  }
}

/** An assistant message chunk of a stream (`delta: true`), whose text continues on the next lines. */
function isDeltaChunk(v: unknown): v is Obj & { content: string } {
  return isObj(v) && v.type === 'message' && v.role === 'assistant' && v.delta === true && typeof v.content === 'string';
}

/**
 * The text of a streamed assistant message (FormatModule.continuedText): its first chunk's and every chunk after it
 * up to the first line that is no chunk (as the builder joins them). A line cut off (the end of what was read) ends it.
 */
export function joinedChunks(first: unknown, following: readonly string[]): string | null {
  if (!isDeltaChunk(first)) return null;
  let text = first.content;
  for (const line of following) {
    if (line.trim() === '') continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      break;
    }
    if (!isDeltaChunk(v)) break;
    text += v.content;
  }
  return text;
}
