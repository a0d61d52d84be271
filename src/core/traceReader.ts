import { fileSystem } from './io/fileSystem';
import { readRange } from './byteSource';
import { changeOf, ChangeSource, FileFingerprint, fingerprintOf } from './fileChange';
import { KeptReading, loadTraceKeepingReading, LoadOptions } from './loadTrace';
import { jsonlModel } from './jsonlModel';
import { scanLines } from './lineIndexer';
import type { TraceModel } from './traceModel';
import type { SourceRecord } from './format';
import type { TracePath } from './tracePath';
import type { CheckResult } from './checks/runChecks';
import type { CheckMode } from './rules/types';

/** What {@link TraceReader.append} did. */
export type AppendOutcome =
  /** The file has no new bytes (or only more of a line still being written, without its line break). */
  | { kind: 'unchanged'; model: TraceModel }
  /**
   * New lines were read: `model` holds every event; events `firstNewEvent`..`model.events.size - 1` are new
   * (an event of a line that was torn before and is now complete counts as new). `bytesRead` is what this
   * append read.
   */
  | { kind: 'appended'; model: TraceModel; firstNewEvent: number; bytesRead: number }
  /**
   * The file was not just appended to (truncated, rewritten, a torn line that had parsed grew), or this file
   * cannot be read incrementally (a `.gz`, a multi-line JSON document, a format whose builder closes with a pass
   * over everything, a read that was cancelled): read it again with {@link openTraceReader}. `reason` says why,
   * in words for the banner.
   */
  | { kind: 'needs-full-read'; reason: string };

/**
 * An open reader of one trace: the first read's model, and `append()` to read only what was written since.
 * Appends must not overlap (await each one).
 */
export interface TraceReader {
  /** The model as of the last read. */
  readonly model: TraceModel;
  /**
   * Reads the bytes appended since the last read, with the same builder; see {@link AppendOutcome}. `onRecord` sees
   * each new line's record, as {@link LoadOptions.onRecord} sees the first read's.
   */
  append(options?: { onRecord?: (rec: SourceRecord) => void }): Promise<AppendOutcome>;
  /** The results of the checks that rode along the first read ({@link LoadOptions.checks}), once they finish. */
  readonly checks?: Promise<Map<CheckMode, CheckResult>>;
}

/**
 * Reads a trace as {@link loadTrace} does (same options, the same model) and keeps its builder open, so a
 * growing file (a running agent's trace) is followed by parsing only the new bytes. Lines are read whole: a
 * last line without a line break is read again once it is complete (a malformed torn tail is taken back; a
 * complete one must come back unchanged). A shrunk file, changed bytes before the end of what was read, or a
 * torn line that had parsed and then grew make `append()` say `needs-full-read`.
 *
 * Cost of an append: reading and parsing the new bytes; the tree is extended by the new events (treeAppend.ts),
 * or built again over all events (typed arrays, linear) when they change earlier events' links.
 */
export async function openTraceReader(file: TracePath, options: LoadOptions = {}): Promise<TraceReader> {
  const { model, kept, checkResults } = await loadTraceKeepingReading(file, options);
  const bytes = contentBytes(file);
  if (kept) kept.reading.onRecord = null;
  const state = { model, edges: kept ? await fingerprintOf(bytes, kept.info.scan.bytesRead) : null, dead: null as string | null };
  return {
    ...(checkResults ? { checks: checkResults } : {}),
    get model() {
      return state.model;
    },
    async append(appendOptions) {
      const why = state.dead ?? (kept ? notAppendable(kept, state.model) : 'the file is one multi-line JSON document');
      if (why || !kept || !state.edges) return { kind: 'needs-full-read', reason: why ?? 'the file cannot be followed' };
      // The first read's onRecord saw that read; an append's records go to the append's own.
      kept.reading.onRecord = appendOptions?.onRecord ?? null;
      const outcome = await appendNew(file, bytes, kept, state.edges, state.model, options.maxLineBytes).finally(() => (kept.reading.onRecord = null));
      // Once the file is not what was read, the kept state is of no use: every later append says so too.
      if (outcome.kind === 'needs-full-read') state.dead = outcome.reason;
      if (outcome.kind === 'appended') {
        state.model = outcome.model;
        state.edges = await fingerprintOf(bytes, kept.info.scan.bytesRead);
      }
      return outcome.kind === 'unchanged' ? { kind: 'unchanged', model: state.model } : outcome;
    },
  };
}

