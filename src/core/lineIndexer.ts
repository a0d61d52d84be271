import { Buffer } from 'buffer';
import { isUtf8 } from './io/platform';
import { openChunks, readRange } from './byteSource';
import type { TracePath } from './tracePath';

/**
 * Where one line sits in the file. Offsets and lengths are in bytes; the length excludes the line break.
 * Line breaks follow VS Code's editor, so line numbers agree with its Problems panel: `\n`, `\r\n` and a lone
 * `\r` each end a line.
 */
export interface LineSpan {
  /** 1-based line number. */
  line: number;
  /** Byte offset of the line's first byte (after a BOM on line 1). */
  offset: number;
  /** Bytes of content, without its line break. */
  length: number;
  /** False only for a last line that has no line break. */
  terminated: boolean;
  /** True when the line ended with `\r\n`. */
  crlf: boolean;
  /** True when the line ended with a lone `\r` (no `\n` after it). */
  cr?: boolean;
}

/** Options for {@link scanLines}. */
export interface ScanOptions {
  /** Bytes read per call; default 1 MiB. */
  chunkSize?: number;
  /** Lines longer than this are indexed but their bytes are not handed over (`bytes` is null). Default 256 MiB. */
  maxLineBytes?: number;
  /** Byte offset to start at (must be a line start); used to read what was appended to a growing file. */
  startOffset?: number;
  /**
   * Byte offset to stop at: the scan sees the file as if it ended there. Checks pass the byte count the model
   * read, so a file that grows meanwhile is judged on exactly the bytes the model was built from.
   */
  endOffset?: number;
  /** Line number of the line at `startOffset`; default 1. */
  startLine?: number;
  /** Called after each chunk with bytes consumed so far. */
  onProgress?: (bytesRead: number) => void;
  /** Polled between chunks; returning true stops the scan early. */
  isCancelled?: () => boolean;
  /**
   * Read buffers to reuse (`readBuffers(chunkSize, true)`): a reader of many pieces of one file passes the same ones
   * to each scan, in turn (never to two scans at once).
   */
  buffers?: Buffer[];
}

/** What a scan saw of the file as a whole. */
export interface ScanResult {
  /** Bytes of the file that were scanned (up to the end at the time of reading). */
  bytesRead: number;
  /** Lines seen, including blank ones. */
  lines: number;
  /** The file started with a UTF-8 byte-order mark. */
  bom: boolean;
  /** The scan stopped because `isCancelled` said so. */
  cancelled: boolean;
  /** Why the content ended before the file did (a truncated .gz, from the byte source), or null. */
  endedEarly: string | null;
}

const LF = 10;
const CR = 13;

/** Collects one line's bytes across chunks, dropping them once the line passes the size limit. */
class LineBytes {
  private parts: Buffer[] = [];
  private size = 0;
  overflow = false;
  constructor(private readonly max: number) {}
  /** Keeps a copy: the chunk buffer is reused by the next read. */
  keep(part: Buffer): void {
    if (this.overflow) return;
    if (this.size + part.length > this.max) {
      this.overflow = true;
      this.parts = [];
      return;
    }
    if (part.length > 0) this.parts.push(Buffer.from(part));
    this.size += part.length;
  }
  /** Nothing is kept: the next line starts in the current chunk. */
  get empty(): boolean {
    return this.size === 0 && !this.overflow;
  }
  /** The whole line: `tail` (a view of the current chunk, not copied) appended to what was kept. */
  take(tail: Buffer): Buffer | null {
    let out: Buffer | null;
    if (this.overflow || this.size + tail.length > this.max) out = null;
    else if (this.parts.length === 0) out = tail;
    else out = Buffer.concat([...this.parts, tail], this.size + tail.length);
    this.parts = [];
    this.size = 0;
    this.overflow = false;
    return out;
  }
}

/**
 * Reads a file in byte chunks and calls `onLine` for every line with its span and its bytes
 * (null when the line is longer than `maxLineBytes`). The bytes may be a view of the read buffer: they are
 * valid only during the callback, so copy them to keep them. Never decodes the file as one string and never
 * uses readline, so memory stays bounded by the longest line kept. `utf8` is true when the line's bytes are known
 * to be valid UTF-8: they lie in a stretch of whole lines of one chunk that was checked at once (a line break is a
 * character of its own in UTF-8, so every line of a valid stretch is valid); false when nobody checked.
 */
