import { Buffer } from 'buffer';
import { fileSystem } from './io/fileSystem';
import { holdTrace } from './io/traceHandles';
import { shownPath, TracePath } from './tracePath';
import { Compression, contentSizeHint, probeFile, readHead, readText } from './byteSource';
import { EventTable } from './eventTable';
import { formatModule } from './formats';
import { BuilderSource, SourceRecord } from './format';
import type { Detection, MalformedLine, TraceModel } from './traceModel';
import { scanJsonl } from './parallel/scanJsonl';
import { EventDraft, Finding, FormatName } from './model';
import { buildTree } from './tree';
import { appendAll } from './arrays';
import { resolveParentsElsewhere } from './crossFileParents';
import { ConcatenatedJson, splitConcatenatedJson } from './json/concatenatedJson';
import { salvageJson, SalvagedJson } from './json/salvageJson';
import { boundedTime } from './lineFindings';
import { PARSE_CATALOG } from './catalog/genericCatalog';
import { detectValues, JsonlReading, sampleBaseOf, SNIFF_VALUES, WORKING_FOLDER_RECORDS } from './jsonlReading';
import { finishModel, JsonlFileInfo, jsonlModel, partialModel } from './jsonlModel';
import { fileLineBytes } from './derivedLabels';
import { settleLineLabel } from './lineLabels';
import { eventSizer } from './eventSizer';
import { LineChecks } from './checks/lineChecks';
import type { CheckResult, RunOptions } from './checks/runChecks';
import { FindingLog } from './findingLog';
import { runChecks } from './formatRules';
import type { CheckMode, CheckSubject } from './rules/types';
import { CheckedReading } from './checkedReading';
import { withSessionParts } from './sessionParts';

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
  /**
   * Early pages: called once, after about `earlyBytes` (default 4 MiB) of the same pass, with a usable partial
   * model (`partial: true`, a tree of the events read so far), so a viewer shows rows while the read goes on
   * instead of reading the head twice. Its `events` is a view of the events read so far (its `size` stays put
   * while the read goes on). Not called for a file smaller than `earlyBytes`, nor for a multi-line JSON document.
   */
  onEarlyModel?: (model: TraceModel) => void;
  earlyBytes?: number;
  /**
   * Worker threads that parse a plain JSONL file's lines in newline-aligned pieces while this thread parses its
   * own share and runs the format's cross-line pass; 0 (the default) reads on this thread. The model is the same either way. Formats
   * without `lineFields`, `.gz` files and files under `parallelMinBytes` (default 4 MiB) read on this thread.
   */
  workers?: number;
  parallelMinBytes?: number;
  /** Chunk size of the head read before the workers start (default 16 KiB; tests make it small). */
  parallelHeadChunk?: number;
  /** Share of the bytes this thread parses beside the workers (tests place piece boundaries with it). */
  parallelMainShare?: number;
  /** Bytes of one round of pieces (default 8 MiB; tests make it small to have many rounds). */
  parallelRoundBytes?: number;
  /**
   * Called once per parsed JSONL line, with its value, before the format's builder sees it: a caller that needs
   * something of every line (the diff's digests) takes it during this read instead of reading the file again.
   * The file is then read on this thread (`workers` is ignored: workers hand back only the fields the builder
   * reads). For a multi-line JSON document, called once per record the document holds (a value with its `locate`).
   */
  onRecord?: (rec: SourceRecord) => void;
  /** Keep every label in memory instead of making the format's labels again from their lines when shown. */
  storeLabels?: boolean;
  /**
   * Checks that ride along this read: each line, parsed once, goes to the model and to the verifiers or checkers of
   * these modes, which finish over the finished model (so a trace opened with checks on is read once). The model is
   * handed back first; each result goes to `onResult` as soon as it exists, in the order of `modes`
   * ({@link loadTraceKeepingReading}'s `checkResults` resolves with all of them). With workers, a single mode has the
   * workers digest lines for its checks; with several, the lines after the head are read on this thread.
   */
  checks?: RideAlongChecks;
  /**
   * Also read the session's other files (`FormatModule.sessionFiles`: Claude Code's subagent transcripts), once
   * each, and add their events after the main file's, each under the call that started it (core/sessionParts.ts;
   * `TraceModel.parts`). The viewer asks for it; the CLI does not, so its output is the main file's alone. The
   * checks riding along judge the main file alone. A cut or cancelled read gets no parts.
   */
  sessionParts?: boolean;
  /**
   * With {@link sessionParts}: the most bytes the main file and its parts may hold together (the viewer's
   * `agentTrace.maxFileSizeMB`). A part that would go over it is listed with why and not read.
   */
  sessionPartsMaxBytes?: number;
}

