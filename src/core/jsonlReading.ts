import { Buffer } from 'buffer';
import { basename } from './io/paths';
import { EventTable } from './eventTable';
import { detectFormat } from './detect';
import { formatModule } from './formats';
import { BuilderSource, Emit, EventBuilder, SourceRecord } from './format';
import type { Detection, MalformedLine } from './traceModel';
import { parseDecodedLine, ParsedLine } from './json/jsonLine';
import type { LineSpan } from './lineIndexer';
import { EventDraft, EventPlace, EventStatus, Finding, FormatName } from './model';
import { appendAll } from './arrays';
import { boundedTime, lineByteFindings } from './lineFindings';
import type { LabelDeriver, LineBytes } from './derivedLabels';
import type { UsageDraft } from './usageTypes';
import { settleLineLabel } from './lineLabels';
import { contentName } from './byteSource';

/** Values the detector sees before the builder starts. */
export const SNIFF_VALUES = 20;
/** Records asked for the folder the run worked in (`FormatModule.workingFolder`): writers name it in their first lines. */
export const WORKING_FOLDER_RECORDS = 50;

/** The file's name and path as detection and builders see them (a `.gz` without its suffix). */
export interface SampleBase {
  fileName: string;
  path: string;
}

/** The sample base of a trace at `path`: every detection (loading, checking, {@link detectFile}) names a file this way. */
export function sampleBaseOf(path: string): SampleBase {
  return { fileName: contentName(basename(path)), path: contentName(path.replace(/\\/g, '/')) };
}

/**
 * The one sniffer of a file's format: its first values (at most {@link SNIFF_VALUES}; every record of a multi-line
 * JSON `document`) and its name, given to {@link detectFormat}. Loading, streamed checks and `detectFile` all come here.
 */
export function detectValues(base: SampleBase, values: readonly unknown[], document: boolean): Detection {
  return detectFormat({ ...base, values: values.slice(0, SNIFF_VALUES), document });
}

/**
 * The last line of what was read when it had no line break: a writer may still be writing it. An append
 * reads it again from `offset` (a malformed one is taken back first), so a torn line completed later is read
 * once, as a whole.
 */
export interface OpenTail {
  line: number;
  offset: number;
  length: number;
  /** The line parsed as JSON and became a record: a later read must find it unchanged. */
  parsed: boolean;
  /** The line held only spaces (counted as blank). */
  blank: boolean;
  /** Lengths of `diagnostics` and `malformed` before the line was read (to take a malformed tail back). */
  diagnosticsBefore: number;
  malformedBefore: number;
}

/** Where a reading puts the events its builder emits. */
export interface EventSink {
  /** `value`: the line's parsed value, when the event is the line's own (so its label can be made again from it). */
  add(draft: EventDraft, place: EventPlace, value?: unknown): number;
  setDuration(index: number, ms: number): void;
  setStatus(index: number, status: EventStatus): void;
  setUsage(index: number, tokensIn: number | null, tokensOut: number | null, usage: UsageDraft | undefined): void;
  /** Whether labels `derive` makes from a line need not be made now (made again when asked, or not kept at all). */
  labelsOnDemand?(derive: LabelDeriver): boolean;
  /** Keep only the labels `derive` cannot make again from the line (the viewer's table; a check's facts keep none). */
  deriveLabelsFrom?(derive: LabelDeriver, lineBytes: LineBytes, parse: (bytes: Buffer) => unknown): void;
}

/**
 * The state of reading one JSONL file line by line, in file order: detection on the first values, then the
 * format's builder over every record, into one {@link EventTable}. Kept apart from the loader so a reader can
 * stay open and feed it the lines appended later.
 */
export class JsonlReading<T extends EventSink = EventTable> {
  readonly table: T;
  /** Findings of reading (bytes, JSON, adapter), in the order they were seen. */
  readonly diagnostics: Finding[] = [];
  readonly malformed: MalformedLine[] = [];
  detection: Detection | null;
  builder: EventBuilder | null;
  blankLines = 0;
  crlf = false;
  tail: OpenTail | null = null;
  /** The format was detected on fewer than {@link SNIFF_VALUES} values (a short file): more lines might say otherwise. */
  detectedOnFew = false;
  /** Called with each line's parsed value before the builder sees it (see LoadOptions.onRecord). */
  onRecord: ((rec: SourceRecord) => void) | null = null;
  /** The folder the run worked in, as the first records name it (`FormatModule.workingFolder`); null until one does. */
  workingFolder: string | null = null;
  private folderLooks = 0;
  private readonly head: SourceRecord[] = [];
  /** The first non-blank line as the document test parsed it (loadTrace.ts), used once instead of parsing it again. */
  private known: { text: string; value: unknown } | null = null;
  private lineBytes: LineBytes | null = null;
  /** The record being added (see addRecord). */
  private current: SourceRecord = { value: null, line: 0, offset: 0, length: 0 };
  private readonly emitCurrent: Emit = (d, r) => this.emit(d, r ?? this.current);

  /** `table`: where the events go; the viewer's {@link EventTable} unless a streamed check brings its own. */
  constructor(private readonly sampleBase: SampleBase, private readonly maxLineBytes: number, format?: FormatName, forcedReason = '', table?: T) {
    this.table = table ?? (new EventTable() as EventSink as T);
    this.detection = format ? { format, confidence: 1, reason: forcedReason, candidates: [] } : null;
    this.builder = format ? formatModule(format).createBuilder(this.builderSource()) : null;
  }

