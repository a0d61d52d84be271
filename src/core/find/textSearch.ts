/**
 * Text search in files too big to hold: a query (plain or a regular expression, with or without case) is
 * tested on fixed-size chunks decoded as UTF-8, each with the end of the chunk before it, so a match across
 * a chunk boundary is still found. Memory is bounded by the chunk size, whatever the file's size.
 */
import { open } from 'node:fs/promises';
import { jsonEscaped, asciiEscaped } from '../filter/textNeedles';
import { byteFinder, type ByteFinder } from './byteSearch';

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
  bytes?: { find: ByteFinder; overlap: number };
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
    return { find: (t) => firstMatch(re, t), overlap: REGEX_OVERLAP };
  }
  const forms = [...new Set([query, jsonEscaped(query), asciiEscaped(query)])];
  const re = new RegExp(forms.map(escapeRegExp).join('|'), flags);
  const q: TextQuery = { find: (t) => firstMatch(re, t), overlap: Math.max(...forms.map((f) => f.length)) - 1 };
  // Bytes fold ASCII letters only: a non-ASCII query that ignores case keeps the decoding search.
  if (options.caseSensitive || /^[\x00-\x7f]*$/.test(query)) {
    const needles = forms.map((f) => Buffer.from(f, 'utf8'));
    q.bytes = { find: byteFinder(needles, !options.caseSensitive), overlap: Math.max(...needles.map((n) => n.length)) - 1 };
  }
  return q;
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
  /** Called after each chunk with the bytes read in it. */
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
  return query.bytes ? searchFileBytes(path, query.bytes, options) : searchFileText(path, query, options);
}

/** Read buffers kept for the next file: a blob store holds thousands of small files. */
const pool: Buffer[] = [];

function takeBuffer(bytes: number): Buffer {
  const i = pool.findIndex((b) => b.length >= bytes);
  return i >= 0 ? pool.splice(i, 1)[0] : Buffer.allocUnsafe(bytes);
}

/** The byte path: each chunk is read after the previous chunk's last `overlap` bytes, in one buffer. */
async function searchFileBytes(path: string, q: NonNullable<TextQuery['bytes']>, options: SearchFileOptions): Promise<FileMatch | null> {
  const size = options.chunkSize ?? 1 << 20;
  const max = options.maxBytes ?? Infinity;
  const fh = await open(path, 'r');
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
      if (m) return byteSnippet(buf, end, m);
      kept = Math.min(q.overlap, end);
      buf.copy(buf, 0, end - kept, end);
    }
    return null;
  } finally {
    if (pool.length < 4) pool.push(buf);
    await fh.close();
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

async function searchFileText(path: string, query: TextQuery, options: SearchFileOptions): Promise<FileMatch | null> {
  const size = options.chunkSize ?? 1 << 20;
  const max = options.maxBytes ?? Infinity;
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(size);
    const decoder = new TextDecoder('utf-8');
    let carry = '';
    let read = 0;
    while (read < max && !options.isCancelled?.()) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(size, max - read), read);
      if (bytesRead === 0) break;
      read += bytesRead;
      options.onBytes?.(bytesRead);
      const text = carry + decoder.decode(buf.subarray(0, bytesRead), { stream: true });
      const m = query.find(text);
      if (m) return snippetOf(text, m);
      carry = query.overlap > 0 ? text.slice(-query.overlap) : '';
    }
    return null;
  } finally {
    await fh.close();
  }
}

function snippetOf(text: string, m: { index: number; length: number }): FileMatch {
  const from = Math.max(0, m.index - CONTEXT);
  const to = Math.min(text.length, m.index + m.length + CONTEXT);
  return { snippet: text.slice(from, to), at: m.index - from, length: m.length };
}
