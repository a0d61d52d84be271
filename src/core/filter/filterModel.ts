/**
 * A compiled filter applied to a loaded trace: each event and malformed line becomes a {@link FilterSubject},
 * and `text:` needles are looked up in the lines with one streaming pass over the file (only when the
 * expression has a `text:` term), so the file is never held in memory.
 */
import type { TraceModel } from '../traceModel';
import type { Severity } from '../model';
import { readSpan, scanLines } from '../lineIndexer';
import { tracePathToOpen } from '../tracePath';
import type { CompiledFilter } from './filterCompile';
import type { FilterSubject } from './filterFields';
import { lineNeedles } from './textNeedles';

/** The kind a malformed line has in the tree and in filters. */
export const MALFORMED_KIND = 'unparseable line';

/** Which events and malformed lines (by index into `model.malformed`) pass. */
export interface ModelFilter {
  events(i: number): boolean;
  malformed(k: number): boolean;
}

/** Options for {@link applyFilter}. */
export interface ApplyFilterOptions {
  /** Worst finding on a line, so `status:error` also matches events with an error finding. */
  /** Worst finding on a line (of the session part `part`, TraceModel.parts). */
  badgeOfLine?: (line: number, part?: number) => Severity | undefined;
  isCancelled?: () => boolean;
  onProgress?: (bytesRead: number) => void;
}

/**
 * The subject of event `i`, read from the table's columns. Its label is made only when a term reads it: most
 * labels are made again from their line's bytes, and `kind:tool_call` over a million events need read none.
 */
export function eventSubject(model: TraceModel, i: number, badge?: Severity): FilterSubject {
  const t = model.events;
  const durationMs = t.durationOf(i);
  return {
    kind: t.kindOf(i), category: t.categoryOf(i), status: t.statusOf(i), badge, tool: t.toolOf(i), model: t.modelOf(i), id: t.id(i),
    get label() {
      return t.labelOf(i);
    },
    group: t.groupOf(i), durationMs: Number.isNaN(durationMs) ? null : durationMs, tokensIn: t.tokensInOf(i), tokensOut: t.tokensOutOf(i),
    line: t.lineOf(i), seq: t.seqOf(i),
  };
}

/** The subject of malformed line `k`: an error row of kind {@link MALFORMED_KIND}. */
export function malformedSubject(model: TraceModel, k: number): FilterSubject {
  const m = model.malformed[k];
  return {
    kind: MALFORMED_KIND, category: 'error', status: 'error', tool: null, model: null, id: null, label: m.message,
    group: null, durationMs: null, tokensIn: null, tokensOut: null, line: m.line, seq: null,
  };
}

/**
 * Evaluates `filter` on every event and malformed line of `model` and returns the verdicts (computed once,
 * then looked up). Reads the file only for `text:` terms.
 */
export async function applyFilter(model: TraceModel, filter: CompiledFilter, options: ApplyFilterOptions = {}): Promise<ModelFilter> {
  return matchFilter(model, filter, await textHits(model, filter.needles, options), options.badgeOfLine);
}

/** Evaluates `filter` with text hits already looked up (see {@link textHits}). */
export function matchFilter(
  model: TraceModel,
  filter: CompiledFilter,
  hits: TextHits,
  badgeOfLine?: (line: number, part?: number) => Severity | undefined,
): ModelFilter {
  const ev = new Uint8Array(model.events.size);
  const bad = new Uint8Array(model.malformed.length);
  for (let i = 0; i < ev.length; i++) {
    const s = eventSubject(model, i, badgeOfLine?.(model.events.lineOf(i), model.events.partOf(i)));
    ev[i] = filter.test(s, (k) => hits.events[k][i] === 1) ? 1 : 0;
  }
  for (let k = 0; k < bad.length; k++) {
    bad[k] = filter.test(malformedSubject(model, k), (n) => hits.malformed[n][k] === 1) ? 1 : 0;
  }
  return { events: (i) => ev[i] === 1, malformed: (k) => bad[k] === 1 };
}

/** Per needle, which events and malformed lines hold it in their line. */
export interface TextHits {
  events: Uint8Array[];
  malformed: Uint8Array[];
}

/**
 * For each needle, the events and malformed lines whose line holds it (in any of its JSON-escaped forms),
 * in one streaming pass over the file; none are read for no needles.
 */
export async function textHits(model: TraceModel, needles: string[], options: ApplyFilterOptions = {}): Promise<TextHits> {
  const out: TextHits = { events: needles.map(() => new Uint8Array(model.events.size)), malformed: needles.map(() => new Uint8Array(model.malformed.length)) };
  if (needles.length === 0) return out;
  const forms = needles.map(lineNeedles);
  const holds = (text: string): number[] => {
    const low = text.toLowerCase();
    const found: number[] = [];
    forms.forEach((f, k) => f.some((q) => low.includes(q)) && found.push(k));
    return found;
  };
  const t = model.events;
  if (model.document) {
    // One JSON document: lines do not separate events, so each event's own span is read.
    for (let i = 0; i < t.size && !options.isCancelled?.(); i++) {
      const e = t.get(i);
      for (const k of holds((await readSpan(tracePathToOpen(model), e.offset, e.length)).toString('utf8'))) out.events[k][i] = 1;
    }
    return out;
  }
  const byLine = linesToRows(model);
  await scanLines(
    tracePathToOpen(model),
    (span, bytes) => {
      const rows = bytes === null ? undefined : byLine.get(span.line);
      if (!rows) return;
      const found = holds(bytes!.toString('utf8'));
      for (const k of found) for (const r of rows) r >= 0 ? (out.events[k][r] = 1) : (out.malformed[k][-r - 1] = 1);
    },
    { isCancelled: options.isCancelled, onProgress: options.onProgress, endOffset: model.bytesIndexed },
  );
  return out;
}

/** Line → rows on it (event index, or `-k-1` for malformed line k). */
function linesToRows(model: TraceModel): Map<number, number[]> {
  const map = new Map<number, number[]>();
  const add = (line: number, r: number) => {
    const list = map.get(line);
    if (list) list.push(r);
    else map.set(line, [r]);
  };
  for (let i = 0; i < model.events.size; i++) add(model.events.lineOf(i), i);
  model.malformed.forEach((m, k) => add(m.line, -k - 1));
  return map;
}
