import { openChunks, readRange } from './byteSource';

/** Where one line sits in the file. Offsets and lengths are in bytes; the length excludes the line break. */
export interface LineSpan {
  /** 1-based line number. */
  line: number;
  /** Byte offset of the line's first byte (after a BOM on line 1). */
  offset: number;
  /** Bytes of content, without `\n` or `\r\n`. */
  length: number;
  /** False only for a last line that has no newline. */
  terminated: boolean;
  /** True when the line ended with `\r\n`. */
  crlf: boolean;
}

/** Options for {@link scanLines}. */
export interface ScanOptions {
  /** Bytes read per call; default 1 MiB. */
  chunkSize?: number;
  /** Lines longer than this are indexed but their bytes are not handed over (`bytes` is null). Default 256 MiB. */
  maxLineBytes?: number;
  /** Byte offset to start at (must be a line start); used to read what was appended to a growing file. */
  startOffset?: number;
  /** Line number of the line at `startOffset`; default 1. */
  startLine?: number;
  /** Called after each chunk with bytes consumed so far. */
  onProgress?: (bytesRead: number) => void;
  /** Polled between chunks; returning true stops the scan early. */
  isCancelled?: () => boolean;
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

/**
 * Reads a file in byte chunks and calls `onLine` for every line with its span and its bytes
 * (null when the line is longer than `maxLineBytes`). The bytes may be a view of the read buffer: they are
 * valid only during the callback, so copy them to keep them. Never decodes the file as one string and never
 * uses readline, so memory stays bounded by the longest line kept.
 */
export async function scanLines(
  path: string,
  onLine: (span: LineSpan, bytes: Buffer | null) => void,
  options: ScanOptions = {},
): Promise<ScanResult> {
  const chunkSize = options.chunkSize ?? 1 << 20;
  const maxLineBytes = options.maxLineBytes ?? 256 * 1024 * 1024;
  // The byte source hands over the content (a `.gz` decompressed); offsets below are content offsets.
  const source = await openChunks(path, { chunkSize, startOffset: options.startOffset });
  let filePos = options.startOffset ?? 0;
  let lineNo = options.startLine ?? 1;
  let lineStart = filePos;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let overflow = false;
  let bom = false;
  let first = filePos === 0;
  let cancelled = false;

  const keep = (part: Buffer): void => {
    if (overflow) return;
    if (pendingBytes + part.length > maxLineBytes) {
      overflow = true;
      pending = [];
      return;
    }
    if (part.length > 0) pending.push(Buffer.from(part));
    pendingBytes += part.length;
  };
  const emit = (endPos: number, terminated: boolean): void => {
    let bytes: Buffer | null = overflow ? null : pending.length === 1 ? pending[0] : Buffer.concat(pending, pendingBytes);
    let length = endPos - lineStart;
    let crlf = false;
    if (terminated && length > 0 && (bytes ? bytes[bytes.length - 1] === 13 : false)) {
      crlf = true;
      length -= 1;
      bytes = bytes!.subarray(0, bytes!.length - 1);
    }
    onLine({ line: lineNo, offset: lineStart, length, terminated, crlf }, bytes);
    lineNo += 1;
    pending = [];
    pendingBytes = 0;
    overflow = false;
  };

  try {
    for (;;) {
      if (options.isCancelled?.()) {
        cancelled = true;
        break;
      }
      const read = await source.next();
      if (!read) break;
      const bytesRead = read.length;
      let view = read;
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
      for (;;) {
        const nl = view.indexOf(10, pos);
        if (nl < 0) {
          keep(view.subarray(pos));
          break;
        }
        if (pending.length === 0 && !overflow && nl - pos <= maxLineBytes) {
          // The whole line is in this chunk: hand over a view of it, no copy (valid during the callback).
          pending.push(view.subarray(pos, nl));
          pendingBytes = nl - pos;
        } else keep(view.subarray(pos, nl));
        emit(base + nl, true);
        pos = nl + 1;
        lineStart = base + pos;
      }
      filePos += bytesRead;
      options.onProgress?.(filePos);
    }
    if (!cancelled && filePos > lineStart) emit(filePos, false);
  } finally {
    await source.close();
  }
  return { bytesRead: filePos, lines: lineNo - (options.startLine ?? 1), bom, cancelled, endedEarly: source.endedEarly() };
}

/** Reads `length` bytes at `offset`: the bytes of one indexed line (content offsets, as {@link scanLines} gives). */
export function readSpan(path: string, offset: number, length: number): Promise<Buffer> {
  return readRange(path, offset, length);
}
