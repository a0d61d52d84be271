/**
 * Text search in files too big to hold: a query (plain or a regular expression, with or without case) is
 * tested on fixed-size chunks decoded as UTF-8, each with the end of the chunk before it, so a match across
 * a chunk boundary is still found. Memory is bounded by the chunk size, whatever the file's size.
 */
import { Buffer } from 'buffer';
import { fileSystem, type OpenFile } from '../io/fileSystem';
import { jsonEscaped, asciiEscaped } from '../escapes';
import { byteFinder, type ByteFinder } from './byteSearch';
import { requiredLiterals } from './regexLiterals';
import { giveScanBuffer, takeScanBuffer } from './pairScan';

/** How the query is read. */
export interface QueryOptions {
  caseSensitive: boolean;
  regex: boolean;
}

/** A compiled query: where its first match in a text starts and ends, or null. */
export interface TextQuery {
  find(text: string): { index: number; length: number } | null;
  /** Characters of the previous chunk kept before the next, so boundary-crossing matches are seen. */
  overlap: number;
  /** The same search on raw UTF-8 bytes, when the query allows it (plain text), with its byte overlap. */
  bytes?: ByteQuery;
  /**
   * For a regular expression: a byte search for text every match contains (regexLiterals.ts). A file
   * without it cannot match, so it is neither decoded nor given to the expression.
   */
  prefilter?: ByteQuery;
}

/** A search on raw bytes and how many bytes of one chunk it keeps before the next. */
export interface ByteQuery {
  find: ByteFinder;
  overlap: number;
}

const REGEX_OVERLAP = 4096;

/**
 * Compiles a query. Plain text also matches its JSON-escaped forms (raw lines and JSON blobs hold strings
 * escaped). Throws a SyntaxError with the engine's message for a bad regular expression.
 */
export function compileTextQuery(query: string, options: QueryOptions): TextQuery {
  const flags = options.caseSensitive ? 'g' : 'gi';
  if (options.regex) {
    const re = new RegExp(query, flags);
    const q: TextQuery = { find: (t) => firstMatch(re, t), overlap: REGEX_OVERLAP };
    const literals = requiredLiterals(query, flags);
    if (literals) q.prefilter = byteQuery(literals, !options.caseSensitive);
    return q;
  }
  const forms = [...new Set([query, jsonEscaped(query), asciiEscaped(query)])];
  const re = new RegExp(forms.map(escapeRegExp).join('|'), flags);
  const q: TextQuery = { find: (t) => firstMatch(re, t), overlap: Math.max(...forms.map((f) => f.length)) - 1 };
  // Bytes fold ASCII letters only: a non-ASCII query that ignores case keeps the decoding search.
  if (options.caseSensitive || /^[\x00-\x7f]*$/.test(query)) {
    q.bytes = byteQuery(forms, !options.caseSensitive);
  }
  return q;
}

function byteQuery(texts: string[], ignoreCase: boolean): ByteQuery {
  const needles = texts.map((f) => Buffer.from(f, 'utf8'));
  return { find: byteFinder(needles, ignoreCase), overlap: Math.max(...needles.map((n) => n.length)) - 1 };
}

