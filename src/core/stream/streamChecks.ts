import { fileSystem } from '../io/fileSystem';
import { holdTrace } from '../io/traceHandles';
import { probeFile, readHead } from '../byteSource';
import { CheckSet, CheckResult, createChecks, finishChecks, RunOptions } from '../checks/runChecks';
import { runChecks } from '../formatRules';
import type { CheckMode, CheckSubject } from '../rules/types';
import { parseDecodedLine, ParsedLine } from '../json/jsonLine';
import { StreamLine } from './streamLine';
import { JsonlReading, sampleBaseOf } from '../jsonlReading';
import { closingDiagnostics, finishDiagnostics } from '../jsonlModel';
import { lineByteFindings } from '../lineFindings';
import type { LineSpan, ScanResult } from '../lineIndexer';
import type { Finding } from '../model';
import { scanJsonl } from '../parallel/scanJsonl';
import { LineExtra, lineForChecks } from '../parallel/rangeDigest';
import { FORCED_REASON, loadTrace, tryReadDocument } from '../loadTrace';
import type { FormatName } from '../model';
import type { Detection } from '../traceModel';
import { shownPath, TracePath } from '../tracePath';
import { CheckFacts } from './checkFacts';
import { eventSizer } from '../eventSizer';
import { appendAll } from '../arrays';
import { resolveParentsElsewhere } from '../crossFileParents';
import { formatModule } from '../formats';

/** Options for {@link streamChecks}. */
export interface StreamCheckOptions extends RunOptions {
  /** Read the file as this format instead of detecting it. */
  format?: FormatName;
  /**
   * Worker threads: with one or more, a format whose own check digests lines (`RuleModule.lineDigest`: lumen) has
   * the file read in newline-aligned pieces shared by this thread and the workers, which parse their lines and
   * digest them for the checks; this thread takes them in file order and runs the cross-line passes. The model-based path
   * uses them to parse. The result is the same either way.
   */
  workers?: number;
  /** Files smaller than this read on one thread (default 4 MiB: a worker's start costs more below it). */
  workerMinBytes?: number;
  /** Chunk size of the head read on this thread before the workers start (tests make it small). */
  workerHeadChunk?: number;
  /** Share of the bytes this thread parses beside the workers (tests place piece boundaries with it). */
  workerMainShare?: number;
}

/**
 * How the last run went: streamed, or why it fell back to the model (for tests and the bench). `ranges`: streamed,
 * with the lines after the head read and digested in range workers.
 */
export type StreamOutcome = 'streamed' | 'ranges' | 'document' | 'not-a-file' | 'usage' | 'head';

const MAX_LINE_BYTES = 256 * 1024 * 1024;
const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;
/** Lines held back until detection starts the builder; more than this (a head of bad lines) goes to the model. */
const MAX_HEAD_LINES = 10_000;

/**
 * Verifies (`verify`) or checks (`check`) a trace in one streamed read, without building the viewer's model: each
 * line is parsed once, its reading findings and the format's builder run as in the loader, but the events keep only
 * what the checks read ({@link CheckFacts}), and the same lines go straight on to the checks. The findings are the
 * ones {@link runChecks} makes over the loaded model (a test compares both on every corpus file). A multi-line JSON
 * document, and in check mode a file whose events carry usage (the totals rule needs the tree), are checked over the
 * model instead. `onOutcome` says which way it went.
 */
export function streamChecks(file: TracePath, mode: CheckMode, options: StreamCheckOptions = {}, onOutcome?: (o: StreamOutcome) => void): Promise<CheckResult> {
  // Every read of the trace in the run (probe, document test, byte-order mark, scan, a fallback load and its
  // checks) shares one open file (io/traceHandles.ts).
  return holdTrace(file, () => checkHeld(file, mode, options, onOutcome));
}

async function checkHeld(file: TracePath, mode: CheckMode, options: StreamCheckOptions, onOutcome?: (o: StreamOutcome) => void): Promise<CheckResult> {
  const byModel = async (why: StreamOutcome): Promise<CheckResult> => {
    onOutcome?.(why);
    return runChecks(await loadTrace(file, { format: options.format, workers: options.workers, isCancelled: options.isCancelled }), mode, options);
  };
  const info = await fileSystem().stat(file);
  if (!info.isFile()) return byModel('not-a-file'); // the loader says why, as before
  const compression = await probeFile(file); // refuses archives and binaries with the loader's message
  if (await tryReadDocument(file, MAX_DOCUMENT_BYTES)) return byModel('document');
  const run = new StreamRun(file, mode, options, await startsWithBom(file), compression ? 0 : info.size);
  // Workers read ranges of a plain file only; the head (detection) is read here in any case.
  const workers = typeof file === 'string' && !compression ? options.workers ?? 0 : 0;
  const scan = await scanJsonl(file, run, {
    isCancelled: () => run.fallback !== null || (options.isCancelled?.() ?? false),
    onProgress: (n) => options.onProgress?.(n, info.size),
  }, { workers, minBytes: options.workerMinBytes, size: info.size, headChunkBytes: options.workerHeadChunk, digest: mode, mainShare: options.workerMainShare });
  if (run.fallback === null) {
    const result = await run.finish(scan);
    if (run.fallback === null) {
      onOutcome?.(run.ranged ? 'ranges' : 'streamed');
      return result;
    }
  }
  return byModel(run.fallback);
}

