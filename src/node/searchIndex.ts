/**
 * The search index in the caller's thread: the core's index over the SQLite store (./sqliteSearchStore.ts). The CLI
 * opens it in its own thread (it has nothing else to do meanwhile), the extension in its sessions worker
 * (./sessionsWorker.ts), with the listings that feed it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SEARCH_INDEX_FILE, SEARCH_INDEX_VERSION, SessionSearchIndex } from '../core/sessions/sessionSearch';
import { openSqliteSearchStore } from './sqliteSearchStore';

/** The search index kept in `folder` (its file {@link SEARCH_INDEX_FILE}); null: an index in memory, for this process. */
export function openSearchIndex(folder: string | null): SessionSearchIndex {
  // The index of the versions before SQLite (MiniSearch's JSON) is read no more.
  if (folder !== null) fs.rmSync(path.join(folder, 'agent-trace-search.json'), { force: true });
  return new SessionSearchIndex(openSqliteSearchStore(folder === null ? null : path.join(folder, SEARCH_INDEX_FILE), SEARCH_INDEX_VERSION));
}