  /**
   * Lets the table keep only the labels the format cannot make again from a line, reading lines back through
   * `lineBytes` when a label is asked for. Called before the first line is read.
   */
  readLinesAgainWith(lineBytes: LineBytes): void {
    this.lineBytes = lineBytes;
    if (this.detection) this.deriveLabels(this.detection.format);
  }

  private deriveLabels(format: FormatName): void {
    const derive = formatModule(format).deriveLabel;
    // The same decoding as parseLine, so a label made again sees the value the builder saw.
    if (derive && this.lineBytes) this.table.deriveLabelsFrom?.(derive, this.lineBytes, (bytes) => JSON.parse(bytes.toString('utf8')));
  }

  /** Reads one line (the callback of `scanLines`). */
  onLine(span: LineSpan, bytes: Buffer | null, utf8 = false): void {
    this.takeLine(span, lineByteFindings(span, bytes, utf8), this.parse(span, bytes, bytes === null ? '' : bytes.toString('utf8')));
  }

  /** Gives the reading the first non-blank line's text and value, parsed already by the document test. */
  knowFirstLine(first: { text: string; value: unknown }): void {
    this.known = first;
  }

  /** Parses a line decoded as `text` (see parseDecodedLine); the first non-blank line is not parsed twice. */
  parse(span: LineSpan, bytes: Buffer | null, text: string): ParsedLine {
    const known = this.known;
    if (known !== null && bytes !== null && text === known.text) {
      this.known = null;
      return { kind: 'value', value: known.value };
    }
    const parsed = parseDecodedLine(span, bytes, text, this.maxLineBytes);
    if (parsed.kind !== 'blank') this.known = null;
    return parsed;
  }

  /** Takes one line whose bytes were checked and parsed already (here, or in a worker). */
  takeLine(span: LineSpan, byteFindings: readonly Finding[], parsed: ParsedLine): void {
    if (span.crlf) this.crlf = true;
    const tail = span.terminated ? null : { line: span.line, offset: span.offset, length: span.length, parsed: false, blank: false, diagnosticsBefore: this.diagnostics.length, malformedBefore: this.malformed.length };
    this.tail = tail;
    appendAll(this.diagnostics, byteFindings);
    if (parsed.kind === 'blank') {
      this.blankLines++;
      if (tail) tail.blank = true;
      return;
    }
    if (parsed.kind === 'malformed') {
      this.diagnostics.push(parsed.finding);
      this.malformed.push({ line: span.line, offset: span.offset, length: span.length, message: parsed.finding.message });
      return;
    }
    if (tail) tail.parsed = true;
    const rec = { value: parsed.value, line: span.line, offset: span.offset, length: span.length };
    this.onRecord?.(rec);
    this.addRecord(rec);
  }

  /** Hands one record to the builder, or keeps it for detection while fewer than {@link SNIFF_VALUES} were seen. */
  addRecord(rec: SourceRecord): void {
    if (this.builder) {
      // One emitter for every record, not a closure made per record: builders emit while they add, so a draft
      // emitted without its own record belongs to the record being added.
      this.current = rec;
      if (this.workingFolder === null && this.folderLooks < WORKING_FOLDER_RECORDS) this.lookForFolder(rec);
      this.builder.add(rec, this.emitCurrent);
    } else {
      this.head.push(rec);
      if (this.head.length >= SNIFF_VALUES) this.startBuilding();
    }
  }

  /** Detects the format from the values kept so far (if not done yet) and hands them to its builder. */
  startBuilding(): EventBuilder {
    if (this.builder) return this.builder;
    this.detectedOnFew = this.head.length < SNIFF_VALUES;
    this.detection = detectValues(this.sampleBase, this.head.map((r) => r.value), false);
    const builder = formatModule(this.detection.format).createBuilder(this.builderSource());
    this.builder = builder;
    this.deriveLabels(this.detection.format);
    for (const rec of this.head) {
      if (this.workingFolder === null && this.folderLooks < WORKING_FOLDER_RECORDS) this.lookForFolder(rec);
      builder.add(rec, (d, r) => this.emit(d, r ?? rec));
    }
    this.head.length = 0;
    return builder;
  }

  private lookForFolder(rec: SourceRecord): void {
    this.folderLooks++;
    this.workingFolder = formatModule(this.detection!.format).workingFolder?.(rec.value) ?? null;
  }

  /** Takes back an open tail that did not parse (its findings, its malformed row or blank count), so it can be read again whole. */
  reopenTail(): void {
    const t = this.tail;
    if (!t || t.parsed) return;
    this.diagnostics.length = t.diagnosticsBefore;
    this.malformed.length = t.malformedBefore;
    if (t.blank) this.blankLines--;
  }

  /** Places an emitted event, keeping its time only when a Date can hold it. */
  emit(draft: EventDraft, rec: SourceRecord): number {
    const timeFinding = boundedTime(draft, rec.line);
    if (timeFinding) this.diagnostics.push(timeFinding);
    // A record of its own line (not one a builder made up) can have its label made again from that line.
    const value = rec.length > 0 ? rec.value : undefined;
    if (draft.lineLabel) settleLineLabel(draft, rec.value, value !== undefined && this.table.labelsOnDemand?.(draft.lineLabel) === true);
    return this.table.add(draft, rec, value);
  }

  private builderSource(): BuilderSource {
    const table = this.table;
    return {
      ...this.sampleBase,
      setDuration: (i, ms) => table.setDuration(i, ms),
      setStatus: (i, status) => table.setStatus(i, status),
      setUsage: (i, tokensIn, tokensOut, usage) => table.setUsage(i, tokensIn, tokensOut, usage),
    };
  }
}
