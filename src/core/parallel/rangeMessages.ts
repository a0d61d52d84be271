import type { LineDigestColumns } from '../rules/types';
import type { Finding, FormatName } from '../model';
import type { DigestJob } from './rangeDigest';
import type { FactBatch } from '../lineFacts';

/** What one range worker is asked to read. */
export interface RangeJob {
  path: string;
  /**
   * Its pieces of the file, in file order: `piece` is the piece's number in the whole read; byte offsets: `start`
   * is a line start, `end` is just after a line break or the end of the file.
   */
  pieces: { piece: number; start: number; end: number }[];
  fields: readonly string[];
  /** The format whose `lineScanner` (if it has one) reads lines before JSON.parse does. */
  format?: FormatName;
  maxLineBytes: number;
  /** A SharedArrayBuffer of one Int32: batches of this worker the main thread has taken (the worker's credit). */
  taken: SharedArrayBuffer;
  /** For a streamed verify or check: digest each line for the checks too (rangeDigest.ts). */
  digest?: DigestJob;
}

/** What a line turned out to be. */
export const enum LineKind {
  /** A JSON object: its facts are the next row of `facts`. */
  Facts = 0,
  /** Another JSON value (array, string, number…): its JSON text is the next entry of `json`. */
  Json = 1,
  Blank = 2,
  Malformed = 3,
}

/**
 * Consecutive lines of one piece, as a worker posts them. Line numbers are not known in the worker (they depend
 * on the pieces before); findings carry the row, and the main thread sets their line.
 */
export interface RangeBatch {
  /** The piece these lines are of (RangeJob.pieces). */
  piece: number;
  count: number;
  kinds: Uint8Array;
  offsets: Float64Array;
  lengths: Float64Array;
  /** Per line: 1 terminated, 2 CRLF, 4 lone CR. */
  flags: Uint8Array;
  /** Byte findings (invalid UTF-8, lone CR), in line order. */
  findings: { row: number; finding: Finding }[];
  /** Parse findings of malformed lines, in line order. */
  malformed: { row: number; finding: Finding }[];
  /** Per line: its row in `facts` (-1 for a line that is not a JSON object). */
  factRows: Int32Array;
  json: string[];
  facts: FactBatch;
  /** With a digest job, per line: its row in `digest`, or -1 when its text is the next entry of `texts`. */
  digestRows?: Int32Array;
  digest?: LineDigestColumns;
  texts?: string[];
  /** On the last batch of a piece: what its scan saw. */
  done?: { bytesRead: number; lines: number; bom: boolean };
}
