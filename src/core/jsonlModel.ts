import { Buffer } from 'buffer';
import type { Compression } from './byteSource';
import type { EventTable } from './eventTable';
import { formatModule } from './formats';
import type { FormatTotals } from './format';
import type { EventSink, JsonlReading } from './jsonlReading';
import type { ScanResult } from './lineIndexer';
import type { Finding, FindingSink, FormatName } from './model';
import type { Detection, MalformedLine, SessionOrigin, TraceModel } from './traceModel';
import { buildTree, EventTree } from './tree';
import { extendTree } from './treeAppend';
import { appendAll } from './arrays';
import { resolveParentsElsewhere } from './crossFileParents';
import { PARSE_CATALOG } from './catalog/genericCatalog';

/** What the loader knows of a JSONL file besides its lines. */
export interface JsonlFileInfo {
  path: string;
  source?: Buffer;
  fileSize: number;
  compression: Compression;
  scan: ScanResult;
  cancelled: boolean;
  partial: boolean;
}

/** The tree findings (after the sibling-file lookup) of each tree a model was made with, for the next append. */
const treeFindingsOf = new WeakMap<EventTree, Finding[]>();

/** Gives `to` (the same events' tree with more events after them: a session's parts) the tree findings of `from`, for the next append. */
export function carryTreeFindings(from: EventTree, to: EventTree): void {
  const f = treeFindingsOf.get(from);
  if (f) treeFindingsOf.set(to, f);
}

/**
 * Turns what a {@link JsonlReading} has read into a model: the builder's closing findings, the tree over all
 * events, parents found in sibling files. The reading's own arrays are copied, so a reader kept open can go on
 * reading into them without changing a model it handed out (the event table is shared and only grows).
 * `appendedTo`: the model of the same reading before an append and how many events it had (the table it shares
 * has grown since), whose tree is extended by the new events when they allow it (see treeAppend.ts); the
 * columns keep their spare room for the next append. `treeSink`: where the tree's findings go instead of the model's
 * diagnostics, unless the format looks for parents in other files (they are then rewritten in the model's).
 */
export async function jsonlModel(reading: JsonlReading, info: JsonlFileInfo, appendedTo?: { model: TraceModel; events: number }, treeSink?: FindingSink): Promise<TraceModel> {
  const builder = reading.startBuilding();
  const diagnostics = closingDiagnostics(reading, info.scan);
  const detection = reading.detection!;
  const module = formatModule(detection.format);
  const before = appendedTo ? treeFindingsOf.get(appendedTo.model.tree) : undefined;
  const added: Finding[] = [];
  const extended = appendedTo && before ? extendTree(appendedTo.model.tree, appendedTo.events, reading.table, added) : null;
  let tree: EventTree;
  let treeFindings: Finding[];
  if (extended && appendedTo && before) {
    const from = appendedTo.events;
    const t = reading.table;
    const fresh = { size: t.size - from, parentId: (k: number) => t.parentId(from + k), lineOf: (k: number) => t.lineOf(from + k) };
    await resolveParentsElsewhere(module, info.path, fresh, extended, added);
    tree = extended;
    treeFindings = before.concat(added);
  } else if (treeSink && !module.findElsewhere) {
    // Handed on as they are made, kept neither here nor in the model (see LoadOptions.treeFindings).
    treeFindings = [];
    tree = buildTree(reading.table, treeSink);
  } else {
    treeFindings = [];
    tree = buildTree(reading.table, treeFindings);
    await resolveParentsElsewhere(module, info.path, reading.table, tree, treeFindings);
  }
  // A tree whose findings went to the sink has none to carry to an append (none follows: the read is the checks').
  if (!(treeSink && !module.findElsewhere)) treeFindingsOf.set(tree, treeFindings);
  appendAll(diagnostics, treeFindings);
  if (!appendedTo) reading.table.trim();
  return finishModel({
    path: info.path, source: info.source, detection, table: reading.table, tree, diagnostics, malformed: reading.malformed.slice(),
    lineCount: info.scan.lines, blankLines: reading.blankLines, fileSize: info.fileSize, bytesIndexed: info.scan.bytesRead, bom: info.scan.bom,
    crlf: reading.crlf, document: false, cancelled: info.cancelled, partial: info.partial, formatTotals: builder.totals?.() ?? {}, compression: info.compression,
    origin: builder.origin?.() ?? null, usageNotes: builder.usageNotes?.(), workingFolder: reading.workingFolder,
  });
}

/**
 * The reading's findings once every line was read: a copy of what the lines showed, then the builder's closing
 * findings (its `finish` may still emit events), a truncated .gz and a byte-order mark; not yet sorted. Shared with
 * the streamed checks (stream/streamChecks.ts), which read the same lines without building the model.
 */