/** See {@link LoadOptions.checks}. */
export interface RideAlongChecks {
  modes: CheckMode[];
  options?: RunOptions;
  onResult?: (mode: CheckMode, result: CheckResult) => void;
}

const EARLY_BYTES = 4 * 1024 * 1024;

/**
 * Reads a trace file in byte chunks, detects its format from content, turns each line into events with
 * the format's adapter and builds the event tree. Bad lines become findings, never exceptions; only an
 * unreadable file throws.
 */
export async function loadTrace(file: TracePath, options: LoadOptions = {}): Promise<TraceModel> {
  return (await loadTraceKeepingReading(file, options)).model;
}

/** {@link loadTrace} with checks riding along ({@link LoadOptions.checks}): the model and each mode's result. */
export async function loadTraceChecked(file: TracePath, options: LoadOptions & { checks: RideAlongChecks }): Promise<{ model: TraceModel; results: Map<CheckMode, CheckResult> }> {
  const { model, checkResults } = await loadTraceKeepingReading(file, options);
  return { model, results: (await checkResults) ?? new Map() };
}

/** What a JSONL read leaves behind for a reader kept open: the reading state and what the scan saw. */
export interface KeptReading {
  reading: JsonlReading;
  info: JsonlFileInfo;
}

/**
 * {@link loadTrace}, also handing back the reading state of a JSONL file (null for a multi-line document), so
 * `openTraceReader` can go on reading what is appended.
 */
export async function loadTraceKeepingReading(file: TracePath, options: LoadOptions = {}): Promise<{ model: TraceModel; kept: KeptReading | null; checkResults?: Promise<Map<CheckMode, CheckResult>> }> {
  // The probe, the document test, the scan and the labels' first read share one open file (io/traceHandles.ts).
  // Awaited here so the loader's frame stays in the async stack of the open (test/vscode/modelCache.test.ts counts loads so).
  if (!options.checks) return await holdTrace(file, () => readKeepingReading(file, options));
  // The checks finish after the model is handed back, and some read the trace again (a format's rule on its torn
  // tail): the file stays held until they end.
  return new Promise((resolve, reject) => {
    holdTrace(file, async () => {
      const read = await readKeepingReading(file, options);
      resolve(read);
      await read.checkResults?.catch(() => undefined);
    }).catch(reject);
  });
}

