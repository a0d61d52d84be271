/**
 * Text search in files too big to hold: a query (plain or a regular expression, with or without case) is
 * tested on fixed-size chunks decoded as UTF-8, each with the end of the chunk before it, so a match across
 * a chunk boundary is still found. Memory is bounded by the chunk size, whatever the file's size.
 */
import { open } from 'node:fs/promises';
import { jsonEscaped, asciiEscaped } from '../filter/textNeedles';

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
  return { find: (t) => firstMatch(re, t), overlap: Math.max(...forms.map((f) => f.length)) - 1 };
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