export function closingDiagnostics(reading: JsonlReading<EventSink>, scan: ScanResult): Finding[] {
  const builder = reading.startBuilding();
  const diagnostics = reading.diagnostics.slice();
  appendAll(diagnostics, builder.finish?.((d, r) => reading.emit(d, r ?? { value: null, line: scan.lines, offset: 0, length: 0 })) ?? []);
  if (scan.endedEarly) diagnostics.push(endedEarlyFinding(scan.endedEarly, scan.lines));
  if (scan.bom) diagnostics.push({ rule: 'parse/bom', severity: PARSE_CATALOG.severityOf('parse/bom'), line: 1, message: 'The file starts with a UTF-8 byte-order mark; it was skipped.' });
  return diagnostics;
}

/**
 * A partial model of the events read so far, for the early-pages hook: built while the read goes on (the
 * builder is not finished, sibling files are not asked). Its tree covers the first `events.size` events at the
 * time of the call; the table keeps growing afterwards.
 */
export function partialModel(reading: JsonlReading, info: Omit<JsonlFileInfo, 'scan' | 'cancelled' | 'partial'> & { bytesRead: number }): TraceModel {
  const diagnostics = reading.diagnostics.slice();
  const view = reading.table.prefix(reading.table.size);
  const tree = buildTree(view, diagnostics);
  const lastLine = reading.malformed.length > 0 ? reading.malformed[reading.malformed.length - 1].line : 0;
  const lines = Math.max(lastLine, view.size > 0 ? view.lineOf(view.size - 1) : 0);
  return finishModel({
    path: info.path, source: info.source, detection: reading.detection!, table: view, tree, diagnostics, malformed: reading.malformed.slice(),
    lineCount: lines, blankLines: reading.blankLines, fileSize: info.fileSize, bytesIndexed: info.bytesRead, bom: false, crlf: reading.crlf,
    document: false, cancelled: false, partial: true, formatTotals: reading.builder?.totals?.() ?? {}, compression: info.compression,
    origin: reading.builder?.origin?.() ?? null,
  });
}

/** A truncated .gz: the lines after the last one read are missing, and that one may be cut. */
function endedEarlyFinding(why: string, lines: number): Finding {
  const message = lines > 0 ? `The ${why.replace(/^the /, '')}: the file ends after line ${lines}, which may be cut; whatever followed is missing.` : `The ${why.replace(/^the /, '')}: nothing could be read.`;
  return { rule: 'parse/gzip-truncated', severity: PARSE_CATALOG.severityOf('parse/gzip-truncated'), line: Math.max(1, lines), message };
}

/** The fields of a finished model, before the format's text strictness and the line order are applied. */
export interface FinishInput {
  path: string; source?: Buffer; detection: Detection; table: EventTable; tree: EventTree; diagnostics: Finding[]; malformed: MalformedLine[];
  lineCount: number; blankLines: number; fileSize: number; bytesIndexed: number; bom: boolean; crlf: boolean; document: boolean; cancelled: boolean; partial: boolean;
  formatTotals: FormatTotals; compression: Compression;
  /** The session the file continues as a fork (the builder's `origin()`), when it is one. */
  origin?: SessionOrigin | null;
  /** The builder's `usageNotes()`. */
  usageNotes?: string[];
  /** The folder the run worked in (`FormatModule.workingFolder` over the first records). */
  workingFolder?: string | null;
}

/** Applies the format's strict-text severities, sorts findings by line and assembles the model. */
export function finishModel(x: FinishInput): TraceModel {
  finishDiagnostics(x.detection.format, x.diagnostics);
  return {
    path: x.path, ...(x.source ? { source: x.source } : {}), format: x.detection.format, detection: x.detection, events: x.table, tree: x.tree, diagnostics: x.diagnostics,
    malformed: x.malformed, lineCount: x.lineCount, blankLines: x.blankLines, fileSize: x.fileSize, bytesIndexed: x.bytesIndexed,
    bom: x.bom, crlf: x.crlf, document: x.document, cancelled: x.cancelled, partial: x.partial, formatTotals: x.formatTotals,
    compression: x.compression, ...(x.origin ? { origin: x.origin } : {}), ...(x.usageNotes?.length ? { usageNotes: x.usageNotes } : {}),
    ...(x.workingFolder ? { workingFolder: x.workingFolder } : {}),
  };
}

/** Applies the format's strict-text severities (lumen: invalid UTF-8 and lone CRs are errors) and sorts by line. */
export function finishDiagnostics(format: FormatName, diagnostics: Finding[]): void {
  if (formatModule(format).strictText) {
    for (const d of diagnostics) if (d.rule === 'parse/invalid-utf8' || d.rule === 'parse/lone-cr') d.severity = PARSE_CATALOG.overrideOf(d.rule);
  }
  diagnostics.sort((a, b) => a.line - b.line);
}
