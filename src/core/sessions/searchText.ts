/**
 * What the search across sessions indexes of a trace's records, and its snippets: a line's strings (ids, times and
 * metadata left out), what a line's events say its text is (prompt, reply, tool input or output), and for a
 * one-document trace the strings under each event's line, placed with the loader's own `locate` (no second parse).
 */
import type { SourceRecord } from '../format';
import type { SearchField } from './searchStore';

/** Characters of a line's strings indexed, at most: enough for a prompt or the head of a tool's output. */
const INDEX_CHARS = 4096;
/** Characters of a snippet either side of the match. */
const SNIPPET_SIDE = 60;
/** Keys whose strings are ids, times or metadata, not what anyone searches for. */
const SKIP_KEY = /^(?:uuid|parentuuid|id|.*_id|.*Id|timestamp|time|type|role|version|cwd|gitbranch|signature|hash|sha|sha256|digest|model|status|encrypted_content|mediatype|media_type|provenance)$/i;

/** Strings that are a time, an id or a hash whatever their key: never searched for as words. */
const NOT_TEXT = /^(?:\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,}|[a-z]+_[0-9a-z]{16,})$/i;

/** True when a line's value is written as the user's: a `role` or `type` of user at its top or up to two objects down. */
export function isUsers(v: unknown, depth = 0): boolean {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  if (o.role === 'user' || o.type === 'user' || o.type === 'user.message' || o.type === 'user_message') return true;
  if (depth >= 2) return false;
  for (const k of ['message', 'payload', 'data', 'item']) if (isUsers(o[k], depth + 1)) return true;
  return false;
}

/** What a line's events say its text is: a user's prompt, a reply, a tool's input or its output. */
export function fieldOf(category: string, kind: string, user: boolean): SearchField {
  const result = /result|output|execution_complete/i.test(kind);
  if (user && category !== 'tool' && !result) return 'prompt';
  if (category === 'tool') return result ? 'tool-output' : 'tool-input';
  if (category === 'message' && result) return 'tool-output';
  if (category === 'inference' || category === 'message') return 'reply';
  return 'other';
}

/** A string that is itself JSON (a tool's arguments) read for its value; else the string. */
function jsonInString(s: string): unknown {
  if (s.length < 2 || (s[0] !== '{' && s[0] !== '[')) return s;
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

/** The strings of a value worth searching, in order, each handed to `take` with whether it is inside a user's message. */
function eachString(value: unknown, take: (s: string, user: boolean) => boolean): void {
  const visit = (v: unknown, user: boolean, depth: number): boolean => {
    if (depth > 32) return true;
    if (typeof v === 'string') {
      const s = depth < 30 ? jsonInString(v) : v;
      if (typeof s !== 'string') return visit(s, user, depth + 1);
      // Not text: blank, a time, an id, or a long run without a space (base64, an image's data).
      if (s.trim() === '' || NOT_TEXT.test(s) || (s.length > 200 && !/\s/.test(s.slice(0, 200)))) return true;
      return take(s, user);
    }
    if (Array.isArray(v)) {
      for (const x of v) if (!visit(x, user, depth + 1)) return false;
      return true;
    }
    if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const mine = user || o.role === 'user';
      if (typeof o.key === 'string' && 'value' in o && Object.keys(o).length === 2) {
        // An OpenTelemetry attribute ({key, value}): its name is metadata, not text, and its value is left out as a
        // property of that name would be (`gen_ai.response.id`, `gen_ai.request.model`: by the name's last part),
        // but for what an error says (`error.type`: `FileNotFoundError` is searched for).
        const skip = SKIP_KEY.test(o.key.slice(o.key.lastIndexOf('.') + 1)) && !o.key.startsWith('error.');
        return skip || visit(o.value, mine, depth + 1);
      }
      for (const [k, x] of Object.entries(o)) if (!SKIP_KEY.test(k) && !visit(x, mine, depth + 1)) return false;
    }
    return true;
  };
  visit(value, false, 0);
}

/**
 * The text a line's parsed value holds: its strings, keys apart, in order, without ids, times and metadata (keys
 * such as `uuid`, `timestamp`, `type`), at most {@link INDEX_CHARS} characters. A string that is itself JSON (a
 * tool's arguments) is read for its strings too.
 */
export function textOf(value: unknown): string {
  const out: string[] = [];
  let size = 0;
  eachString(value, (s) => {
    const piece = s.slice(0, INDEX_CHARS - size);
    out.push(piece);
    size += piece.length + 1;
    return size < INDEX_CHARS;
  });
  return out.join('\n');
}

/**
 * A one-document trace's text by event line: each string of the document goes to the event whose line is the last
 * at or before the string's own line (the loader's `locate`, which searches on from its last hit, so strings met in
 * document order are placed in one pass). `starts` are the events' lines, sorted. A part holding the text of a
 * message whose `role` is user is the user's.
 */
export function documentTexts(rec: SourceRecord, starts: readonly number[]): Map<number, { text: string; user: boolean }> {
  const parts = new Map<number, { pieces: string[]; size: number; user: boolean }>();
  const locate = rec.locate;
  if (!locate || starts.length === 0) return new Map();
  const eventAt = (line: number): number | null => {
    let lo = 0;
    let hi = starts.length - 1;
    if (line < starts[0]) return null;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= line) lo = mid;
      else hi = mid - 1;
    }
    return starts[lo];
  };
  const partAt = (line: number | null) => {
    const ev = line === null ? null : eventAt(line);
    if (ev === null) return null;
    let p = parts.get(ev);
    if (!p) parts.set(ev, (p = { pieces: [], size: 0, user: false }));
    return p;
  };
  eachString(rec.value, (s, user) => {
    const p = partAt(locate(JSON.stringify(s).slice(0, 64)));
    // A message's role goes with its text: the part holding a user's message's text is the user's.
    if (p && user) p.user = true;
    if (p && p.size < INDEX_CHARS) {
      const piece = s.slice(0, INDEX_CHARS - p.size);
      p.pieces.push(piece);
      p.size += piece.length + 1;
    }
    return true;
  });
  return new Map([...parts].map(([line, p]) => [line, { text: p.pieces.join('\n'), user: p.user }]));
}

/** Up to {@link SNIPPET_SIDE} characters either side of the first place a needle (or a word starting so) is, on one line. */
export function snippetOf(text: string, needles: readonly string[]): string {
  const low = text.toLowerCase();
  let at = -1;
  let len = 0;
  for (const n of needles) {
    const i = low.indexOf(n);
    if (i >= 0 && (at < 0 || i < at)) {
      at = i;
      len = n.length;
    }
  }
  if (at < 0) {
    at = 0;
    len = 0;
  }
  const start = Math.max(0, at - SNIPPET_SIDE);
  const end = Math.min(text.length, at + len + SNIPPET_SIDE);
  const flat = (s: string) => s.replace(/\s+/g, ' ');
  return `${start > 0 ? '…' : ''}${flat(text.slice(start, end)).trim()}${end < text.length ? '…' : ''}`;
}
