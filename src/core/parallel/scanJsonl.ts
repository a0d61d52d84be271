import { Buffer } from 'buffer';
import { formatModule } from '../formats';
import type { CheckMode } from '../rules/types';
import { LineSpan, scanLines, ScanOptions, ScanResult } from '../lineIndexer';
import type { Detection } from '../traceModel';
import type { TracePath } from '../tracePath';
import { canDigest } from './rangeDigest';
import { LineTaker, readInParallel } from './parallelRead';

/** What {@link scanJsonl} reads into: a reading (the loader's), or a streamed check run around one. */
export interface JsonlSink extends LineTaker {
  /** Reads one line on this thread. */
  onLine(span: LineSpan, bytes: Buffer | null, utf8?: boolean): void;
  /** Set once detection started the format's builder: the head ends there. */
  readonly builder: unknown;
  readonly detection: Detection | null;
}

/** How a JSONL read may use worker threads. */
export interface ParallelChoice {
  /** Worker threads; 0 reads on the calling thread. */
  workers: number;
  /** Below this many bytes after the head, workers cost more than they save; default 4 MiB. */
  minBytes?: number;
  /** The file's size when the read began (the parallel part reads up to it). */
  size: number;
  /** Chunk size of the head read on this thread (tests make it small so workers see most of a small file). */
  headChunkBytes?: number;
  /**
   * Checks of these modes ride along the read: with one mode the workers digest lines for its checks too (when the
   * format can), otherwise the rest is read here.
   */
  digest?: readonly CheckMode[];
  /** Share of the bytes after the head that this thread parses itself (default: `mainShare(workers)`; tests place cuts with it). */
  mainShare?: number;
  /** Bytes of one round of pieces (default ROUND_BYTES). */
  roundBytes?: number;
}

/**
 * Scans a JSONL file into `reading`: on this thread, or, when workers are allowed and the detected format names
 * the fields its builder reads (`lineFields`), its head here (until the builder starts, after detection) and the
 * rest in pieces shared by this thread and the worker threads (see readInParallel). Both give the same lines to the
 * same builder in the same order, so the model is the same.
 */
export async function scanJsonl(file: TracePath, reading: JsonlSink, scan: ScanOptions, choice: ParallelChoice): Promise<ScanResult> {
  const minBytes = choice.minBytes ?? 4 << 20;
  if (choice.workers <= 0 || typeof file !== 'string' || choice.size < minBytes) return scanLines(file, (s, b, u) => reading.onLine(s, b, u), scan);
  // The head: small chunks, stopped once detection has started the builder, then resumed after the last whole line.
  const next = { offset: 0, line: 1 };
  const head = await scanLines(file, (span, bytes, utf8) => {
    reading.onLine(span, bytes, utf8);
    next.offset = span.offset + span.length + (span.crlf ? 2 : span.terminated ? 1 : 0);
    next.line = span.line + 1;
  }, { ...scan, chunkSize: choice.headChunkBytes ?? 16 * 1024, isCancelled: () => reading.builder !== null || (scan.isCancelled?.() ?? false) });
  if (!head.cancelled || scan.isCancelled?.()) return head;
  const format = reading.detection!.format;
  const fields = formatModule(format).lineFields;
  const rest = { ...scan, startOffset: next.offset, startLine: next.line };
  const digest = choice.digest === undefined || choice.digest.length === 0 ? undefined : choice.digest.length === 1 ? choice.digest[0] : null;
  const digestable = digest === undefined || (digest !== null && canDigest(format, digest));
  if (!fields || !digestable || choice.size - next.offset < minBytes) {
    const tail = await scanLines(file, (s, b, u) => reading.onLine(s, b, u), rest);
    return { ...tail, lines: next.line - 1 + tail.lines, bom: head.bom };
  }
  const par = await readInParallel(file, reading, fields, { start: next.offset, end: choice.size, line: next.line }, {
    workers: choice.workers, maxLineBytes: scan.maxLineBytes ?? 256 * 1024 * 1024, chunkSize: scan.chunkSize, onProgress: scan.onProgress, isCancelled: scan.isCancelled, format,
    ...(digest ? { digest: { format, mode: digest } } : {}), ...(choice.mainShare !== undefined ? { mainShare: choice.mainShare } : {}),
    ...(choice.roundBytes !== undefined ? { roundBytes: choice.roundBytes } : {}),
  });
  return { bytesRead: par.bytesRead, lines: next.line - 1 + par.lines, bom: head.bom || par.bom, cancelled: par.cancelled, endedEarly: null };
}
