import { Buffer } from 'buffer';
import { fileSystem } from '../io/fileSystem';
import { holdTrace } from '../io/traceHandles';
import { probeFile, readHead } from '../byteSource';
import type { CheckResult, LoggedCheckResult, RunOptions } from '../checks/runChecks';
import { LineChecks } from '../checks/lineChecks';
import { CheckedReading } from '../checkedReading';
import type { CheckMode, CheckSubject } from '../rules/types';
import { JsonlReading, sampleBaseOf } from '../jsonlReading';
import { closingDiagnostics, finishDiagnostics } from '../jsonlModel';
import type { ScanResult } from '../lineIndexer';
import { scanJsonl } from '../parallel/scanJsonl';
import { documentTest, FirstLine, FORCED_REASON, loadTraceChecked } from '../loadTrace';
import type { FormatName } from '../model';
import { shownPath, TracePath } from '../tracePath';
import { CheckFacts } from './checkFacts';
import { eventSizer } from '../eventSizer';
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
 * How the last run went, for tests and the bench: `streamed` (verify, one read into compact facts), `ranges` (the same,
 * the lines after the head read and digested in range workers), `model` (the checks rode along the loader's read:
 * check mode, whose usage totals rule needs the model), `document` (a multi-line JSON document, read whole) or
 * `not-a-file` (the loader says why).
 */
export type StreamOutcome = 'streamed' | 'ranges' | 'model' | 'document' | 'not-a-file';

const MAX_LINE_BYTES = 256 * 1024 * 1024;
const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

/**
 * Verifies (`verify`) or checks (`check`) a trace in one read, each line parsed once. Verification keeps only what
 * its checks read ({@link CheckFacts}) instead of the viewer's model; conformance reads through the loader with its
 * checks riding along ({@link LoadOptions.checks}), since the usage totals rule needs the model. The choice is made
 * before the read, never part-way. The findings are the ones {@link runChecks} makes over the loaded model (a test
 * compares both on every corpus file). `onOutcome` says which way it went. With `options.findingLog` the findings
 * come in a {@link FindingLog}, compact, for a writer that hands them on one at a time.
 */
export function streamChecks(file: TracePath, mode: CheckMode, options: StreamCheckOptions & { findingLog: true }, onOutcome?: (o: StreamOutcome) => void): Promise<LoggedCheckResult>;
export function streamChecks(file: TracePath, mode: CheckMode, options?: StreamCheckOptions, onOutcome?: (o: StreamOutcome) => void): Promise<CheckResult>;
export function streamChecks(file: TracePath, mode: CheckMode, options: StreamCheckOptions = {}, onOutcome?: (o: StreamOutcome) => void): Promise<CheckResult | LoggedCheckResult> {
  // Every read of the trace in the run (probe, document test, byte-order mark, scan) shares one open file
  // (io/traceHandles.ts).
  return holdTrace(file, () => checkHeld(file, mode, options, onOutcome));
}

async function checkHeld(file: TracePath, mode: CheckMode, options: StreamCheckOptions, onOutcome?: (o: StreamOutcome) => void): Promise<CheckResult> {
  const byModel = async (why: StreamOutcome): Promise<CheckResult> => {
    onOutcome?.(why);
    const load = { format: options.format, workers: options.workers, isCancelled: options.isCancelled, onProgress: options.onProgress, parallelMinBytes: options.workerMinBytes, parallelHeadChunk: options.workerHeadChunk, parallelMainShare: options.workerMainShare };
    const { results } = await loadTraceChecked(file, { ...load, checks: { modes: [mode], options } });
    return results.get(mode)!;
  };
  const info = await fileSystem().stat(file);
  if (!info.isFile()) return byModel('not-a-file'); // the loader says why, as before
  const compression = await probeFile(file); // refuses archives and binaries with the loader's message
  const { document, first } = await documentTest(file, MAX_DOCUMENT_BYTES);
  if (document) return byModel('document');
  if (mode === 'check') return byModel('model');
  const run = new StreamRun(file, mode, options, await startsWithBom(file), compression ? 0 : info.size);
  if (first) run.knowFirstLine(first);
  // Workers read ranges of a plain file only; the head (detection) is read here in any case.
  const workers = typeof file === 'string' && !compression ? options.workers ?? 0 : 0;
  const scan = await scanJsonl(file, run.sink, {
    isCancelled: options.isCancelled,
    onProgress: (n) => {
      run.sized(n);
      options.onProgress?.(n, info.size);
    },
  }, { workers, minBytes: options.workerMinBytes, size: info.size, headChunkBytes: options.workerHeadChunk, digest: [mode], mainShare: options.workerMainShare });
  const result = await run.finish(scan);
  onOutcome?.(run.ranged ? 'ranges' : 'streamed');
  return result;
}

