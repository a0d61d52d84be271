import { readSmallJsonSync } from '../../io/fileSystem';

/** A `sessions.json` larger than this is not read for a session's time. */
const MAX_INDEX_BYTES = 4 * 1024 * 1024;

/**
 * When the session `sessionId` was created, as Continue's index beside its document records it (`sessions.json`,
 * `dateCreated` in epoch milliseconds, written as a string): the session document itself holds no time. Null when
 * the file is not `<dir>/<sessionId>.json`, or the index is missing, too large, not JSON or does not list it.
 * Synchronous: the builder asks it once.
 */
export function sessionCreatedSync(path: string, sessionId: string | null): number | null {
  if (sessionId === null || !path.endsWith(`/${sessionId}.json`)) return null;
  const list = readSmallJsonSync(`${path.slice(0, path.length - sessionId.length - 5)}sessions.json`, MAX_INDEX_BYTES);
  if (!Array.isArray(list)) return null;
  for (const e of list) {
    if (typeof e !== 'object' || e === null || (e as Record<string, unknown>).sessionId !== sessionId) continue;
    const t = Number((e as Record<string, unknown>).dateCreated);
    return Number.isFinite(t) && t > 0 ? t : null;
  }
  return null;
}
