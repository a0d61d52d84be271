/** Bytes read before the events per byte are taken as the file's: a sixteenth of the file (and `minBytes`). */
const SIZE_FROM_SHARE = 16;

/**
 * Sizes per-event storage (the event table's columns, the streamed checks' facts, murmur's event store) for the
 * events the whole file will have, estimated from the events of the bytes read so far (with 3% to spare), and
 * again whenever the estimate grows past what was reserved by a sixteenth. Storage is then made about once for
 * the events it will hold, not doubled past them: a buffer doubled near the end of a read holds its old and new
 * copies at once, when memory peaks, and a copy trimmed afterwards costs the same. The estimate waits for a
 * sixteenth of the file, so a head of short lines before long ones makes room for at most sixteen times the events
 * it has; room not written yet costs address space, not memory. Returns what to call with the bytes read so far.
 */
export function eventSizer(fileSize: number, events: () => number, reserve: (n: number) => void, minBytes = 0): (bytesRead: number) => void {
  let reserved = 0;
  const from = Math.max(minBytes, fileSize / SIZE_FROM_SHARE);
  return (bytes) => {
    if (bytes < from || bytes >= fileSize) return;
    const n = events();
    if (n < 1024) return;
    const expected = Math.ceil((n / bytes) * fileSize * 1.03) + 1024;
    if (expected <= reserved + (reserved >> 4)) return;
    reserved = expected;
    reserve(expected);
  };
}