/** The state of one streamed verification: the reading into compact facts, with its checks riding along. */
class StreamRun {
  private readonly facts = new CheckFacts();
  private readonly reading: JsonlReading<CheckFacts>;
  private readonly subject: CheckSubject;
  private readonly checks: LineChecks;
  readonly sink: CheckedReading<CheckFacts> & { ranged?: boolean };

  /** Sizes the facts for the events of the whole file (see eventSizer); null for a compressed file. */
  private readonly size: ((bytesRead: number) => void) | null;

  /** `sizeBytes`: the plain file's size, else 0. */
  constructor(file: TracePath, private readonly mode: CheckMode, options: StreamCheckOptions, bom: boolean, sizeBytes = 0) {
    this.size = sizeBytes > 0 ? eventSizer(sizeBytes, () => this.facts.size, (n) => this.facts.reserve(n)) : null;
    const path = shownPath(file);
    this.reading = new JsonlReading(sampleBaseOf(path), MAX_LINE_BYTES, options.format, FORCED_REASON, this.facts);
    const source = typeof file === 'string' ? undefined : file;
    this.subject = { path, ...(source ? { source } : {}), format: options.format ?? 'generic', events: this.facts, diagnostics: this.reading.diagnostics, lineCount: 0, bytesIndexed: 0, bom, document: false };
    this.checks = new LineChecks([mode], options, this.subject);
    this.sink = new RangedAware(this.reading, this.checks);
  }

  /** The first line as the document test parsed it: not parsed again. */
  knowFirstLine(first: FirstLine): void {
    this.reading.knowFirstLine(first);
  }

  /** Lines came from range workers. */
  get ranged(): boolean {
    return (this.sink as RangedAware).ranged;
  }

  /** Bytes read so far: the facts' columns are sized from them. */
  sized(bytesRead: number): void {
    this.size?.(bytesRead);
  }

  /** Ends the reading as the loader does, then the checks. */
  async finish(scan: ScanResult): Promise<CheckResult> {
    this.reading.startBuilding();
    const diagnostics = closingDiagnostics(this.reading, scan);
    const links = this.facts.links;
    const format = this.reading.detection!.format;
    const module = formatModule(format);
    const size = this.facts.size;
    let moreDiagnostics: CheckSubject['moreDiagnostics'];
    if (module.findElsewhere) {
      // The tree builder's findings, then parents found in the session's other files, as the loader adds them.
      links.findings(size, diagnostics);
      await resolveParentsElsewhere(module, this.subject.path, this.facts, { idIndex: { has: (id) => links.hasId(id) } }, diagnostics);
    } else {
      // No other file to look in: the tree builder's findings go straight to the checks' result, never held here
      // (the engine sorts them in by line, as it would from the diagnostics).
      moreDiagnostics = (take) => links.findings(size, { push: take });
    }
    finishDiagnostics(format, diagnostics);
    const subject = { ...this.subject, format, diagnostics, moreDiagnostics, lineCount: scan.lines, bytesIndexed: scan.bytesRead };
    return (await this.checks.finish(subject, format, formatModule(format), scan.cancelled)).get(this.mode)!;
  }
}

/** A checked reading that notes whether range workers sent lines. */
class RangedAware extends CheckedReading<CheckFacts> {
  ranged = false;
  override takeLine(...args: Parameters<CheckedReading<CheckFacts>['takeLine']>): void {
    this.ranged = true;
    super.takeLine(...args);
  }
}
/** Whether the content starts with a UTF-8 byte-order mark (the checks are made before the scan reports it). */
async function startsWithBom(file: TracePath): Promise<boolean> {
  const head = await readHead(file, 3);
  return head.length === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
}
