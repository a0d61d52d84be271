/**
 * Find-in-trace on the host: the browser's find cannot see virtual rows, so the host searches every
 * event's label, kind and id, and the exact text of every line (one streaming pass over the file, the way
 * the indexer reads it). Matches come back in tree order (pre-order), the order a reader steps through them.
 */
import type { TraceModel } from '../core/loadTrace';
import { tracePathToOpen } from '../core/tracePath';
import { scanLines } from '../core/lineIndexer';
import { malformedNode } from './rowModel';
import { compileTextQuery } from '../core/find/textSearch';
import { findInBlobs, type BlobHit, type BlobLocator } from '../core/find/findInBlobs';

/** Options for {@link findInTrace}. */
export interface FindOptions {
  caseSensitive: boolean;
  /** The query is a regular expression. */
  regex?: boolean;
  /** Also search the content blobs the events name (prompts, responses, tool output). */
  blobs?: BlobLocator | null;
  /** Blob search progress: bytes read and the most it will read. */
  onBlobProgress?: (found: number, bytesRead: number, bytesTotal: number) => void;
  /** Stop collecting after this many matches (the result says `truncated`). */
  maxMatches?: number;
  isCancelled?: () => boolean;
  /** Called after each chunk of the file with matches found so far. */
  onProgress?: (found: number, bytesRead: number) => void;
}

/** Matching nodes in tree order. */
export interface FindResult {
  nodes: number[];
  /** Matches inside blobs, by event (the first blob that matched). */
  blobHits: Map<number, BlobHit>;
  truncated: boolean;
  cancelled: boolean;
}

const DEFAULT_MAX = 100_000;

/**
 * Searches labels, kinds, ids and the raw line text for `query`. Text is also tried in its JSON-escaped
 * forms (quotes, newlines, `\uXXXX` for non-ASCII as Python writers emit), since raw lines hold escapes.
 */
export async function findInTrace(model: TraceModel, query: string, options: FindOptions): Promise<FindResult> {
  const n = model.events.size;
  const hit = new Uint8Array(n);
  const badHit = new Uint8Array(model.malformed.length);
  if (query.length === 0) return { nodes: [], blobHits: new Map(), truncated: false, cancelled: false };
  // Plain text also matches its JSON-escaped forms (textSearch.ts); a bad regular expression throws here.
  const q = compileTextQuery(query, { caseSensitive: options.caseSensitive, regex: options.regex ?? false });
  const test = (s: string): boolean => q.find(s) !== null;
  const t = model.events;
  let found = 0;
  const markEvent = (i: number) => {
    if (hit[i] === 0) (hit[i] = 1), found++;
  };
  const markBad = (k: number) => {
    if (badHit[k] === 0) (badHit[k] = 1), found++;
  };
  for (let i = 0; i < n; i++) if (test(t.labelOf(i)) || test(t.kindOf(i)) || test(t.id(i) ?? '')) markEvent(i);
  for (let k = 0; k < model.malformed.length; k++) if (test(model.malformed[k].message)) markBad(k);
  let cancelled = false;
  if (!model.document) {
    // The trace's lines, then those of each other file of its session read with it (TraceModel.parts), each file's
    // lines mapped to its own events.
    const files = [{ path: tracePathToOpen(model), part: 0, lineCount: model.lineCount }];
    model.parts?.forEach((p, k) => {
      if (k > 0 && p.model && p.count > 0) files.push({ path: p.path, part: k, lineCount: p.model.lineCount });
    });
    let before = 0;
    for (const f of files) {
      if (cancelled) break;
      const lines = lineLookup(model, f.part);
      const scan = await scanLines(
        f.path,
        (span, bytes) => {
          if (bytes === null || span.line > f.lineCount) return;
          if (!test(bytes.toString('utf8'))) return;
          lines(span.line, markEvent, markBad);
        },
        { isCancelled: options.isCancelled, onProgress: (b) => options.onProgress?.(found, before + b) },
      );
      before += scan.bytesRead;
      cancelled = scan.cancelled;
    }
  }
  const blobHits = new Map<number, BlobHit>();
  if (options.blobs && !cancelled) {
    const r = await findInBlobs(model, options.blobs, q, {
      isCancelled: options.isCancelled,
      onProgress: (read, total) => options.onBlobProgress?.(found, read, total),
    });
    cancelled = r.cancelled;
    for (const h of r.hits) {
      if (!blobHits.has(h.event)) blobHits.set(h.event, h);
      markEvent(h.event);
    }
  }
  return { ...collect(model, hit, badHit, options.maxMatches ?? DEFAULT_MAX, cancelled), blobHits };
}

/**
 * Maps a line of the file of part `part` (0: the trace's own; TraceModel.parts) to the events (and malformed line)
 * of that file on it; lines arrive in ascending order.
 */
function lineLookup(model: TraceModel, part: number): (line: number, ev: (i: number) => void, bad: (k: number) => void) => void {
  const t = model.events;
  let sorted = !model.parts;
  for (let i = 1; i < t.size && sorted; i++) if (t.lineOf(i) < t.lineOf(i - 1)) sorted = false;
  const badByLine = new Map(part === 0 ? model.malformed.map((m, k) => [m.line, k]) : []);
  let byLine: Map<number, number[]> | null = null;
  if (!sorted) {
    byLine = new Map();
    for (let i = 0; i < t.size; i++) {
      if (t.partOf(i) !== part) continue;
      const l = t.lineOf(i);
      const list = byLine.get(l);
      if (list) list.push(i);
      else byLine.set(l, [i]);
    }
  }
  let cursor = 0;
  return (line, ev, bad) => {
    const k = badByLine.get(line);
    if (k !== undefined) bad(k);
    if (byLine) {
      for (const i of byLine.get(line) ?? []) ev(i);
      return;
    }
    while (cursor < t.size && t.lineOf(cursor) < line) cursor++;
    for (let i = cursor; i < t.size && t.lineOf(i) === line; i++) ev(i);
  };
}

/** Walks the whole tree in pre-order (roots and malformed lines in line order) and keeps the hits. */
function collect(model: TraceModel, hit: Uint8Array, badHit: Uint8Array, max: number, cancelled: boolean): Omit<FindResult, 'blobHits'> {
  const nodes: number[] = [];
  const t = model.events;
  const tree = model.tree;
  const stack: number[] = [];
  const roots = tree.roots;
  let r = roots.length - 1;
  let m = model.malformed.length - 1;
  // Push tops in reverse line order so the stack pops them in line order.
  while (r >= 0 || m >= 0) {
    if (m < 0 || (r >= 0 && t.lineOf(roots[r]) > model.malformed[m].line)) stack.push(roots[r--]);
    else stack.push(malformedNode(m--));
  }
  let total = 0;
  while (stack.length > 0) {
    const i = stack.pop()!;
    const isHit = i >= 0 ? hit[i] === 1 : badHit[-i - 1] === 1;
    if (isHit) {
      total++;
      if (nodes.length < max) nodes.push(i);
    }
    if (i < 0) continue;
    const ch = tree.children(i);
    for (let k = ch.length - 1; k >= 0; k--) stack.push(ch[k]);
  }
  return { nodes, truncated: total > nodes.length, cancelled };
}