async function readKeepingReading(file: TracePath, options: LoadOptions): Promise<{ model: TraceModel; kept: KeptReading | null; checkResults?: Promise<Map<CheckMode, CheckResult>> }> {
  const path = shownPath(file);
  const source = typeof file === 'string' ? undefined : file;
  const info = await fileSystem().stat(file);
  if (!info.isFile()) {
    const err: NodeJS.ErrnoException = new Error(info.isDirectory() ? 'is a directory' : 'not a regular file');
    err.code = info.isDirectory() ? 'EISDIR' : 'ENOTREG';
    throw err;
  }
  const compression = await probeFile(file);
  const maxLineBytes = options.maxLineBytes ?? 256 * 1024 * 1024;
  // Detection and builders see the name the content has (`x.jsonl.gz` → `x.jsonl`); blobs resolve beside `path`.
  const sampleBase = sampleBaseOf(path);
  const table = new EventTable();
  const diagnostics: Finding[] = [];
  const malformed: MalformedLine[] = [];

  const { document: doc, first } = await documentTest(file, options.maxDocumentBytes ?? 256 * 1024 * 1024);
  if (doc) {
    const detection = options.format
      ? forced(options.format)
      : detectValues(sampleBase, doc.records.slice(0, SNIFF_VALUES).map((r) => r.value), true);
    const module = formatModule(detection.format);
    const builder = module.createBuilder(builderSource(sampleBase, table));
    const emit = makeEmit(table, diagnostics);
    let workingFolder: string | null = null;
    for (const [i, rec] of doc.records.entries()) {
      options.onRecord?.(rec);
      if (workingFolder === null && i < WORKING_FOLDER_RECORDS) workingFolder = module.workingFolder?.(rec.value) ?? null;
      builder.add(rec, (d, r) => emit(d, r ?? rec));
    }
    appendAll(diagnostics, builder.finish?.((d, r) => emit(d, r ?? doc.records[0])) ?? []);
    for (const g of doc.gaps ?? []) {
      diagnostics.push(g.finding);
      malformed.push({ line: g.finding.line, offset: g.offset, length: 0, message: g.finding.message });
    }
    const tree = buildTree(table, diagnostics);
    await resolveParentsElsewhere(formatModule(detection.format), path, table, tree, diagnostics);
    table.trim();
    const main = finishModel({ path, source, detection, table, tree, diagnostics, malformed, lineCount: doc.lineCount, blankLines: 0, fileSize: info.size, bytesIndexed: info.size, bom: false, crlf: false, document: true, cancelled: false, partial: false, formatTotals: builder.totals?.() ?? {}, compression, origin: builder.origin?.() ?? null, usageNotes: builder.usageNotes?.(), workingFolder });
    // A document read with its session's other files (an opencode export and its subagents' exports) has them as parts too.
    // A document's checks read no lines (its records are not lines): they run over the main file's model.
    const { model, judged } = await withPartsJudged(main, table, options);
    return { kept: null, model, checkResults: options.checks ? checkDocument(judged, options.checks) : undefined };
  }

  const reading = new JsonlReading(sampleBase, maxLineBytes, options.format, FORCED_REASON);
  if (first) reading.knowFirstLine(first);
  const rideAlong = options.checks ? new LineChecks(options.checks.modes, options.checks.options ?? {}, await readingSubject(file, path, source, reading, options.format)) : null;
  // Lines of a plain file can be read again at their offsets; a compressed one's cannot.
  const lineBytes = compression || options.storeLabels ? null : fileLineBytes(file);
  if (lineBytes) reading.readLinesAgainWith(lineBytes);
  reading.onRecord = options.onRecord ?? null;
  let bytesSeen = 0;
  const contentSize = await contentSizeHint(file, compression, info.size);
  const stopAfter = options.stopAfterBytes ?? Infinity;
  const early = earlyPages(reading, options, { path, source, fileSize: info.size, compression });
  const sizeColumns = compression ? null : eventSizer(info.size, () => reading.table.size, (n) => reading.table.reserve(n), SIZE_FROM_BYTES);
  const parallel = {
    workers: compression || options.onRecord ? 0 : options.workers ?? 0, minBytes: options.parallelMinBytes, size: info.size, headChunkBytes: options.parallelHeadChunk,
    mainShare: options.parallelMainShare, roundBytes: options.parallelRoundBytes, digest: options.checks?.modes,
  };
  const scan = await scanJsonl(file, rideAlong ? new CheckedReading(reading, rideAlong) : reading, {
    maxLineBytes,
    chunkSize: options.chunkSize,
    isCancelled: () => bytesSeen >= stopAfter || (options.isCancelled?.() ?? false),
    onProgress: (n) => {
      bytesSeen = n;
      options.onProgress?.(n, Math.max(n, contentSize));
      sizeColumns?.(n);
      early?.(n);
    },
  }, parallel);
  const fileInfo: JsonlFileInfo = {
    path, source, fileSize: info.size, compression, scan,
    cancelled: scan.cancelled && bytesSeen < stopAfter, partial: scan.cancelled && bytesSeen >= stopAfter,
  };
  // Checks of one mode whose findings go to a log (the CLI's): the tree's findings go straight to them, not to the
  // model's diagnostics (a parent missing on each of a million lines is never a million findings held).
  const treeLog = options.checks?.options?.findingLog && options.checks.modes.length === 1 ? new FindingLog() : undefined;
  const main = await jsonlModel(reading, fileInfo, undefined, treeLog);
  const { model, judged } = await withPartsJudged(main, reading.table, options);
  const subject: CheckSubject = treeLog ? { ...judged, moreDiagnostics: treeLog } : judged;
  // The model is handed back at once; the checks finish over it (cross-line passes, blob rehashing) after.
  const checkResults = rideAlong ? rideAlong.finish(subject, judged.format, formatModule(judged.format), judged.cancelled || judged.partial, judged, options.checks!.onResult) : undefined;
  return { model, kept: { reading, info: fileInfo }, checkResults };
}

