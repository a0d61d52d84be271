/**
 * The Agent Traces view's worker (`dist/sessionsWorker.js`): the session catalog's listings (core/sessions/
 * sessionCatalog.ts: walk, load, verify and check, summarise) and the search index (core/sessions/sessionSearch.ts
 * over SQLite, ./searchIndex.ts) run here, off the extension host's thread, which only gets the listing's records and
 * the hits. A listing feeds the index during its own read of each file, as the CLI's does. Listings and index updates
 * (they read files) run one at a time, in the order they came; a search is answered at once, from the index as it
 * stands. Answered through ./workerSessions.ts's messages.
 */
import './register';
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { FilterError } from '../core/filter/filterSyntax';
import { listSessions } from '../core/sessions/sessionCatalog';
import { SessionFollower } from '../core/sessions/sessionFollower';
import type { SessionSearchIndex } from '../core/sessions/sessionSearch';
import { folderCacheStore } from './folderCache';
import { openSearchIndex } from './searchIndex';
import type { SessionsCall, SessionsReply } from './workerSessions';

const { storageDir } = workerData as { storageDir: string | null };
/** The catalog's cache beside the index (none without a storage folder: every listing reads every file). */
const cache = storageDir === null ? undefined : folderCacheStore(storageDir);
/** Sessions seen growing, followed from one listing to the next: a growth costs its new bytes. */
const follow = new SessionFollower();
let index: SessionSearchIndex | null = null;
let indexError: string | null = null;
/** Jobs the host gave up (`cancel`): their listing stops between files. */
const cancelled = new Set<number>();
/** The listings and index updates, one after another. */
let reading: Promise<unknown> = Promise.resolve();

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
const post = (r: SessionsReply) => parentPort!.postMessage(r);

/** The index (SQLite in the storage folder, else in memory), opened at its first use; null when it cannot be opened. */
function openIndex(): SessionSearchIndex | null {
  if (index === null && indexError === null) {
    try {
      index = openSearchIndex(storageDir);
    } catch (e) {
      indexError = message(e);
    }
  }
  return index;
}

function theIndex(): SessionSearchIndex {
  const i = openIndex();
  if (i === null) throw new Error(`the search index could not be opened: ${indexError}`);
  return i;
}

/** Progress of job `id`, at most one message per 100 ms (and the last). */
function progressOf(id: number): (done: number, total: number) => void {
  let last = 0;
  return (done, total) => {
    const now = Date.now();
    if (done < total && now - last < 100) return;
    last = now;
    post({ id, progress: { done, total } });
  };
}

async function answer(c: SessionsCall): Promise<unknown> {
  const isCancelled = () => cancelled.has(c.id);
  switch (c.op) {
    case 'list': {
      const { roots, files, prices, rules } = c;
      for (const f of c.settle ?? []) follow.drop(f);
      // A listing goes on without search when the index cannot be opened: the view still lists.
      return listSessions({ roots, files, prices, rules, cache, follow, watchRead: openIndex()?.watchRead, isCancelled, onProgress: progressOf(c.id) });
    }
    case 'update': {
      const u = await theIndex().update({ roots: c.roots, rules: c.rules, cache, follow, isCancelled, onProgress: progressOf(c.id) });
      return { read: u.read, fromIndex: u.fromIndex, discarded: u.discarded, readHere: u.readHere, bytesRead: u.bytesRead, sessions: u.listing.records.length };
    }
    case 'search':
      return theIndex().search(c.query, { limit: c.limit });
    case 'size':
      return theIndex().size();
    case 'thread':
      return threadId;
    case 'close': {
      const i = index;
      index = null;
      await i?.close();
      return null;
    }
  }
}

parentPort!.on('message', (c: SessionsCall) => {
  if (c.op === 'cancel') return void cancelled.add(c.target);
  const run = () =>
    answer(c).then(
      (value) => post({ id: c.id, value }),
      (e) => post({ id: c.id, error: message(e), filterColumn: e instanceof FilterError ? e.column : undefined, filterReason: e instanceof FilterError ? e.reason : undefined }),
    ).finally(() => cancelled.delete(c.id));
  // Reads of files wait their turn (the close too: it comes after them); a search is answered at once.
  if (c.op === 'list' || c.op === 'update' || c.op === 'close') reading = reading.then(run);
  else void run();
});
