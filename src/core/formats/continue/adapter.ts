import { Emit, EventBuilder, FormatAdapter, FormatTotals, SniffResult, SniffSample, SourceRecord } from '../../format';
import { isObj, label, Obj, short, str } from '../common';
import { jsonPreview } from '../../json/jsonPreview';
import { ContinueDialect, isIndexEntry, isJsonOutput, isSessionDocument } from './continueRecords';
import { SessionBuilder } from './sessionBuilder';

/** The dialect of a file from its first values (`document`: one multi-line JSON document), or null when none fits. */
export function continueDialect(values: readonly unknown[], document: boolean): ContinueDialect | null {
  if (values.length === 0) return null;
  if (values.length === 1 && isSessionDocument(values[0])) return 'session';
  // sessions.json is one array: its elements are the values.
  if (document && values.every(isIndexEntry)) return 'session-index';
  if (values.length === 1 && isJsonOutput(values[0])) return 'json-output';
  return null;
}

function sniffContinue(sample: SniffSample): SniffResult {
  const dialect = continueDialect(sample.values, sample.document);
  const inSessions = /\/\.continue\/sessions\/[^/]+$/.test(sample.path) ? 0.03 : 0;
  switch (dialect) {
    case 'session': return { confidence: 0.95 + inSessions, reason: 'Continue CLI session: sessionId, workspaceDirectory and a history of messages with their tool call states', dialect };
    case 'session-index': return { confidence: 0.9 + inSessions, reason: 'Continue CLI session index (sessions.json): one entry per session, each session is its own <sessionId>.json beside it', dialect };
    case 'json-output': return { confidence: 0.75, reason: 'Continue CLI `cn -p --format json` output: {response, status}', dialect };
    default: return { confidence: 0, reason: 'not a Continue CLI session, index or output' };
  }
}

/** `sessions.json`: the sessions this folder holds, one row each (their turns are in `<sessionId>.json`). */
class IndexBuilder implements EventBuilder {
  private index = -1;
  private sessions = 0;

  add(rec: SourceRecord, emit: Emit): void {
    if (this.index < 0) this.index = emit({ kind: 'session_index', category: 'other', label: 'Continue session index (sessions.json): each session is its own <sessionId>.json' }, rec);
    const v = rec.value;
    if (!isObj(v)) {
      emit({ kind: 'record', category: 'other', parentIndex: this.index, label: label('record', short(jsonPreview(v, 60), 60)) }, rec);
      return;
    }
    const id = str(v, 'sessionId');
    const created = Number(str(v, 'dateCreated') ?? v.dateCreated);
    const count = typeof v.messageCount === 'number' ? `${v.messageCount} message${v.messageCount === 1 ? '' : 's'}` : null;
    const line = id ? rec.locate?.(`"sessionId": ${JSON.stringify(id)}`) ?? rec.locate?.(`"sessionId":${JSON.stringify(id)}`) : null;
    this.sessions++;
    emit({ kind: 'session_entry', category: 'session', id, group: id, parentIndex: this.index, time: Number.isFinite(created) && created > 0 ? created : null,
      label: label('session', id?.slice(0, 8), short(str(v, 'title') ?? '', 60), count, str(v, 'workspaceDirectory')) }, line ? { ...rec, line } : rec);
  }

  totals(): FormatTotals {
    return { sessions: this.sessions };
  }
}

/** `cn -p --format json`: the final answer only, no tokens. */
class OutputBuilder implements EventBuilder {
  add(rec: SourceRecord, emit: Emit): void {
    const v = rec.value as Obj;
    const status = str(v, 'status');
    const failed = status !== null && status !== 'success';
    const text = typeof v.response === 'string' ? v.response : typeof v.error === 'string' ? v.error : jsonPreview(v.error ?? null, 80);
    emit({ kind: 'response', category: 'message', status: failed ? 'error' : 'ok', label: label('continue:', short(text, 80), failed ? `(${status})` : null) }, rec);
    if (typeof v.note === 'string') emit({ kind: 'note', category: 'other', parentIndex: 0, label: label('note:', short(v.note, 80)) }, rec);
  }
}

/** Picks the reader for the file's dialect from its first record. */
class ContinueBuilder implements EventBuilder {
  private inner: EventBuilder | null = null;

  constructor(private readonly path: string) {}

  add(rec: SourceRecord, emit: Emit): void {
    if (!this.inner) {
      const dialect = continueDialect([rec.value], rec.locate !== undefined);
      this.inner = dialect === 'session' ? new SessionBuilder(this.path) : dialect === 'json-output' ? new OutputBuilder() : new IndexBuilder();
    }
    this.inner.add(rec, emit);
  }

  totals(): FormatTotals {
    return this.inner?.totals?.() ?? {};
  }

  usageNotes(): string[] {
    return this.inner?.usageNotes?.() ?? [];
  }
}

/** Continue CLI: sessions (`~/.continue/sessions/<sessionId>.json`), their index, and `cn -p --format json`. */
export const continueAdapter: FormatAdapter = {
  name: 'continue',
  title: 'Continue CLI',
  sniff: sniffContinue,
  createBuilder: (source) => new ContinueBuilder(source.path),
};
