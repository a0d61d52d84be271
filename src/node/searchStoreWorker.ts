/**
 * The search index's worker (`dist/searchStoreWorker.js`): the extension's SQLite store (./sqliteSearchStore.ts) runs
 * here, off the extension host's thread, answering ./workerSearchStore.ts's messages in the order they came. A
 * write (`put`, `set`, `remove`, `batch`) is answered only when it failed; a read with its value or its error.
 */
import { parentPort, threadId, workerData } from 'node:worker_threads';
import type { SearchStore } from '../core/sessions/searchStore';
import { openSqliteSearchStore } from './sqliteSearchStore';
import type { StoreCall, StoreReply } from './workerSearchStore';

const { file, version } = workerData as { file: string | null; version: string };
let store: SearchStore | null = null;
let openError: string | null = null;
try {
  store = openSqliteSearchStore(file, version);
} catch (e) {
  openError = e instanceof Error ? e.message : String(e);
}

function write(s: SearchStore, c: StoreCall): void {
  if (c.op === 'put') s.putFile(c.file, c.docs);
  else if (c.op === 'set') s.setFile(c.file);
  else if (c.op === 'remove') s.removeFile(c.path);
  else if (c.op === 'batch') s.batch(() => c.calls.forEach((x) => write(s, x)));
}

function answer(s: SearchStore, c: StoreCall): unknown {
  switch (c.op) {
    case 'files': return s.files();
    case 'agents': return s.agents();
    case 'tools': return s.tools();
    case 'query': return s.query(c.q, c.limit);
    case 'size': return s.size();
    case 'thread': return threadId;
    case 'close': return s.close();
    default: return write(s, c);
  }
}

parentPort!.on('message', (c: StoreCall) => {
  let reply: StoreReply | null;
  try {
    if (!store) throw new Error(`the search index could not be opened: ${openError}`);
    const value = answer(store, c);
    reply = c.id === 0 ? null : { id: c.id, value };
  } catch (e) {
    reply = { id: c.id, error: e instanceof Error ? e.message : String(e) };
  }
  if (reply) parentPort!.postMessage(reply);
  if (c.op === 'close') store = null;
});
