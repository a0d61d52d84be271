import { stat } from 'node:fs/promises';
import { shownPath, TracePath } from './tracePath';
import { basename } from 'node:path';
import { Compression, contentName, contentSizeHint, probeFile, readHead, readText } from './byteSource';
import { EventTable } from './eventTable';
import { detectFormat } from './detect';
import { formatModule } from './formats';
import { BuilderSource, FormatTotals, SourceRecord } from './format';
import type { Detection, MalformedLine, TraceModel } from './traceModel';
import { parseLine } from './json/jsonLine';
import { scanLines } from './lineIndexer';
import { EventDraft, Finding, FormatName } from './model';
import { buildTree, EventTree } from './tree';
import { appendAll } from './arrays';
import { resolveParentsElsewhere } from './crossFileParents';
import { ConcatenatedJson, splitConcatenatedJson } from './json/concatenatedJson';
import { boundedTime, lineByteFindings } from './lineFindings';
import { PARSE_CATALOG } from './checks/genericCatalog';

export type { MalformedLine, TraceModel };

/** Options for {@link loadTrace}. */
export interface LoadOptions {
  /** Skip detection and read the file as this format. */
  format?: FormatName;
  maxLineBytes?: number;
  /** Largest multi-line JSON document read whole; default 256 MiB. */
  maxDocumentBytes?: number;
  chunkSize?: number;
  onProgress?: (bytesRead: number, fileSize: number) => void;
  isCancelled?: () => boolean;
  /**
   * Stop after about this many bytes (whole chunks): a quick first look at a large file, shown while the
   * full read goes on. The model then has `partial: true`.
   */
  stopAfterBytes?: number;
}

const SNIFF_VALUES = 20;

/**
 * Reads a trace file in byte chunks, detects its format from content, turns each line into events with
 * the format's adapter and builds the event tree. Bad lines become findings, never exceptions; only an
 * unreadable file throws.
 */
export async function loadTrace(file: TracePath, options: LoadOptions = {}): Promise<TraceModel> {
  const path = shownPath(file);
  const source = typeof file === 'string' ? undefined : file;
  const info = await stat(file);
  if (!info.isFile()) {
    const err: NodeJS.ErrnoException = new Error(info.isDirectory() ? 'is a directory' : 'not a regular file');
    err.code = info.isDirectory() ? 'EISDIR' : 'ENOTREG';
    throw err;
  }
  const compression = await probeFile(file);
  const maxLineBytes = options.maxLineBytes ?? 256 * 1024 * 1024;
  // Detection and builders see the name the content has (`x.jsonl.gz` → `x.jsonl`); blobs resolve beside `path`.
  const sampleBase = { fileName: contentName(basename(path)), path: contentName(path.replace(/\\/g, '/')) };
  const table = new EventTable();
  const diagnostics: Finding[] = [];
  const malformed: MalformedLine[] = [];

  const doc = await tryReadDocument(file, options.maxDocumentBytes ?? 256 * 1024 * 1024);
  if (doc) {
    const detection = options.format
      ? forced(options.format)
      : detectFormat({ ...sampleBase, values: doc.records.slice(0, SNIFF_VALUES).map((r) => r.value), document: true });
    const builder = formatModule(detection.format).createBuilder(builderSource(sampleBase, table));
    const emit = makeEmit(table, diagnostics);
    for (const rec of doc.records) builder.add(rec, (d, r) => emit(d, r ?? rec));
    appendAll(diagnostics, builder.finish?.((d, r) => emit(d, r ?? doc.records[0])) ?? []);
    for (const g of doc.gaps ?? []) {
      diagnostics.push(g.finding);
      malformed.push({ line: g.finding.line, offset: g.offset, length: 0, message: g.finding.message });
    }
    const tree = buildTree(table, diagnostics);
    await resolveParentsElsewhere(formatModule(detection.format), path, table, tree, diagnostics);
    return finishModel({ path, source, detection, table, tree, diagnostics, malformed, lineCount: doc.lineCount, blankLines: 0, fileSize: info.size, bytesIndexed: info.size, bom: false, crlf: false, document: true, cancelled: false, partial: false, formatTotals: builder.totals?.() ?? {}, compression });
  }

  let detection: Detection | null = options.format ? forced(options.format) : null;
  let builder = detection ? formatModule(detection.format).createBuilder(builderSource(sampleBase, table)) : null;
  const emit = makeEmit(table, diagnostics);
  const head: SourceRecord[] = [];
  let blankLines = 0;
  let crlf = false;

  const startBuilding = (): void => {
    detection = detectFormat({ ...sampleBase, values: head.map((r) => r.value), document: false });
    builder = formatModule(detection.format).createBuilder(builderSource(sampleBase, table));
    for (const rec of head) builder.add(rec, (d, r) => emit(d, r ?? rec));
    head.length = 0;
  };

  let bytesSeen = 0;
  const contentSize = await contentSizeHint(file, compression, info.size);
  const stopAfter = options.stopAfterBytes ?? Infinity;
  const scan = await scanLines(
    file,
    (span, bytes) => {
      if (span.crlf) crlf = true;
      appendAll(diagnostics, lineByteFindings(span, bytes));
      const parsed = parseLine(span, bytes, maxLineBytes);
      if (parsed.kind === 'blank') {
        blankLines++;
        return;
      }
      if (parsed.kind === 'malformed') {
        diagnostics.push(parsed.finding);
        malformed.push({ line: span.line, offset: span.offset, length: span.length, message: parsed.finding.message });
        return;
      }
      const rec: SourceRecord = { value: parsed.value, line: span.line, offset: span.offset, length: span.length };
      if (builder) builder.add(rec, (d, r) => emit(d, r ?? rec));
      else {
        head.push(rec);
        if (head.length >= SNIFF_VALUES) startBuilding();
      }
    },
    {
      maxLineBytes,
      chunkSize: options.chunkSize,
      isCancelled: () => bytesSeen >= stopAfter || (options.isCancelled?.() ?? false),
      onProgress: (n) => {
        bytesSeen = n;
        options.onProgress?.(n, Math.max(n, contentSize));
      },
    },
  );
  if (!builder) startBuilding();
  appendAll(diagnostics, builder!.finish?.((d, r) => emit(d, r ?? { value: null, line: scan.lines, offset: 0, length: 0 })) ?? []);
  if (scan.endedEarly) diagnostics.push(endedEarlyFinding(scan.endedEarly, scan.lines));
  if (scan.bom) diagnostics.push({ rule: 'parse/bom', severity: PARSE_CATALOG.severityOf('parse/bom'), line: 1, message: 'The file starts with a UTF-8 byte-order mark; it was skipped.' });
  const tree = buildTree(table, diagnostics);
  await resolveParentsElsewhere(formatModule(detection!.format), path, table, tree, diagnostics);
  return finishModel({
    path, source, detection: detection!, table, tree, diagnostics, malformed, lineCount: scan.lines, blankLines,
    fileSize: info.size, bytesIndexed: scan.bytesRead, bom: scan.bom, crlf, document: false,
    cancelled: scan.cancelled && bytesSeen < stopAfter, partial: scan.cancelled && bytesSeen >= stopAfter,
    formatTotals: builder!.totals?.() ?? {}, compression,
  });
}