/** The checks' view of a reading still going on: its events and its findings so far, live. */
/**
 * The model with its session's other files added as parts (when asked), and the model the checks judge: the main
 * file alone, its events as they were before the parts were added after them.
 */
async function withPartsJudged(main: TraceModel, table: EventTable, options: LoadOptions): Promise<{ model: TraceModel; judged: TraceModel }> {
  if (!options.sessionParts) return { model: main, judged: main };
  const mainEvents = table.size;
  const model = await withSessionParts(main, table, (p, o) => loadTrace(p, o), options.isCancelled, options.sessionPartsMaxBytes);
  return { model, judged: model === main ? main : { ...main, events: table.prefix(mainEvents) } };
}

async function readingSubject(file: TracePath, path: string, source: Buffer | undefined, reading: JsonlReading, format?: FormatName): Promise<CheckSubject> {
  const head = await readHead(file, 3);
  // Some checks ask about the byte-order mark while lines stream by, before the scan reports it.
  const bom = head.length === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
  return { path, ...(source ? { source } : {}), format: format ?? 'generic', events: reading.table, diagnostics: reading.diagnostics, lineCount: 0, bytesIndexed: 0, bom, document: false };
}

/** The checks of a multi-line document, over its model, each result handed on as it exists. */
async function checkDocument(model: TraceModel, checks: RideAlongChecks): Promise<Map<CheckMode, CheckResult>> {
  const out = new Map<CheckMode, CheckResult>();
  for (const mode of checks.modes) {
    const result = await runChecks(model, mode, checks.options ?? {});
    out.set(mode, result);
    checks.onResult?.(mode, result);
  }
  return out;
}

/** The early-pages hook of {@link LoadOptions.onEarlyModel}: fires once, after the first `earlyBytes`. */
function earlyPages(reading: JsonlReading, options: LoadOptions, file: Omit<JsonlFileInfo, 'scan' | 'cancelled' | 'partial'>): ((bytes: number) => void) | null {
  const hook = options.onEarlyModel;
  if (!hook) return null;
  const after = options.earlyBytes ?? EARLY_BYTES;
  let fired = false;
  return (bytes) => {
    // Before the builder starts (fewer than 20 records so far), no partial model can be shown yet.
    if (fired || bytes < after || !reading.builder) return;
    fired = true;
    hook(partialModel(reading, { ...file, bytesRead: bytes }));
  };
}

/** Bytes read before the events per byte are taken as the file's: at least this (see eventSizer). */
const SIZE_FROM_BYTES = 1 << 20;

