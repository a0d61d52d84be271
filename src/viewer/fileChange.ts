/**
 * The change detector (`core/fileChange.ts`) over a file on disk, read as stored: a `.gz` is compared on its
 * compressed bytes. vscode-free.
 */
import { Buffer } from 'buffer';
import { stat } from 'node:fs/promises';
import { openTrace } from '../core/io/traceHandles';
import { changeOf, ChangeSource, FileChange, FileFingerprint, fingerprintOf } from '../core/fileChange';

export type { FileChange, FileFingerprint } from '../core/fileChange';

/** Takes the fingerprint of the first `indexedBytes` bytes of a file. */
export function fingerprintFile(path: string, indexedBytes: number): Promise<FileFingerprint> {
  return fingerprintOf(storedBytes(path), indexedBytes);
}

/** Classifies the file's current state against a fingerprint. */
export function classifyChange(path: string, fp: FileFingerprint): Promise<FileChange> {
  return changeOf(storedBytes(path), fp);
}

function storedBytes(path: string): ChangeSource {
  return {
    async size() {
      try {
        return (await stat(path)).size;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async read(offset, length) {
      // The load's own handle while one holds the file (traceHandles.ts), else a fresh open.
      const handle = await openTrace(path);
      try {
        const buf = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buf, 0, length, offset);
        return buf.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
  };
}
