/**
 * The documents of one trace file, made from the records its one read hands out (`loadTrace`'s `onRecord`): one
 * document per line, holding the line's strings, classified by the events read from it once the model is done (a
 * prompt, a reply, a tool's input or output; its tool; whether it failed). A one-document trace (Continue's session)
 * has a document per event line: the strings from that line to the next event's, placed by the loader's `locate`.
 */
import type { SourceRecord } from '../format';
import type { TraceModel } from '../traceModel';
import { documentTexts, fieldOf, isUsers, textOf } from './searchText';
import { SEARCH_FIELDS, type StoredDoc } from './searchStore';

export class FileIndexer {
  private readonly lines: number[] = [];
  private readonly texts: string[] = [];
  private readonly users: boolean[] = [];
  private readonly documents: SourceRecord[] = [];

  /** Give to the loader as its `onRecord`. */
  readonly onRecord = (r: SourceRecord): void => {
    if (r.locate) {
      this.documents.push(r);
      return;
    }
    this.lines.push(r.line);
    this.texts.push(textOf(r.value));
    this.users.push(isUsers(r.value));
  };

  /** The file's documents, once the read is done (`model` null: it failed, and its lines read so far are 'other'). */
  docs(model: TraceModel | null): StoredDoc[] {
    if (model?.document) this.documentSpans(model);
    const docs: StoredDoc[] = this.lines.map((line, k) => ({ line, field: 'other', tool: null, failed: false, text: this.texts[k] }));
    if (!model) return docs;
    const byLine = new Map<number, number>();
    this.lines.forEach((line, k) => byLine.set(line, k));
    const t = model.events;
    for (let i = 0; i < t.size; i++) {
      if (t.partOf(i) !== 0) continue;
      const k = byLine.get(t.lineOf(i));
      if (k === undefined) continue;
      const d = docs[k];
      const field = fieldOf(t.categoryOf(i), t.kindOf(i), this.users[k]);
      if (d.field === 'other' || SEARCH_FIELDS.indexOf(field) < SEARCH_FIELDS.indexOf(d.field)) d.field = field;
      const tool = t.toolOf(i);
      if (tool !== null && d.tool === null) d.tool = tool;
      if (t.statusOf(i) === 'error') d.failed = true;
    }
    return docs;
  }

  /** A one-document trace's documents: one per event line, its strings up to the next event's line. */
  private documentSpans(model: TraceModel): void {
    const t = model.events;
    const seen = new Set<number>();
    for (let i = 0; i < t.size; i++) if (t.partOf(i) === 0) seen.add(t.lineOf(i));
    const starts = [...seen].sort((a, b) => a - b);
    const parts = new Map<number, { text: string[]; user: boolean }>();
    for (const rec of this.documents) {
      for (const [line, p] of documentTexts(rec, starts)) {
        const part = parts.get(line) ?? parts.set(line, { text: [], user: false }).get(line)!;
        part.text.push(p.text);
        part.user ||= p.user;
      }
    }
    for (const line of starts) {
      const p = parts.get(line);
      this.lines.push(line);
      this.texts.push(p ? p.text.join('\n') : '');
      this.users.push(p?.user ?? false);
    }
  }
}