/** The state of one streamed run: the reading, its compact facts, the checks once the format is known. */
class StreamRun {
  private readonly facts = new CheckFacts();
  private readonly reading: JsonlReading<CheckFacts>;
  private readonly subject: CheckSubject;
  private set: CheckSet | null = null;
  /** Lines read before detection chose the format (and so the checks), with their text. */
  private head: StreamLine[] = [];
  fallback: StreamOutcome | null = null;
  /** Lines came from range workers. */
  ranged = false;

  /** Sizes the facts for the events of the whole file (see eventSizer); null for a compressed file. */
  private readonly size: ((bytesRead: number) => void) | null;

  /** `sizeBytes`: the plain file's size, else 0. */
  constructor(file: TracePath, private readonly mode: CheckMode, private readonly options: StreamCheckOptions, bom: boolean, sizeBytes = 0) {
    this.size = sizeBytes > 0 ? eventSizer(sizeBytes, () => this.facts.size, (n) => this.facts.reserve(n)) : null;
    const path = shownPath(file);
    const sampleBase = sampleBaseOf(path);
    this.reading = new JsonlReading(sampleBase, MAX_LINE_BYTES, options.format, FORCED_REASON, this.facts);
    const source = typeof file === 'string' ? undefined : file;
    this.subject = { path, ...(source ? { source } : {}), format: options.format ?? 'generic', events: this.facts, diagnostics: this.reading.diagnostics, lineCount: 0, bytesIndexed: 0, bom, document: false };
  }

  onLine(span: LineSpan, bytes: Buffer | null, utf8 = false): void {
    if (this.fallback !== null) return;
    this.size?.(span.offset);
    // Decoded once, for the parse and for the checks that read the text (lumen's hash chain reads every line).
    const text = bytes ? bytes.toString('utf8') : '';
    const parsed = parseDecodedLine(span, bytes, text, MAX_LINE_BYTES);
    this.reading.takeLine(span, lineByteFindings(span, bytes, utf8), parsed);
    if (this.needsModel()) return;
    if (this.set) {
      const input = new StreamLine(span.line, text, parsed, bytes ?? undefined, utf8);
      for (const c of this.set.checks) c.add(input);
      return;
    }
    // Held until detection: without the bytes, a view of a read buffer that the next chunk reuses.
    this.head.push(new StreamLine(span.line, text, parsed));
    if (this.reading.builder) this.startChecks();
    else if (this.head.length > MAX_HEAD_LINES) this.fallback = 'head';
  }

  /** Takes a line a range worker read, with its digest for the checks or its text. */
  takeLine(span: LineSpan, byteFindings: readonly Finding[], parsed: ParsedLine, extra?: LineExtra): void {
    if (this.fallback !== null) return;
    if (!extra) throw new Error('a streamed check needs each line\'s digest or text from the range workers');
    this.ranged = true;
    this.size?.(span.offset);
    this.reading.takeLine(span, byteFindings, parsed);
    if (this.needsModel()) return;
    if (!this.set) this.startChecks();
    const input = lineForChecks(span.line, parsed, extra);
    for (const c of this.set!.checks) c.add(input);
  }

  /** The reading's builder: detection is done once it is set (the head read on this thread ends there). */
  get builder(): unknown {
    return this.reading.builder;
  }

  get detection(): Detection | null {
    return this.reading.detection;
  }

  /** Ends the reading as the loader does, then the checks; `fallback` is set when the model must check instead. */
  async finish(scan: ScanResult): Promise<CheckResult> {
    this.reading.startBuilding();
    if (!this.set) this.startChecks();
    const diagnostics = closingDiagnostics(this.reading, scan);
    this.needsModel();
    // The tree builder's findings, then parents found in the session's other files, as the loader adds them.
    appendAll(diagnostics, this.facts.links.findings(this.facts.size));
    const links = this.facts.links;
    await resolveParentsElsewhere(formatModule(this.subject.format), this.subject.path, this.facts, { idIndex: { has: (id) => links.hasId(id) } }, diagnostics);
    finishDiagnostics(this.subject.format, diagnostics);
    Object.assign(this.subject, { diagnostics, lineCount: scan.lines, bytesIndexed: scan.bytesRead });
    return finishChecks(this.set!, this.subject, this.mode, this.options, scan.cancelled);
  }

  /** Detection is done: makes the checks of the format and hands them the lines held back. */
  private startChecks(): void {
    this.subject.format = this.reading.detection!.format;
    const ctx = { path: this.subject.path, model: this.subject, blobOptions: this.options.blobOptions, isCancelled: this.options.isCancelled };
    this.set = createChecks(ctx, this.mode, formatModule(this.subject.format));
    for (const input of this.head) for (const c of this.set.checks) c.add(input);
    this.head = [];
  }

  /** Whether an event so far carries what only the model checks: usage, for check's totals rule. */
  private needsModel(): boolean {
    const need = this.facts.needsModel;
    if (need === 'usage' && this.mode === 'check') this.fallback = need;
    return this.fallback !== null;
  }
}

/** Whether the content starts with a UTF-8 byte-order mark (the checks are made before the scan reports it). */
async function startsWithBom(file: TracePath): Promise<boolean> {
  const head = await readHead(file, 3);
  return head.length === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
}
