/**
 * The extension's side of ./sessionsWorker.ts: the Agent Traces view's listings and the search index run in a worker
 * thread, and the extension host, which shares its thread with every other extension and the editor's requests,
 * only posts what to do and gets back the records and the hits. Neither the trace loader's work nor SQLite runs on
 * the host's thread. The CLI lists and searches in its own thread (it has nothing else to do meanwhile).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { FilterError } from '../core/filter/filterSyntax';
import type { SessionListing } from '../core/sessions/sessionCatalog';
import type { VerdictRules } from '../core/sessions/sessionCache';
import type { SessionHits } from '../core/sessions/sessionSearch';
import type { ModelPrice } from '../core/usage/prices';

/** What a listing is asked for (core/sessions/sessionCatalog.ts's options that cross the thread). */
export interface ListRequest {
  roots: readonly string[];
  files?: readonly string[];
  prices?: Readonly<Record<string, ModelPrice>>;
  rules?: VerdictRules;
  /**
   * Files that stopped growing: the worker stops following them, so a record made by an append (its verdict
   * pending) is read whole again, checks and all.
   */
  settle?: readonly string[];
}

/** What an index update did (core/sessions/sessionSearch.ts's IndexUpdate, with the listing's size for its records). */
export interface IndexUpdateCounts {
  read: number;
  fromIndex: number;
  discarded: number;
  readHere: number;
  bytesRead: number;
  sessions: number;
}

/** A message to the worker. */
export type SessionsCall =
  | ({ id: number; op: 'list' } & ListRequest)
  | { id: number; op: 'update'; roots: readonly string[]; rules?: VerdictRules }
  | { id: number; op: 'search'; query: string; limit: number }
  | { id: number; op: 'thread' | 'size' | 'close' }
  | { id: number; op: 'cancel'; target: number };

/** The worker's answer to a call (`value` or `error`), or a progress report of a running one. */
export type SessionsReply = { id: number; value?: unknown; error?: string; filterColumn?: number; filterReason?: string; progress?: { done: number; total: number } };

/** Progress and cancellation of one call. */
export interface CallOptions {
  onProgress?: (done: number, total: number) => void;
  isCancelled?: () => boolean;
}

/** A call without its number (each kind's own fields kept). */
type CallBody = SessionsCall extends infer C ? (C extends { op: 'cancel' } ? never : Omit<C, 'id'>) : never;

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  options: CallOptions;
}

/**
 * The worker's script: the bundled `sessionsWorker.js` beside this bundle (`dist/`), or under tsx (tests) its
 * TypeScript; `script`: the one given (the bench runs the bundle the extension ships).
 */
function startWorker(data: unknown, script?: string): Worker {
  if (script) return new Worker(script, { workerData: data });
  const js = path.join(__dirname, 'sessionsWorker.js');
  return fs.existsSync(js)
    ? new Worker(js, { workerData: data })
    : new Worker(path.join(__dirname, 'sessionsWorker.ts'), { workerData: data, execArgv: ['--require', 'tsx/cjs'] });
}

/** The sessions' catalog and search index in a worker thread, keeping the catalog's cache and the index in `storageDir`. */
export class SessionsWorker {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private next = 1;
  private closed = false;

  /** `storageDir` null: no cache (every listing reads every file) and an index in memory. */
  constructor(
    private readonly storageDir: string | null,
    private readonly script?: string,
  ) {}

  /** The worker, started at the first call (a window that never shows the view starts none). */
  private thread(): Worker {
    if (this.worker) return this.worker;
    // The index of the versions before SQLite (MiniSearch's JSON) is read no more.
    if (this.storageDir !== null) fs.rmSync(path.join(this.storageDir, 'agent-trace-search.json'), { force: true });
    const w = (this.worker = startWorker({ storageDir: this.storageDir }, this.script));
    w.on('message', (r: SessionsReply) => {
      const p = this.pending.get(r.id);
      if (!p) return;
      if (r.progress) {
        p.options.onProgress?.(r.progress.done, r.progress.total);
        if (p.options.isCancelled?.()) w.postMessage({ id: 0, op: 'cancel', target: r.id } satisfies SessionsCall);
        return;
      }
      this.pending.delete(r.id);
      if (r.error === undefined) p.resolve(r.value);
      else p.reject(r.filterColumn !== undefined ? new FilterError(r.filterReason ?? r.error, r.filterColumn) : new Error(r.error));
    });
    const stop = (e: Error) => {
      if (this.worker !== w) return;
      // The calls it held fail with why; the next call starts a new worker (a crash, out of memory on a huge
      // file, costs those calls, not the view and search until the window reloads).
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
      this.worker = null;
    };
    w.on('error', stop);
    w.on('exit', (code) => stop(new Error(`the sessions worker ended (exit code ${code})`)));
    return w;
  }

  private call<T>(call: CallBody, options: CallOptions = {}): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the sessions worker was closed'));
    const w = this.thread();
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, options });
      w.postMessage({ ...call, id });
    });
  }

  /** Lists the sessions (the catalog's listSessions, its cache in the storage folder), indexing the files it reads. */
  list(request: ListRequest, options?: CallOptions): Promise<SessionListing> {
    return this.call({ op: 'list', ...request }, options);
  }

  /** Brings the search index up to date with the sessions under the roots (SessionSearchIndex.update). */
  updateIndex(roots: readonly string[], rules?: VerdictRules, options?: CallOptions): Promise<IndexUpdateCounts> {
    return this.call({ op: 'update', roots, rules }, options);
  }

  /** The hits of a query, grouped by session; rejects with a {@link FilterError} for a query that cannot be read. */
  search(query: string, limit: number): Promise<SessionHits[]> {
    return this.call({ op: 'search', query, limit });
  }

  /** The index's documents, files and bytes. */
  indexSize(): Promise<{ documents: number; files: number; bytes: number }> {
    return this.call({ op: 'size' });
  }

  /** The worker's thread id (for tests: the work is not on the caller's thread). */
  threadId(): Promise<number> {
    return this.call({ op: 'thread' });
  }

  /** Ends once the worker has finished the listings asked for before, closed the index and stopped. */
  async close(): Promise<void> {
    const w = this.worker;
    this.closed = true;
    if (!w) return;
    // Listings still running are given up: the close need not wait for a whole home to be read.
    for (const id of this.pending.keys()) w.postMessage({ id: 0, op: 'cancel', target: id } satisfies SessionsCall);
    try {
      await new Promise<void>((resolve, reject) => {
        const id = this.next++;
        this.pending.set(id, { resolve: () => resolve(), reject, options: {} });
        w.postMessage({ op: 'close', id } satisfies SessionsCall);
      });
    } finally {
      await w.terminate();
    }
  }
}
