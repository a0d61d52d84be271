/**
 * What a link to an event says and how it is read back, without `vscode`: a workspace-relative path when the
 * trace lies inside a workspace folder (so the link works in any window of the same workspace, on any
 * machine), an absolute path only as the fallback.
 */
import { isAbsolute, join, relative, sep } from 'node:path';

/** A workspace folder, as far as links care. */
export interface LinkFolder {
  name: string;
  fsPath: string;
}

/** The query of a link to `line` of `file`: `path` (+ `folder` when several are open) or `file`, and `line`. */
export function eventLinkQuery(file: string, line: number, folders: readonly LinkFolder[]): URLSearchParams {
  const q = new URLSearchParams();
  const home = folders.find((f) => isInside(f.fsPath, file));
  if (home) {
    q.set('path', relative(home.fsPath, file).split(sep).join('/'));
    if (folders.length > 1) q.set('folder', home.name);
  } else q.set('file', file);
  q.set('line', String(line));
  return q;
}

/** A link's target: the candidate files in preference order (exists-checks are the caller's), and the line. */
export interface LinkTarget {
  candidates: string[];
  line: number;
}

/**
 * The query's text, each value percent-encoded once (`path=runs/a%20b.jsonl&line=3`): what a browser and the OS
 * hand to VS Code as it is. (`vscode.Uri.from({ query })` encoded it a second time, `%2F` into `%252F` and `&`
 * into `%26`, a link code-server's browser could not open.)
 */
export function eventLinkQueryText(q: URLSearchParams): string {
  return [...q].map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%2F/g, '/')}`).join('&');
}

/** The query's fields: VS Code hands a handler the query decoded once, a browser may not; `+` stays `+`. */
function queryFields(query: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of query.split('&')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const raw = part.slice(eq + 1);
    let v = raw;
    try {
      v = decodeURIComponent(raw);
    } catch {
      // A `%` of a name already decoded (`100%.jsonl`): the text as it is.
    }
    if (!out.has(part.slice(0, eq))) out.set(part.slice(0, eq), v);
  }
  return out;
}

/**
 * Reads a link's query back; null when it names no file or no valid line. A relative `path` is tried in the
 * named folder first, then in every folder; it may not climb out of the folder (`..`).
 */
export function parseEventLink(query: string, folders: readonly LinkFolder[]): LinkTarget | null {
  const q = queryFields(query);
  const line = Number(q.get('line') ?? '1');
  if (!Number.isInteger(line) || line < 1) return null;
  const file = q.get('file');
  if (file) return isAbsolute(file) ? { candidates: [file], line } : null;
  const path = q.get('path');
  if (!path || isAbsolute(path) || path.split('/').includes('..')) return null;
  const named = q.get('folder');
  const ordered = [...folders.filter((f) => f.name === named), ...folders.filter((f) => f.name !== named)];
  return { candidates: ordered.map((f) => join(f.fsPath, ...path.split('/'))), line };
}

function isInside(folder: string, file: string): boolean {
  const r = relative(folder, file);
  return r.length > 0 && !r.startsWith('..') && !isAbsolute(r);
}
