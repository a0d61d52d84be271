/**
 * Find-in-trace state of one viewer: the running search (cancelled by the next query), its matches in tree
 * order, the current match, and stepping through them. vscode-free.
 */
import type { TraceModel } from '../core/loadTrace';
import type { BlobLocator } from '../core/find/findInBlobs';
import type { BlobHit } from '../core/find/findInBlobs';
import type { FindResultItem, HostMessage } from '../protocol';
import { findInTrace } from './findInTrace';
import { malformedIndex } from './rowModel';

/** What the find state needs from its session. */
export interface FindHost {
  post(msg: HostMessage): void;
  model(): TraceModel | null;
  /** True when the node is in the current (filtered) view. */
  passes(node: number): boolean;
  /** Matches changed: rows need their highlight redrawn. */
  onMatchesChanged(): void;
  /** Reveals and selects a node. */
  reveal(node: number): void;
  /** The trace's blob store, so find also reads blob text; absent = events only. */
  blobStore?: () => Promise<BlobLocator | null>;
}

const MAX_RESULTS = 200;

const PROGRESS_MS = 150;

/** See the file comment. */
export class SessionFind {
  private query = '';
  private caseSensitive = false;
  private regex = false;
  private blobHits = new Map<number, BlobHit>();
  private matches: number[] = [];
  private hits: Uint8Array = new Uint8Array(0);
  private badHits = new Set<number>();
  private current = -1;
  private searching = false;
  private truncated = false;
  private error: string | null = null;
  private token = 0;

  constructor(private readonly host: FindHost) {}

  isMatch(node: number): boolean {
    return node >= 0 ? this.hits[node] === 1 : this.badHits.has(malformedIndex(node));
  }

  /** Starts a search (an empty query clears); steps to the first match when it completes, if asked. */
  async start(query: string, caseSensitive: boolean, stepFirst = true, regex = this.regex): Promise<void> {
    const token = ++this.token;
    this.query = query;
    this.caseSensitive = caseSensitive;
    this.regex = regex;
    this.blobHits = new Map();
    this.current = -1;
    this.error = null;
    const model = this.host.model();
    if (query === '' || !model) {
      this.setMatches([], model, false);
      this.searching = false;
      this.resend();
      return;
    }
    this.searching = true;
    this.resend();
    let last = Date.now();
    const progress = (found: number, share?: number) => {
      if (Date.now() - last < PROGRESS_MS) return;
      last = Date.now();
      this.host.post({ type: 'findResults', query, total: found, current: null, searching: true, truncated: false, error: null, ...(share !== undefined ? { progress: share } : {}) });
    };
    try {
      const blobs = this.host.blobStore ? await this.host.blobStore().catch(() => null) : null;
      const r = await findInTrace(model, query, {
        caseSensitive,
        regex,
        blobs,
        isCancelled: () => token !== this.token,
        onProgress: (found) => progress(found),
        onBlobProgress: (found, read, total) => progress(found, total > 0 ? read / total : 1),
      });
      if (token !== this.token || r.cancelled) return;
      this.blobHits = r.blobHits;
      this.setMatches(r.nodes, model, r.truncated);
    } catch (err) {
      if (token !== this.token) return;
      this.error = err instanceof Error ? err.message : String(err);
      this.setMatches([], model, false);
    }
    this.searching = false;
    this.resend();
    if (stepFirst && this.visibleMatches().length > 0) this.step(1, null);
  }

  /** Runs the current query again on a new model, keeping the view where it is. */
  rerun(): void {
    if (this.query !== '') void this.start(this.query, this.caseSensitive, false, this.regex);
    else this.hits = new Uint8Array(0);
  }

  /** Posts the current state. */
  resend(): void {
    if (this.query === '' && !this.searching) {
      this.host.post({ type: 'findResults', query: '', total: 0, current: null, searching: false, truncated: false, error: null });
      return;
    }
    const visible = this.visibleMatches();
    const cur = this.current >= 0 ? visible.indexOf(this.matches[this.current]) : -1;
    this.host.post({
      type: 'findResults',
      query: this.query,
      total: visible.length,
      current: cur >= 0 ? cur + 1 : null,
      searching: this.searching,
      truncated: this.truncated,
      error: this.error,
      results: this.resultList(visible),
    });
  }

  /** The first visible matches with their labels; blob matches carry the text around the match. */
  private resultList(visible: number[]): FindResultItem[] {
    const model = this.host.model();
    if (!model) return [];
    return visible.slice(0, MAX_RESULTS).map((node): FindResultItem => {
      if (node < 0) {
        const m = model.malformed[malformedIndex(node)];
        return { node, line: m.line, label: m.message, where: 'event' };
      }
      const t = model.events;
      const b = this.blobHits.get(node);
      const base = { node, line: t.lineOf(node), label: t.labelOf(node) };
      return b ? { ...base, where: 'blob', field: b.field, snippet: b.match.snippet, at: b.match.at, length: b.match.length } : { ...base, where: 'event' };
    });
  }

  /** Moves to the next or previous match (after `from`, the selection, when there is no current one). */
  step(direction: 1 | -1, from: number | null): void {
    const n = this.matches.length;
    if (n === 0) return;
    let k = this.current;
    if (k < 0 && from !== null) {
      const at = this.matches.indexOf(from);
      k = at >= 0 ? at : direction === 1 ? -1 : n;
    } else if (k < 0) k = direction === 1 ? -1 : n;
    for (let tries = 0; tries < n; tries++) {
      k = (((k + direction) % n) + n) % n;
      if (this.host.passes(this.matches[k])) {
        this.current = k;
        this.host.reveal(this.matches[k]);
        this.resend();
        return;
      }
    }
  }

  private visibleMatches(): number[] {
    return this.matches.filter((m) => this.host.passes(m));
  }

  private setMatches(nodes: number[], model: TraceModel | null, truncated: boolean): void {
    this.matches = nodes;
    this.truncated = truncated;
    this.hits = new Uint8Array(model?.events.size ?? 0);
    this.badHits = new Set();
    for (const n of nodes) {
      if (n >= 0) this.hits[n] = 1;
      else this.badHits.add(malformedIndex(n));
    }
    this.host.onMatchesChanged();
  }
}
