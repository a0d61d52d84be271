import { EventDraft } from '../../model';
import { isObj, label, Obj, parseTime, short, toolResultLabel, type ToolStep } from '../common';
import { Emit, EventBuilder, FormatTotals, SourceRecord } from '../../format';
import { describeMessage, describeToolCall, toolStepOf } from './geminiDescribe';
import { functionResponses, isRecordingMessage, recordingLineKind, RecordingLineKind } from './geminiRecords';
import { jsonPreview } from '../../json/jsonPreview';

/** One line (or document element) of a recording, kept until the end so rewritten messages show once. */
interface Entry {
  kind: RecordingLineKind;
  rec: SourceRecord;
  value: Obj;
}

/**
 * Reads a Gemini CLI chat recording. The CLI appends a message again under the same `id` whenever it changes
 * (tokens arrive, tool calls and their results are added): its own loader keeps the last version per id, so do we.
 * A message is shown once, at the line of its final version; `$set.messages` lines restate the history (on resume
 * and history rewrites): entries with known ids are restatements, new ones become events at that line.
 */
export class RecordingBuilder implements EventBuilder {
  private readonly entries: (Entry | null)[] = [];
  private readonly byId = new Map<string, number>();
  /** The conversation as the CLI's loader holds it (insertion order), to know what a `$rewindTo` took back. */
  private readonly live = new Map<string, true>();
  private readonly rewound = new Set<string>();
  private readonly totalsSeen: Totals = { inputTokens: 0, outputTokens: 0, cachedTokens: 0, thoughtsTokens: 0, toolCalls: 0, messageUpdates: 0, restatedMessages: 0, sawTokens: false };

  add(rec: SourceRecord): void {
    const v = rec.value;
    const kind = recordingLineKind(v);
    if (!isObj(v)) return this.push({ kind, rec, value: { value: v } });
    if (kind === 'message') return this.pushMessage(rec, v);
    this.push({ kind, rec, value: v });
    if (kind === 'rewind') this.rewind(String(v.$rewindTo));
    if (kind === 'set' && isObj(v.$set) && Array.isArray(v.$set.messages)) {
      this.live.clear();
      for (const m of v.$set.messages) this.restate(rec, m);
    }
  }

  /** Adds the messages of an older whole-document `.json` recording, each at its own line. */
  addDocument(rec: SourceRecord, doc: Obj): void {
    const { messages, ...header } = doc;
    this.push({ kind: 'header', rec, value: header });
    for (const m of messages as unknown[]) {
      if (!isObj(m) || typeof m.id !== 'string') continue;
      const line = rec.locate?.(`"id": ${JSON.stringify(m.id)}`) ?? rec.locate?.(`"id":${JSON.stringify(m.id)}`) ?? rec.line;
      this.pushMessage({ ...rec, line }, m);
    }
  }

  private push(e: Entry): void {
    this.entries.push(e);
  }

  /** `$rewindTo: id` drops that message and every later one from the conversation (they stay in the tree, marked). */
  private rewind(target: string): void {
    const ids = [...this.live.keys()];
    const at = ids.indexOf(target);
    for (const id of at < 0 ? ids : ids.slice(at)) {
      this.live.delete(id);
      this.rewound.add(id);
    }
  }

  private pushMessage(rec: SourceRecord, m: Obj): void {
    const id = m.id as string;
    this.live.set(id, true);
    this.rewound.delete(id);
    const before = this.byId.get(id);
    if (before !== undefined) {
      this.entries[before] = null;
      this.totalsSeen.messageUpdates++;
    }
    this.byId.set(id, this.entries.length);
    this.entries.push({ kind: 'message', rec, value: m });
  }

  private restate(rec: SourceRecord, m: unknown): void {
    if (!isRecordingMessage(m)) return;
    this.live.set(m.id as string, true);
    this.rewound.delete(m.id as string);
    if (this.byId.has(m.id as string)) this.totalsSeen.restatedMessages++;
    else this.pushMessage(rec, m);
  }

  finish(emit: Emit): [] {
    const s = new RecordingEmitter(emit, this.totalsSeen, this.rewound);
    for (const e of this.entries) if (e) s.entry(e);
    return [];
  }

  totals(): FormatTotals {
    const t = this.totalsSeen;
    const out: FormatTotals = { toolCalls: t.toolCalls, messageUpdates: t.messageUpdates };
    if (t.restatedMessages) out.restatedMessages = t.restatedMessages;
    if (t.sawTokens) Object.assign(out, { inputTokens: t.inputTokens, outputTokens: t.outputTokens, cachedTokens: t.cachedTokens, thoughtsTokens: t.thoughtsTokens });
    return out;
  }
}

/** Counts taken while emitting: tokens of the final message versions, each tool call once. */
interface Totals {
  inputTokens: number; outputTokens: number; cachedTokens: number; thoughtsTokens: number; toolCalls: number;
  messageUpdates: number; restatedMessages: number; sawTokens: boolean;
}

/** Emits the kept entries in order: session → user turns → model messages → tool calls → tool results. */
class RecordingEmitter {
  private session = -1;
  private sessionId: string | null = null;
  private turn = -1;
  private readonly tools = new Map<string, number>();
  /** What each recorded call did, by call id: its result's row says it as the call's does. */
  private readonly steps = new Map<string, ToolStep>();

