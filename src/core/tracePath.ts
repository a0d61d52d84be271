/**
 * A trace file's path as the file system takes it. A name that is not valid UTF-8 is kept as bytes: as a
 * string (with U+FFFD) it would be encoded as UTF-8 to open it, and so name another, missing file.
 * A module that imports nothing of the core, so format rules and the byte source can use it without an import cycle.
 */
import { Buffer } from 'buffer';
export type TracePath = string | Buffer;

/** A path as text for messages, output and the views (bytes that are not UTF-8 show as U+FFFD). */
export function shownPath(path: TracePath): string {
  return typeof path === 'string' ? path : path.toString('utf8');
}

/** What opens the trace file itself again: its byte path when its name is not valid UTF-8 (`source`), else its path. */
export function tracePathToOpen(model: { path: string; source?: Buffer }): TracePath {
  return model.source ?? model.path;
}

/** A string key for caches: equal exactly for equal paths, never equal between a string path and a byte path. */
export function tracePathKey(path: TracePath): string {
  // NUL cannot occur in a path, so the prefix keeps byte paths apart from string paths.
  return typeof path === 'string' ? path : `\0${path.toString('hex')}`;
}