function firstMatch(re: RegExp, text: string): { index: number; length: number } | null {
  re.lastIndex = 0;
  const m = re.exec(text);
  // An empty match (`a*`) would match everywhere: it is no find.
  return m && m[0].length > 0 ? { index: m.index, length: m[0].length } : null;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Options for {@link searchFile}. */
export interface SearchFileOptions {
  chunkSize?: number;
  /** Bytes read at most (the rest of a bigger file is not searched). */
  maxBytes?: number;
  isCancelled?: () => boolean;
  /** Called after each chunk with the bytes read in it (each byte of the file counted once). */
  onBytes?: (n: number) => void;
}

/** The first match in a file: its text and some context around it, for a result list. */
export interface FileMatch {
  snippet: string;
  /** Offset of the match inside `snippet`, in UTF-16 units, and its length. */
  at: number;
  length: number;
}

const CONTEXT = 60;

/** Searches a file for the first match of `query`; null when there is none (or the search was cancelled). */
export async function searchFile(path: string, query: TextQuery, options: SearchFileOptions = {}): Promise<FileMatch | null> {
  const fh = await fileSystem().open(path);
  try {
    return await searchOpenFile(fh, (await fh.stat()).size, query, options);
  } finally {
    await fh.close();
  }
}

/**
 * Searches an opened file of `size` bytes (its size when opened: bytes appended later are not searched).
 * A regular expression with a prefilter is run only on a file that holds the prefilter's text, over the
 * whole file as without it; a file read whole in one chunk is decoded from that chunk, not read again.
 */
export async function searchOpenFile(fh: OpenFile, size: number, query: TextQuery, options: SearchFileOptions = {}): Promise<FileMatch | null> {
  if (query.bytes) {
    const m = await scanBytes(fh, size, query.bytes, options);
    return m && byteSnippet(m.buf, m.end, m.match);
  }
  if (!query.prefilter) return searchText(fh, size, query, options, 0);
  const m = await scanBytes(fh, size, query.prefilter, options);
  if (!m) return null;
  if (m.whole) {
    const text = new TextDecoder('utf-8').decode(m.buf.subarray(0, m.end));
    const found = query.find(text);
    return found && snippetOf(text, found);
  }
  return searchText(fh, size, query, options, m.read);
}

/**
 * Read buffers kept for the next file: a blob store holds thousands of small files. They come from the pair
 * scan's memory while it has room (a chunk read there is scanned where it landed, not copied), else from here.
 */
const pool: Buffer[] = [];

function takeBuffer(bytes: number): Buffer {
  const scan = takeScanBuffer(bytes);
  if (scan) return scan;
  const i = pool.findIndex((b) => b.length >= bytes);
  return i >= 0 ? pool.splice(i, 1)[0] : Buffer.allocUnsafe(bytes);
}

function giveBack(buf: Buffer): void {
  if (!giveScanBuffer(buf) && pool.length < 8) pool.push(buf);
}

interface ByteHit {
  buf: Buffer;
  end: number;
  match: { index: number; length: number };
  /** Bytes of the file read so far, and whether they are all of it, from `buf[0]` on. */
  read: number;
  whole: boolean;
}

/**
 * The byte path: each chunk is read after the previous chunk's last `overlap` bytes, in one buffer. A hit
 * holds the buffer: the caller must be done with it before the next file is searched on this turn.
 */
async function scanBytes(fh: OpenFile, fileSize: number, q: ByteQuery, options: SearchFileOptions): Promise<ByteHit | null> {
  const max = Math.min(fileSize, options.maxBytes ?? Infinity);
  const size = Math.min(options.chunkSize ?? 1 << 20, Math.max(max, 1));
  const buf = takeBuffer(q.overlap + size);
  try {
    let kept = 0;
    let read = 0;
    while (read < max && !options.isCancelled?.()) {
      const { bytesRead } = await fh.read(buf, kept, Math.min(size, max - read), read);
      if (bytesRead === 0) break;
      read += bytesRead;
      options.onBytes?.(bytesRead);
      const end = kept + bytesRead;
      const m = q.find(buf, end);
      if (m) return { buf: Buffer.from(buf.subarray(0, end)), end, match: m, read, whole: read === bytesRead && read >= fileSize };
      kept = Math.min(q.overlap, end);
      buf.copy(buf, 0, end - kept, end);
    }
    return null;
  } finally {
    giveBack(buf);
  }
}

function byteSnippet(buf: Buffer, end: number, m: { index: number; length: number }): FileMatch {
  // Context in bytes, moved off UTF-8 continuation bytes so no character is cut in half.
  let from = Math.max(0, m.index - CONTEXT);
  while (from > 0 && (buf[from] & 0xc0) === 0x80) from--;
  let to = Math.min(end, m.index + m.length + CONTEXT);
  while (to < end && (buf[to] & 0xc0) === 0x80) to++;
  const before = buf.toString('utf8', from, m.index);
  const match = buf.toString('utf8', m.index, m.index + m.length);
  return { snippet: before + match + buf.toString('utf8', m.index + m.length, to), at: before.length, length: match.length };
}

/** The decoding path, from the file's start; the first `counted` bytes were reported by a pass before. */
async function searchText(fh: OpenFile, fileSize: number, query: TextQuery, options: SearchFileOptions, counted: number): Promise<FileMatch | null> {
  const size = options.chunkSize ?? 1 << 20;
  const max = Math.min(fileSize, options.maxBytes ?? Infinity);
  const buf = takeBuffer(size);
  try {
    const decoder = new TextDecoder('utf-8');
    let carry = '';
    let read = 0;
    while (read < max && !options.isCancelled?.()) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(size, max - read), read);
      if (bytesRead === 0) break;
      const fresh = Math.max(0, read + bytesRead - Math.max(read, counted));
      read += bytesRead;
      if (fresh > 0) options.onBytes?.(fresh);
      const text = carry + decoder.decode(buf.subarray(0, bytesRead), { stream: true });
      const m = query.find(text);
      if (m) return snippetOf(text, m);
      carry = query.overlap > 0 ? text.slice(-query.overlap) : '';
    }
    return null;
  } finally {
    giveBack(buf);
  }
}

function snippetOf(text: string, m: { index: number; length: number }): FileMatch {
  const from = Math.max(0, m.index - CONTEXT);
  const to = Math.min(text.length, m.index + m.length + CONTEXT);
  return { snippet: text.slice(from, to), at: m.index - from, length: m.length };
}
