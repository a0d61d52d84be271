import { EventDraft } from '../../model';
import { isObj, label, Obj, short, str } from '../common';
import { Emit, EventBuilder, FormatAdapter, FormatTotals, SniffResult, SniffSample, SourceRecord } from '../../format';
import { GEMINI_MESSAGE_TYPES, GeminiDialect, isJsonOutput, isRecordingDocument, isRecordingHeader, isRecordingMessage, isStreamEvent, recordingLineKind } from './geminiRecords';
import { RecordingBuilder } from './recordingBuilder';
import { StreamBuilder } from './streamBuilder';

/** The dialect of a file from its first values, or null when none fits. */
export function geminiDialect(values: unknown[], document: boolean): GeminiDialect | null {
  const first = values[0];
  if (document && values.length === 1) {
    if (isJsonOutput(first)) return 'json-output';
    if (isRecordingDocument(first)) return 'chat-recording-json';
  }
  if (isRecordingHeader(first) || (isObj(first) && isObj(first.$set))) return 'chat-recording';
  if (isObj(first) && first.type === 'init' && typeof first.session_id === 'string' && isStreamEvent(first)) return 'stream-json';
  return null;
}

function sniffGemini(sample: SniffSample): SniffResult {
  const { values } = sample;
  const dialect = geminiDialect(values, sample.document);
  const pathHint = /\/\.gemini\/tmp\/.*\/chats\//.test(sample.path) ? 0.03 : 0;
  if (dialect === 'json-output') {
    const stats = isObj((values[0] as Obj).stats);
    return { confidence: stats ? 0.9 : 0.6, reason: stats ? 'Gemini CLI --output-format json: response and stats.models' : 'Gemini CLI --output-format json error: {session_id, error: {type, message}}', dialect };
  }
  if (dialect === 'chat-recording-json') return { confidence: 0.9 + pathHint, reason: 'Gemini CLI chat recording document: sessionId and messages', dialect };
  if (dialect === 'chat-recording') {
    const kinds = values.map(recordingLineKind);
    const known = kinds.filter((k) => k !== 'unknown').length / values.length;
    const messages = values.filter((v) => isRecordingMessage(v) && GEMINI_MESSAGE_TYPES.has(String(v.type))).length;
    const header = isRecordingHeader(values[0]) && typeof (values[0] as Obj).startTime === 'string';
    // Without the header (a cut head), `$set` lines alone are too common a shape: Gemini messages must vouch for it.
    const base = header ? 0.9 : messages > 0 ? 0.7 : 0.3;
    return { confidence: Math.min(1, base + 0.07 * known + (messages > 0 ? 0.02 : 0) + pathHint), reason: 'Gemini CLI chat recording: session header, messages and $set lines', dialect };
  }
  if (dialect === 'stream-json') {
    const share = values.filter(isStreamEvent).length / values.length;
    return { confidence: 0.85 + 0.1 * share, reason: 'Gemini CLI --output-format stream-json: init, message, tool_use, tool_result, result', dialect };
  }
  return { confidence: 0, reason: 'not a Gemini CLI recording or stream' };
}

/** `--output-format json`: one session with the final response; totals are the document's own `stats`. */
class JsonOutputBuilder implements EventBuilder {
  private total: FormatTotals = {};

  add(rec: SourceRecord, emit: Emit): void {
    const v = rec.value as Obj;
    const id = str(v, 'session_id');
    const session = emit({ kind: 'session', category: 'session', id, group: id, label: label('session', id?.slice(0, 8), '(json output)') }, rec);
    if (typeof v.response === 'string') emit({ kind: 'response', category: 'message', parentIndex: session, group: id, label: label('gemini:', short(v.response, 80)) }, locate(rec, '"response"'));
    const models = isObj(v.stats) && isObj(v.stats.models) ? v.stats.models : {};
    let inputTokens = 0;
    let outputTokens = 0;
    for (const [model, m] of Object.entries(models)) {
      const t = isObj(m) && isObj(m.tokens) ? m.tokens : {};
      const tin = typeof t.prompt === 'number' ? t.prompt : typeof t.input === 'number' ? t.input : 0;
      const tout = typeof t.candidates === 'number' ? t.candidates : 0;
      inputTokens += tin;
      outputTokens += tout;
      emit({ kind: 'model_stats', category: 'inference', model, tokensIn: tin, tokensOut: tout, parentIndex: session, group: id, label: label('model', model) }, locate(rec, JSON.stringify(model)));
    }
    const tools = isObj(v.stats) && isObj(v.stats.tools) ? v.stats.tools : {};
    this.total = { inputTokens, outputTokens, toolCalls: typeof tools.totalCalls === 'number' ? tools.totalCalls : 0 };
    if (Array.isArray(v.warnings)) {
      for (const w of v.warnings) if (typeof w === 'string') emit({ kind: 'warning', category: 'message', status: 'warning', parentIndex: session, group: id, label: label('warning:', short(w, 80)) }, locate(rec, '"warnings"'));
    }
    if (isObj(v.error)) {
      const draft: EventDraft = { kind: 'error', category: 'error', status: 'error', parentIndex: session, group: id, label: label('error:', short(str(v.error, 'message') ?? '', 80)) };
      emit(draft, locate(rec, '"error"'));
    }
  }

  totals(): FormatTotals {
    return this.total;
  }
}

function locate(rec: SourceRecord, needle: string): SourceRecord {
  const line = rec.locate?.(needle);
  return line ? { ...rec, line } : rec;
}

/** Picks the reader for the file's dialect from its first record; a recording reader when unsure. */
class GeminiBuilder implements EventBuilder {
  private inner: EventBuilder | null = null;

  add(rec: SourceRecord, emit: Emit): void {
    if (!this.inner) {
      const dialect = geminiDialect([rec.value], rec.locate !== undefined);
      if (dialect === 'stream-json' || (isStreamEvent(rec.value) && !isRecordingMessage(rec.value))) this.inner = new StreamBuilder();
      else if (dialect === 'json-output') this.inner = new JsonOutputBuilder();
      else if (dialect === 'chat-recording-json') {
        const b = new RecordingBuilder();
        b.addDocument(rec, rec.value as Obj);
        this.inner = b;
        return;
      } else this.inner = new RecordingBuilder();
    }
    this.inner.add(rec, emit);
  }

  finish(emit: Emit) {
    return this.inner?.finish?.(emit) ?? [];
  }

  totals(): FormatTotals {
    return this.inner?.totals?.() ?? {};
  }
}

/** Gemini CLI: chat recordings (`~/.gemini/tmp/<project>/chats/`), `--output-format stream-json` and `json`. */
export const geminiCliAdapter: FormatAdapter = {
  name: 'gemini-cli',
  title: 'Gemini CLI',
  sniff: sniffGemini,
  createBuilder: () => new GeminiBuilder(),
};