/** A truncated .gz: the lines after the last one read are missing, and that one may be cut. */
function endedEarlyFinding(why: string, lines: number): Finding {
  const message = lines > 0 ? `The ${why.replace(/^the /, '')}: the file ends after line ${lines}, which may be cut; whatever followed is missing.` : `The ${why.replace(/^the /, '')}: nothing could be read.`;
  return { rule: 'parse/gzip-truncated', severity: PARSE_CATALOG.severityOf('parse/gzip-truncated'), line: Math.max(1, lines), message };
}

function builderSource(base: { fileName: string; path: string }, table: EventTable): BuilderSource {
  return {
    ...base,
    setDuration: (i, ms) => table.setDuration(i, ms),
    setStatus: (i, status) => table.setStatus(i, status),
  };
}

/** The detection reason of a format the user chose (`--format`, a setting). */
export const FORCED_REASON = 'chosen by the user';

function forced(format: FormatName): Detection {
  return { format, confidence: 1, reason: FORCED_REASON, candidates: [] };
}

function makeEmit(table: EventTable, diagnostics: Finding[]) {
  return (draft: EventDraft, rec: SourceRecord): number => {
    const timeFinding = boundedTime(draft, rec.line);
    if (timeFinding) diagnostics.push(timeFinding);
    return table.add(draft, { line: rec.line, offset: rec.offset, length: rec.length });
  };
}

interface FinishInput {
  path: string; source?: Buffer; detection: Detection; table: EventTable; tree: EventTree; diagnostics: Finding[]; malformed: MalformedLine[];
  lineCount: number; blankLines: number; fileSize: number; bytesIndexed: number; bom: boolean; crlf: boolean; document: boolean; cancelled: boolean; partial: boolean;
  formatTotals: FormatTotals; compression: Compression;
}