function builderSource(base: { fileName: string; path: string }, table: EventTable): BuilderSource {
  return {
    ...base,
    setDuration: (i, ms) => table.setDuration(i, ms),
    setStatus: (i, status) => table.setStatus(i, status),
    setUsage: (i, tokensIn, tokensOut, usage) => table.setUsage(i, tokensIn, tokensOut, usage),
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
    settleLineLabel(draft, rec.value, false);
    return table.add(draft, { line: rec.line, offset: rec.offset, length: rec.length });
  };
}

/** A multi-line JSON document's records (see {@link tryReadDocument}). */
export interface DocumentRecords {
  records: SourceRecord[];
  lineCount: number;
  gaps?: { finding: Finding; offset: number }[];
}

/** The first non-blank line of a JSONL file, parsed by the document test, so the read need not parse it again. */
export interface FirstLine {
  text: string;
  value: unknown;
}

/**
 * A file whose first non-blank line is not JSON on its own but starts a JSON object or array may be one
 * multi-line document (an OTLP export, a JSON array of events). Reads it whole (up to a cap) and returns its
 * records: the elements of a top-level array, or the object itself.
 */
export async function tryReadDocument(path: TracePath, maxBytes: number): Promise<DocumentRecords | null> {
  return (await documentTest(path, maxBytes)).document;
}

/**
 * {@link tryReadDocument}, also handing back the first line's value when it is a JSON value on its own line (JSONL):
 * the loader gives it to its reading, so that line too is parsed once.
 */
export async function documentTest(path: TracePath, maxBytes: number): Promise<{ document: DocumentRecords | null; first: FirstLine | null }> {
  const head = (await readHead(path, 64 * 1024)).toString('utf8').replace(/^\uFEFF/, '');
  const firstLine = head.split(/\r\n|\r|\n/).find((l) => l.trim() !== '');
  const none = { document: null, first: null };
  if (firstLine === undefined) return none;
  const t = firstLine.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return none;
  try {
    // A complete JSON value on one line: JSONL.
    return { document: null, first: { text: firstLine, value: JSON.parse(firstLine) } };
  } catch {
    // fall through: may be a multi-line document
  }
  return { document: await readDocument(path, maxBytes), first: null };
}

async function readDocument(path: TracePath, maxBytes: number): Promise<DocumentRecords | null> {
  const text = await readText(path, maxBytes);
  if (text === null) return null;
  let value: unknown;
  let parts: ConcatenatedJson | null = null;
  let salvaged: SalvagedJson | null = null;
  try {
    value = JSON.parse(text);
  } catch {
    // Several pretty-printed values one after another (the Python SDK's console exporter) are records too.
    parts = splitConcatenatedJson(text);
    if (!parts) {
      // One pretty-printed document with a damaged line or a torn end (Continue's session, a Gemini .json
      // recording): what parses is read, each left-out stretch a finding at its line.
      salvaged = salvageJson(text);
      if (!salvaged) return null;
      value = salvaged.value;
    }
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
  return { records, lineCount: lineStarts.length, ...(salvaged ? { gaps: salvagedGaps(text, salvaged, lineAt, lineStarts.length) } : {}) };
}

/** The stretches a salvaged document left out, each a finding at the line where it starts. */
function salvagedGaps(text: string, salvaged: SalvagedJson, lineAt: (pos: number) => number, lineCount: number): { finding: Finding; offset: number }[] {
  return salvaged.gaps.map((g) => {
    const line = lineAt(g.start);
    const finding: Finding = g.torn
      ? { rule: 'parse/torn-tail', severity: PARSE_CATALOG.severityOf('parse/torn-tail'), line, message: `The JSON document is cut off: the file ends inside the value on line ${line} (of ${lineCount}), a write still in progress or a truncated copy. What came before it is shown.` }
      : { rule: 'parse/invalid-json', severity: PARSE_CATALOG.severityOf('parse/invalid-json'), line, message: `Line ${line} of the JSON document does not parse: it is left out and reading went on at the next line.` };
    return { finding, offset: Buffer.byteLength(text.slice(0, g.start)) };
  });
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