/** Why this read cannot go on incrementally, or null when it can. */
function notAppendable(kept: KeptReading, model: TraceModel): string | null {
  if (model.compression) return 'a compressed trace is read again whole';
  if (model.cancelled || model.partial) return 'the last read stopped early';
  if (kept.reading.detectedOnFew) return 'the format was detected on its first few lines only';
  if (kept.reading.builder?.finish) return `the ${model.format} reader closes with a pass over the whole file`;
  return null;
}

/** The file's content for the change detector (a file that is gone throws, as a read of it would). */
function contentBytes(file: TracePath): ChangeSource {
  return { size: async () => (await fileSystem().stat(file)).size, read: (offset, length) => readRange(file, offset, length) };
}

async function appendNew(file: TracePath, bytes: ChangeSource, kept: KeptReading, edges: FileFingerprint, last: TraceModel, maxLineBytes?: number): Promise<AppendOutcome | { kind: 'unchanged' }> {
  const change = await changeOf(bytes, edges);
  if (change === 'truncated' || change === 'rewritten' || change === 'deleted') return { kind: 'needs-full-read', reason: `the file was ${change}` };
  if (change === 'unchanged') return { kind: 'unchanged' };
  const size = (await fileSystem().stat(file)).size;
  const after = await readRange(file, edges.indexedBytes, 1);
  // A lone CR at the old end followed by LF was one CRLF line break, not two lines.
  if (edges.tail[edges.tail.length - 1] === 13 && after[0] === 10) return { kind: 'needs-full-read', reason: 'a line break was split between two writes' };
  return readFrom(file, kept, size, last, maxLineBytes);
}

/** Scans from the open tail (or the end of what was read) to `size` with the kept reading. */
async function readFrom(file: TracePath, kept: KeptReading, size: number, last: TraceModel, maxLineBytes?: number): Promise<AppendOutcome | { kind: 'unchanged' }> {
  const { reading, info } = kept;
  const tail = reading.tail;
  const firstNewEvent = reading.table.size;
  const startOffset = tail ? tail.offset : info.scan.bytesRead;
  const startLine = tail ? tail.line : info.scan.lines + 1;
  if (tail && !tail.parsed) reading.reopenTail();
  let grew = false;
  const scan = await scanLines(file, (span, bytes, utf8) => {
    // A complete last line that already became events: only its line break is new.
    if (tail?.parsed && span.line === tail.line) {
      if (span.length !== tail.length) grew = true;
      if (span.crlf) reading.crlf = true;
      reading.tail = null;
      return;
    }
    if (!grew) reading.onLine(span, bytes, utf8);
  }, { startOffset, startLine, endOffset: size, maxLineBytes: maxLineBytes ?? 256 * 1024 * 1024, isCancelled: () => grew });
  if (grew) return { kind: 'needs-full-read', reason: 'the last line, already read, was written on' };
  const bytesRead = scan.bytesRead - info.scan.bytesRead;
  info.scan = { ...info.scan, bytesRead: scan.bytesRead, lines: startLine - 1 + scan.lines, bom: info.scan.bom || (startOffset === 0 && scan.bom) };
  info.fileSize = Math.max(info.fileSize, size);
  const read = await jsonlModel(reading, info, { model: last, events: firstNewEvent });
  // A session's parts (LoadOptions.sessionParts) stay: the main file's new events follow theirs in the table.
  const model = last.parts ? { ...read, parts: last.parts } : read;
  return { kind: 'appended', model, firstNewEvent, bytesRead };
}

/**
 * The model without its open tail: a last line with no line break that did not parse (the `parse/torn-tail`
 * line), as if the read had stopped before it. A writer that is still writing that line (the file grew a moment
 * ago, {@link tailPending}) has written no error: the viewer shows this model until the line break arrives (the
 * line is then read as an event) or the file stops growing (the torn-tail warning is then shown). Its findings,
 * malformed row and line are left out, and `bytesIndexed` ends before it, so checks run on it judge the complete
 * lines only. Null when the model has no such tail (a parsed last line without its break is an event already).
 */
export function withoutOpenTail(model: TraceModel): { model: TraceModel; line: number } | null {
  if (model.document || model.partial || model.cancelled) return null;
  const last = model.malformed[model.malformed.length - 1];
  if (!last || last.offset + last.length !== model.bytesIndexed || last.line !== model.lineCount) return null;
  if (!model.diagnostics.some((d) => d.line === last.line && d.rule === 'parse/torn-tail')) return null;
  return {
    line: last.line,
    model: {
      ...model,
      malformed: model.malformed.slice(0, -1),
      diagnostics: model.diagnostics.filter((d) => d.line !== last.line),
      lineCount: model.lineCount - 1,
      bytesIndexed: last.offset,
    },
  };
}