export async function scanLines(
  path: TracePath,
  onLine: (span: LineSpan, bytes: Buffer | null, utf8: boolean) => void,
  options: ScanOptions = {},
): Promise<ScanResult> {
  const chunkSize = options.chunkSize ?? 1 << 20;
  const endOffset = options.endOffset ?? Infinity;
  // The byte source hands over the content (a `.gz` decompressed); offsets below are content offsets.
  const source = await openChunks(path, { chunkSize, startOffset: options.startOffset, readAhead: true, buffers: options.buffers });
  const kept = new LineBytes(options.maxLineBytes ?? 256 * 1024 * 1024);
  let filePos = options.startOffset ?? 0;
  let lineNo = options.startLine ?? 1;
  let lineStart = filePos;
  let bom = false;
  let first = filePos === 0;
  let cancelled = false;
  // A CR was the last byte of the previous chunk: whether it is CRLF depends on the next byte.
  let crPending = false;

  const emit = (tail: Buffer, endPos: number, eol: 'lf' | 'crlf' | 'cr' | 'none', utf8 = false): void => {
    const span: LineSpan = { line: lineNo, offset: lineStart, length: endPos - lineStart, terminated: eol !== 'none', crlf: eol === 'crlf' };
    if (eol === 'cr') span.cr = true;
    onLine(span, kept.take(tail), utf8);
    lineNo += 1;
  };

  try {
    for (;;) {
      if (options.isCancelled?.()) {
        cancelled = true;
        break;
      }
      const read = filePos < endOffset ? await source.next() : null;
      if (!read || read.length === 0) break;
      // Never past `endOffset`: the bytes after it were not in the model the checks judge.
      let view = read.length > endOffset - filePos ? read.subarray(0, endOffset - filePos) : read;
      const bytesRead = view.length;
      let base = filePos;
      if (first) {
        first = false;
        if (view.length >= 3 && view[0] === 0xef && view[1] === 0xbb && view[2] === 0xbf) {
          bom = true;
          view = view.subarray(3);
          base += 3;
          lineStart = 3;
        }
      }
      let pos = 0;
      if (crPending) {
        crPending = false;
        const crlf = view[0] === LF;
        emit(view.subarray(0, 0), base - 1, crlf ? 'crlf' : 'cr');
        pos = crlf ? 1 : 0;
        lineStart = base + pos;
      }
      // The whole lines of this chunk up to its last LF (from the first line that starts in it), checked for UTF-8
      // once: each line in that stretch need not be checked again (about 0.1 µs a line).
      let validFrom = Infinity;
      let validTo = -1;
      const lastLf = view.lastIndexOf(LF);
      if (lastLf >= pos) {
        const from = kept.empty ? pos : view.indexOf(LF, pos) + 1;
        if (from <= lastLf && isUtf8(view.subarray(from, lastLf + 1))) (validFrom = from), (validTo = lastLf);
      }
      let nextLf = view.indexOf(LF, pos);
      let nextCr = view.indexOf(CR, pos);
      for (;;) {
        if (nextLf >= 0 && nextLf < pos) nextLf = view.indexOf(LF, pos);
        if (nextCr >= 0 && nextCr < pos) nextCr = view.indexOf(CR, pos);
        const crFirst = nextCr >= 0 && (nextLf < 0 || nextCr < nextLf);
        const brk = crFirst ? nextCr : nextLf;
        if (brk < 0) {
          kept.keep(view.subarray(pos));
          break;
        }
        if (crFirst && brk === view.length - 1) {
          kept.keep(view.subarray(pos, brk));
          crPending = true;
          break;
        }
        const crlf = crFirst && view[brk + 1] === LF;
        emit(view.subarray(pos, brk), base + brk, crlf ? 'crlf' : crFirst ? 'cr' : 'lf', pos >= validFrom && brk <= validTo && kept.empty);
        pos = brk + (crlf ? 2 : 1);
        lineStart = base + pos;
      }
      filePos += bytesRead;
      options.onProgress?.(filePos);
    }
    if (!cancelled && crPending) emit(Buffer.alloc(0), filePos - 1, 'cr');
    else if (!cancelled && filePos > lineStart) emit(Buffer.alloc(0), filePos, 'none');
  } finally {
    await source.close();
  }
  return { bytesRead: filePos, lines: lineNo - (options.startLine ?? 1), bom, cancelled, endedEarly: source.endedEarly() };
}

/** Reads `length` bytes at `offset`: the bytes of one indexed line (content offsets, as {@link scanLines} gives). */
export function readSpan(path: TracePath, offset: number, length: number): Promise<Buffer> {
  return readRange(path, offset, length);
}
