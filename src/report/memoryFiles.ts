/**
 * The report's in-page file system: the trace (and nothing else) as bytes in memory, so the core's own
 * loader and the viewer's detail reads run in the browser unchanged. Paths not registered do not exist.
 */
const files = new Map<string, Uint8Array>();

/** Registers a file's bytes under `path`. */
export function putMemoryFile(path: string, bytes: Uint8Array): void {
  files.set(path, bytes);
}

/** The bytes at `path`, or an ENOENT error as Node's file system gives. */
export function memoryFile(path: string): Uint8Array {
  const f = files.get(String(path));
  if (f) return f;
  const err = new Error(`ENOENT: no such file or directory, open '${String(path)}'`) as Error & { code: string };
  err.code = 'ENOENT';
  throw err;
}