function finishModel(x: FinishInput): TraceModel {
  if (formatModule(x.detection.format).strictText) {
    for (const d of x.diagnostics) if (d.rule === 'parse/invalid-utf8' || d.rule === 'parse/lone-cr') d.severity = PARSE_CATALOG.overrideOf(d.rule);
  }
  x.diagnostics.sort((a, b) => a.line - b.line);
  return {
    path: x.path, ...(x.source ? { source: x.source } : {}), format: x.detection.format, detection: x.detection, events: x.table, tree: x.tree, diagnostics: x.diagnostics,
    malformed: x.malformed, lineCount: x.lineCount, blankLines: x.blankLines, fileSize: x.fileSize, bytesIndexed: x.bytesIndexed,
    bom: x.bom, crlf: x.crlf, document: x.document, cancelled: x.cancelled, partial: x.partial, formatTotals: x.formatTotals,
    compression: x.compression,
  };
}

/**
 * A file whose first non-blank line is not JSON on its own but starts a JSON object or array may be one
 * multi-line document (an OTLP export, a JSON array of events). Reads it whole (up to a cap) and returns its
 * records: the elements of a top-level array, or the object itself.
 */
export async function tryReadDocument(path: TracePath, maxBytes: number): Promise<{ records: SourceRecord[]; lineCount: number; gaps?: { finding: Finding; offset: number }[] } | null> {
  const head = (await readHead(path, 64 * 1024)).toString('utf8').replace(/^\uFEFF/, '');
  const firstLine = head.split(/\r\n|\r|\n/).find((l) => l.trim() !== '');
  if (firstLine === undefined) return null;
  const t = firstLine.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return null;
  try {
    JSON.parse(t);
    return null; // a complete JSON value on one line: JSONL
  } catch {
    // fall through: may be a multi-line document
  }
  const text = await readText(path, maxBytes);
  if (text === null) return null;
  let value: unknown;
  let parts: ConcatenatedJson | null = null;
  try {
    value = JSON.parse(text);
  } catch {
    // Several pretty-printed values one after another (the Python SDK's console exporter) are records too.
    parts = splitConcatenatedJson(text);
    if (!parts) return null;
  }
  // The same line breaks as the line indexer (LF, CRLF, lone CR), so document lines match VS Code's.
  const lineStarts: number[] = [0];
  for (const m of text.matchAll(/\r\n?|\n/g)) lineStarts.push(m.index! + m[0].length);
  const lineAt = (pos: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  // Elements are usually located in document order: search on from the last hit first, so placing every
  // span of a large export stays linear.
  let lastHit = 0;
  const locate = (needle: string): number | null => {
    let pos = text.indexOf(needle, lastHit);
    if (pos < 0) pos = text.indexOf(needle);
    if (pos < 0) return null;
    lastHit = pos;
    return lineAt(pos);
  };
  const size8 = Buffer.byteLength(text);
  if (parts) return { records: concatenatedRecords(text, parts, lineAt, locate), lineCount: lineStarts.length, gaps: gapFindings(text, parts, lineAt, lineStarts.length) };
  const records: SourceRecord[] = Array.isArray(value)
    ? value.map((v) => ({ value: v, line: 1, offset: 0, length: size8, locate }))
    : [{ value, line: 1, offset: 0, length: size8, locate }];
  return { records, lineCount: lineStarts.length };
}

/** Records of concatenated JSON values, each at its own first line and byte range (offsets counted once, in order). */
function concatenatedRecords(text: string, { values: parts }: ConcatenatedJson, lineAt: (pos: number) => number, locate: (needle: string) => number | null): SourceRecord[] {
  let bytes = 0;
  let pos = 0;
  return parts.map((p) => {
    bytes += Buffer.byteLength(text.slice(pos, p.start));
    const length = Buffer.byteLength(text.slice(p.start, p.end));
    const rec = { value: p.value, line: lineAt(p.start), offset: bytes, length, locate };
    bytes += length;
    pos = p.end;
    return rec;
  });
}

/** A torn last value or a damaged one in concatenated JSON values, at the line (and byte) where it starts. */
function gapFindings(text: string, parts: ConcatenatedJson, lineAt: (pos: number) => number, lineCount: number): { finding: Finding; offset: number }[] {
  return parts.gaps.map((g) => {
    const line = lineAt(g.start);
    const finding: Finding = g.torn
      ? { rule: 'parse/torn-tail', severity: PARSE_CATALOG.severityOf('parse/torn-tail'), line, message: `The last JSON value (lines ${line}–${lineCount}) is cut off: the file ends inside it (a write still in progress, or a truncated copy).` }
      : { rule: 'parse/invalid-json', severity: PARSE_CATALOG.severityOf('parse/invalid-json'), line, message: `The JSON value that starts on line ${line} does not parse; reading went on at the next value.` };
    return { finding, offset: Buffer.byteLength(text.slice(0, g.start)) };
  });
}