  constructor(
    private readonly emitDraft: Emit,
    private readonly totals: Totals,
    private readonly rewound: ReadonlySet<string>,
  ) {}

  /** Emits, marking messages a later `$rewindTo` took back out of the conversation. */
  private emit: Emit = (draft, rec) => {
    const rewound = draft.id != null && this.rewound.has(draft.id) && draft.category !== 'tool';
    return this.emitDraft(rewound ? { ...draft, label: `${draft.label} (rewound)` } : draft, rec);
  };

  entry(e: Entry): void {
    if (e.kind === 'message') return this.message(e);
    const v = e.value;
    // A `$set` after a message is the write that stamped it (`lastUpdated`): it stays inside that turn.
    const parentIndex = this.turnOrSession();
    if (e.kind === 'header') return this.header(e);
    const keys = e.kind === 'set' && isObj(v.$set) ? Object.keys(v.$set).join(', ') : '';
    const draft: EventDraft =
      e.kind === 'rewind'
        ? { kind: '$rewindTo', category: 'other', label: `rewind to message ${short(String(v.$rewindTo), 40)}`, mentions: [{ field: '$rewindTo', id: String(v.$rewindTo) }] }
        : e.kind === 'set'
          ? { kind: '$set', category: 'other', label: label('$set', short(keys, 60)) }
          : { kind: typeof v.type === 'string' ? v.type : 'record', category: 'other', label: label('record', short(jsonPreview(v, 60), 60)) };
    this.emit({ ...draft, parentIndex, group: this.sessionId }, e.rec);
  }

  private header(e: Entry): void {
    const v = e.value;
    const id = typeof v.sessionId === 'string' ? v.sessionId : null;
    const kind = typeof v.kind === 'string' ? v.kind : null;
    const time = parseTime(v.startTime);
    if (this.session < 0) {
      this.sessionId = id;
      this.session = this.emit({ kind: 'session', category: 'session', id, time, group: id, label: label('session', id && id.slice(0, 8), kind) }, e.rec);
      return;
    }
    this.emit({ kind: 'session_resumed', category: 'session', parentIndex: this.session, time, group: this.sessionId, label: label('resumed session', id && id.slice(0, 8)) }, e.rec);
  }

  private message(e: Entry): void {
    const m = e.value;
    const results = functionResponses(m.content);
    const base = { group: this.sessionId, time: parseTime(m.timestamp), id: m.id as string };
    if (m.type === 'user' && results.length > 0) {
      // Parallel calls are answered by one message: the message is the result of its first call, and each other
      // call gets a row of its own at the same line, under it (read with the message, so no transcript block).
      results.forEach((r, k) => {
        const callId = typeof r.id === 'string' ? r.id : null;
        const toolIdx = callId !== null ? this.tools.get(callId) : undefined;
        const parent = toolIdx !== undefined ? { parentIndex: toolIdx } : callId !== null ? { parentId: callId } : { parentIndex: this.turnOrSession() };
        const mentions = callId ? [{ field: 'functionResponse.id', id: callId }] : [];
        const step = callId !== null ? this.steps.get(callId) : undefined;
        const said = step ? { label: toolResultLabel(step) } : {};
        if (k === 0) this.emit({ ...describeMessage(m, 'tool_result'), ...base, ...parent, mentions, ...said }, e.rec);
        else this.emit({ kind: 'tool_result', category: 'other', label: label('tool result', typeof r.name === 'string' ? r.name : 'tool'), group: this.sessionId, time: base.time, ...parent, mentions, ...said }, e.rec);
      });
      return;
    }
    if (m.type === 'user') {
      this.turn = this.emit({ ...describeMessage(m, 'turn'), ...base, parentIndex: this.session >= 0 ? this.session : null }, e.rec);
      return;
    }
    const idx = this.emit({ ...describeMessage(m, 'other'), ...base, parentIndex: this.turnOrSession() }, e.rec);
    if (m.type === 'gemini') this.countTokens(m);
    if (Array.isArray(m.toolCalls)) for (const tc of m.toolCalls) if (isObj(tc)) this.toolCall(tc, idx, e.rec, base.time);
  }

  private toolCall(tc: Obj, parentIndex: number, rec: SourceRecord, askedAt: number | null): void {
    const draft = describeToolCall(tc, askedAt);
    if (typeof tc.id === 'string') this.steps.set(tc.id, toolStepOf(tc, askedAt));
    const idx = this.emit({ ...draft, parentIndex, group: this.sessionId }, rec);
    this.totals.toolCalls++;
    if (typeof tc.id === 'string') this.tools.set(tc.id, idx);
  }

  private countTokens(m: Obj): void {
    const t = isObj(m.tokens) ? m.tokens : null;
    if (!t) return;
    const n = (k: string) => (typeof t[k] === 'number' && Number.isFinite(t[k]) ? (t[k] as number) : 0);
    this.totals.sawTokens = true;
    this.totals.inputTokens += n('input');
    this.totals.outputTokens += n('output');
    this.totals.cachedTokens += n('cached');
    this.totals.thoughtsTokens += n('thoughts');
  }

  private turnOrSession(): number | null {
    if (this.turn >= 0) return this.turn;
    return this.session >= 0 ? this.session : null;
  }
}
