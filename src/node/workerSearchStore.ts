/**
 * The search index of the extension (core/sessions/searchStore.ts's seam), its SQLite (./sqliteSearchStore.ts) in a
 * worker thread (./searchStoreWorker.ts): the extension host posts a file's documents and goes on; the worker writes
 * them, one file per transaction, while the host answers the user. Reads (files, agents, tools, query, size) are
 * answered later; the worker handles messages in order, so a read sees every write posted before it. This module
 * does not load node-sqlite3-wasm: only the worker does. The CLI keeps the store in its own thread (it has nothing
 * else to do meanwhile).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { SEARCH_INDEX_FILE, SEARCH_INDEX_VERSION, SessionSearchIndex } from '../core/sessions/sessionSearch';
import type { Maybe, SearchStore, StoredDoc, StoredFile, StoreHit, StoreQuery } from '../core/sessions/searchStore';

/** A message to the worker: `id` 0 for a write (answered only when it fails), else a read's number. */
export type StoreCall =
  | { id: number; op: 'put'; file: StoredFile; docs: readonly StoredDoc[] }
  | { id: number; op: 'set'; file: StoredFile }
  | { id: number; op: 'remove'; path: string }
  | { id: number; op: 'batch'; calls: StoreCall[] }
  | { id: number; op: 'files' | 'agents' | 'tools' | 'size' | 'thread' | 'close' }
  | { id: number; op: 'query'; q: StoreQuery; limit: number };

/** The worker's answer to a read, or to a write that failed (`id` 0). */
export type StoreReply = { id: number; value?: unknown; error?: string };

type Read = { op: 'files' | 'agents' | 'tools' | 'size' | 'thread' | 'close' } | { op: 'query'; q: StoreQuery; limit: number };

/** The search index kept in `folder` (null: in memory), its store in a worker thread. */
export function openSearchIndexInWorker(folder: string | null): SessionSearchIndex {
  if (folder !== null) fs.rmSync(path.join(folder, 'agent-trace-search.json'), { force: true });
  return new SessionSearchIndex(new WorkerSearchStore(folder === null ? null : path.join(folder, SEARCH_INDEX_FILE), SEARCH_INDEX_VERSION));
}

/** The worker's script: the bundled `searchStoreWorker.js` beside this bundle (`dist/`), or under tsx (tests) its TypeScript. */
function startWorker(data: unknown): Worker {
  const js = path.join(__dirname, 'searchStoreWorker.js');
  return fs.existsSync(js)
    ? new Worker(js, { workerData: data })
    : new Worker(path.join(__dirname, 'searchStoreWorker.ts'), { workerData: data, execArgv: ['--require', 'tsx/cjs'] });
}

export class WorkerSearchStore implements SearchStore {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private next = 1;
  /** Writes collected by a running {@link batch}, posted as one message when it ends. */
  private batched: StoreCall[] | null = null;
  /** Why the worker stopped, once it has. */
  private dead: Error | null = null;
  /** Writes the worker could not make (the index is a cache: a lost write costs a later read of that file). */
  failedWrites = 0;
  lastWriteError: string | null = null;

  constructor(file: string | null, version: string) {
    this.worker = startWorker({ file, version });
    this.worker.on('message', (r: StoreReply) => {
      if (r.id === 0) {
        this.failedWrites++;
        this.lastWriteError = r.error ?? null;
        return;
      }
      const p = this.pending.get(r.id);
      if (!p) return;
      this.pending.delete(r.id);
      if (r.error !== undefined) p.reject(new Error(r.error));
      else p.resolve(r.value);
    });
    const stop = (e: Error) => {
      this.dead ??= e;
      for (const p of this.pending.values()) p.reject(this.dead);
      this.pending.clear();
    };
    this.worker.on('error', stop);
    this.worker.on('exit', (code) => stop(new Error(`the search index's worker ended (exit code ${code})`)));
  }

  private read<T>(call: Read): Promise<T> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ ...call, id });
    });
  }

  private write(call: StoreCall): void {
    if (this.batched) this.batched.push(call);
    else if (!this.dead) this.worker.postMessage(call);
  }

  /** The worker's thread id (the store runs there, not on the caller's thread). */
  thread(): Promise<number> {
    return this.read({ op: 'thread' });
  }

  files(): Promise<StoredFile[]> {
    return this.read({ op: 'files' });
  }

  putFile(file: StoredFile, docs: readonly StoredDoc[]): void {
    this.write({ id: 0, op: 'put', file, docs });
  }

  setFile(file: StoredFile): void {
    this.write({ id: 0, op: 'set', file });
  }

  removeFile(path: string): void {
    this.write({ id: 0, op: 'remove', path });
  }

  agents(): Promise<string[]> {
    return this.read({ op: 'agents' });
  }

  tools(): Promise<string[]> {
    return this.read({ op: 'tools' });
  }

  query(q: StoreQuery, limit: number): Promise<StoreHit[]> {
    return this.read({ op: 'query', q, limit });
  }

  batch<T>(f: () => T): T {
    if (this.batched) return f();
    const calls: StoreCall[] = (this.batched = []);
    let out: T;
    try {
      out = f();
    } finally {
      // A batch that threw is not posted: none of its writes are made (as a transaction rolled back).
      this.batched = null;
    }
    if (calls.length > 0) this.write({ id: 0, op: 'batch', calls });
    return out;
  }

  size(): Maybe<{ documents: number; files: number; bytes: number }> {
    return this.read({ op: 'size' });
  }

  /** Ends once the worker has made every write posted before, closed the database and stopped. */
  async close(): Promise<void> {
    if (this.dead) return;
    try {
      await this.read({ op: 'close' });
    } finally {
      await this.worker.terminate();
    }
  }
}
