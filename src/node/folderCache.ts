/**
 * The session catalog's cache (core/sessions/sessionCache.ts's store) as one file in a folder: the extension's global
 * storage, or the CLI's cache folder. Written aside and renamed, so a reader never sees half a cache.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SESSION_CACHE_FILE, type SessionCacheStore } from '../core/sessions/sessionCache';

/** The catalog's cache (or another `name`) as one file in `dir`. */
export function folderCacheStore(dir: string, name = SESSION_CACHE_FILE): SessionCacheStore {
  const file = path.join(dir, name);
  return {
    read: async () => fs.promises.readFile(file, 'utf8').catch(() => null),
    write: async (text) => {
      try {
        // Only the user may read it: it holds the sessions' titles and projects.
        await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
        // Written aside and renamed: a listing running beside this one never reads half a cache.
        const tmp = `${file}.${process.pid}.tmp`;
        await fs.promises.writeFile(tmp, text, { mode: 0o600 });
        await fs.promises.rename(tmp, file);
      } catch {
        // A cache that cannot be written costs the next listing its speed, not its answer.
      }
    },
  };
}
