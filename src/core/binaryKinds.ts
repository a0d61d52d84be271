/**
 * What a file is, from its first bytes: text (maybe a trace), gzip (read through gunzip), or a binary format
 * that is never a JSONL trace. Magic numbers come from each format's own specification.
 */
import { Buffer } from 'buffer';

/** The verdict on a file's first bytes. */
export type HeadKind = 'text' | 'gzip' | 'binary' | BinaryFormat;

/** Binary formats recognised by their magic number, named as the one-line message says them. */
type BinaryFormat = 'utf16' | 'zip' | 'zstd' | 'bzip2' | 'xz' | '7z' | 'png' | 'jpeg' | 'gif' | 'pdf' | 'sqlite' | 'tar';

const MAGIC: readonly { kind: BinaryFormat; bytes: readonly (number | null)[]; at?: number }[] = [
  // UTF-16 byte-order marks: text, but not the UTF-8 every trace format is written in (and full of NULs).
  { kind: 'utf16', bytes: [0xff, 0xfe] },
  { kind: 'utf16', bytes: [0xfe, 0xff] },
  // A zip's local file header, an empty zip's end record, a spanned zip (Inspect `.eval` logs are zips).
  { kind: 'zip', bytes: [0x50, 0x4b, 0x03, 0x04] },
  { kind: 'zip', bytes: [0x50, 0x4b, 0x05, 0x06] },
  { kind: 'zip', bytes: [0x50, 0x4b, 0x07, 0x08] },
  { kind: 'zstd', bytes: [0x28, 0xb5, 0x2f, 0xfd] },
  // "BZh", the block size digit (any), then the first block's magic (digits of pi).
  { kind: 'bzip2', bytes: [0x42, 0x5a, 0x68, null, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59] },
  { kind: 'xz', bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] },
  { kind: '7z', bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { kind: 'png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { kind: 'jpeg', bytes: [0xff, 0xd8, 0xff] },
  { kind: 'gif', bytes: [0x47, 0x49, 0x46, 0x38] },
  { kind: 'pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  // "SQLite format 3\0"
  { kind: 'sqlite', bytes: [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66, 0x6f, 0x72, 0x6d, 0x61, 0x74, 0x20, 0x33, 0x00] },
  // POSIX tar: "ustar" at offset 257.
  { kind: 'tar', bytes: [0x75, 0x73, 0x74, 0x61, 0x72], at: 257 },
];

const WORDS: Record<Exclude<HeadKind, 'text' | 'gzip'>, string> = {
  utf16: 'UTF-16 text (traces are UTF-8)',
  zip: 'a zip archive',
  zstd: 'a zstd-compressed file',
  bzip2: 'a bzip2-compressed file',
  xz: 'an xz-compressed file',
  '7z': 'a 7z archive',
  png: 'a PNG image',
  jpeg: 'a JPEG image',
  gif: 'a GIF image',
  pdf: 'a PDF document',
  sqlite: 'an SQLite database',
  tar: 'a tar archive',
  binary: 'binary data',
};

/**
 * Classifies a file's first bytes (about 1 KB). Gzip is its magic `1f 8b`; any other known magic is its format;
 * otherwise the head is binary when it is not mostly text (see {@link looksBinary}). NUL bytes alone do not make
 * a file binary: a crash zeroes whole blocks of a JSONL file (ext4 leaves zeroed blocks behind), and such a file
 * is a damaged trace whose other lines are still readable; the reader flags each zeroed line at its line.
 */
export function classifyHead(head: Buffer): HeadKind {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  for (const m of MAGIC) {
    const at = m.at ?? 0;
    if (head.length >= at + m.bytes.length && m.bytes.every((b, i) => b === null || head[at + i] === b)) return m.kind;
  }
  return looksBinary(head) ? 'binary' : 'text';
}

/** Share of the bytes other than NUL that may be control bytes or broken UTF-8 before a head is binary. */
const BINARY_SHARE = 0.1;

/**
 * True when the bytes other than NUL are not mostly text: more than a tenth of them are control bytes (other
 * than tab, line feed, carriage return, form feed and escape) or bytes that start no valid UTF-8 sequence. NUL
 * bytes are left out of the count: a zeroed block is damage to a text file, not a sign of a binary one (a file
 * of nothing but NUL bytes is text with one damaged line). Random bytes, executables and images without a known
 * magic are about half such bytes; a trace with a few damaged lines is almost none. A multi-byte sequence cut
 * by the end of the head is not counted.
 */
export function looksBinary(head: Buffer): boolean {
  let text = 0;
  let odd = 0;
  for (let i = 0; i < head.length; ) {
    const b = head[i];
    if (b === 0) {
      i++;
      continue;
    }
    if (b < 0x80) {
      if ((b < 0x20 && b !== 9 && b !== 10 && b !== 13 && b !== 12 && b !== 27) || b === 0x7f) odd++;
      else text++;
      i++;
      continue;
    }
    const len = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    let ok = len > 0;
    for (let k = 1; ok && k < len; k++) {
      if (i + k >= head.length) break; // cut by the end of the head
      const c = head[i + k];
      if (c < 0x80 || c > 0xbf) ok = false;
    }
    if (ok) {
      text += len;
      i += len;
    } else {
      odd++;
      i++;
    }
  }
  return odd > 0 && odd > (odd + text) * BINARY_SHARE;
}

/** True when every byte of `bytes` is NUL (and there is at least one). */
export function allZero(bytes: Buffer): boolean {
  if (bytes.length === 0) return false;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}

/** The words for a non-text kind in a sentence: "a zip archive", "binary data". */
export function describeContent(kind: HeadKind): string {
  return kind === 'text' ? 'text' : kind === 'gzip' ? 'gzip data' : WORDS[kind];
}

/**
 * A file that is not a trace at all (an archive, an image, binary data): the CLI exits 2 with this one line,
 * the viewer shows it instead of a tree. The message starts with the file, e.g.
 * `run.eval is a zip archive, not a JSONL trace`.
 */
export class NotATraceError extends Error {
  readonly code = 'ENOTTRACE';
  constructor(
    readonly path: string,
    /** The predicate, e.g. `is a zip archive, not a JSONL trace`. */
    readonly what: string,
  ) {
    super(`${path} ${what}`);
  }
}
