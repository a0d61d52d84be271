/**
 * Reading one AgentLedger blob for verification, streamed and bounded like the viewer's blob store: the digest
 * is computed over chunks (SHA-256 of the canonical JSON, or FNV-1a of the text), and a blob is parsed whole only
 * when it is small, for the fields the rules look into. Before, a 20 MB blob took 24.6 s and 2.74 GB.
 */
import { pathSep } from '../../io/paths';
import { hashBlobFile } from '../../blobs/blobHashing';
import { FileInfo, fileSystem, readTextFile } from '../../io/fileSystem';

/** Largest blob verified at all (an agentledger runtime never writes one this big). */
export const MAX_BLOB_BYTES = 256 * 1024 * 1024;
/** Largest blob also parsed whole (its value for the rules, Rust `decode_value`). */
export const MAX_PARSED_BLOB_BYTES = 8 * 1024 * 1024;

/** What is at a blob's path inside one root. */
export type BlobFile =
  | { kind: 'absent' }
  | { kind: 'file'; realPath: string; stats: FileInfo }
  /** Something is there but is not read: why, in words that say what it is. */
  | { kind: 'refused'; reason: string };

/**
 * Looks at `path` inside `root` without following it out: a hostile evidence directory must not make the
 * verifier read other files (symlinks), block on a FIFO or load a huge file.
 */
export async function locateBlobFile(root: string, path: string): Promise<BlobFile> {
  try {
    await fileSystem().lstat(path);
  } catch {
    return { kind: 'absent' };
  }
  let realPath: string;
  try {
    const realRoot = await fileSystem().realpath(root);
    realPath = await fileSystem().realpath(path);
    if (!realPath.startsWith(realRoot + pathSep())) return { kind: 'refused', reason: `is a symbolic link leading outside the blob store (to ${realPath}); it is not read` };
  } catch (e) {
    return { kind: 'refused', reason: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'is a symbolic link to a file that does not exist' : `cannot be read: ${(e as Error).message}` };
  }
  const info = await fileSystem().stat(realPath);
  if (info.isFIFO()) return { kind: 'refused', reason: 'is a FIFO (named pipe), not a regular file; it is not read' };
  if (info.isDirectory()) return { kind: 'refused', reason: 'is a directory, not a file' };
  if (!info.isFile()) return { kind: 'refused', reason: 'is not a regular file; it is not read' };
  if (info.size > MAX_BLOB_BYTES) return { kind: 'refused', reason: `is ${info.size} bytes, over the ${MAX_BLOB_BYTES / 1024 / 1024} MB limit for verification` };
  return { kind: 'file', realPath, stats: info };
}

/** The streamed digest of a located blob: SHA-256 of its canonical JSON, or FNV-1a 64 of its bytes. */
export async function streamedBlobDigest(file: { realPath: string; stats: FileInfo }, algorithm: 'sha256' | 'fnv1a64'): Promise<{ digest: string } | { invalid: string } | { error: string }> {
  const h = await hashBlobFile(file.realPath, file.stats, algorithm === 'sha256' ? 'sha256-canonical-json' : 'fnv1a64-bytes');
  if (h.kind === 'digest') return { digest: h.digest };
  if (h.kind === 'invalid') return { invalid: h.error };
  return { error: h.error };
}

/** The blob's text when it is small enough to parse whole, else null. */
export async function smallBlobText(file: { realPath: string; stats: FileInfo }): Promise<string | null> {
  return file.stats.size <= MAX_PARSED_BLOB_BYTES ? readTextFile(file.realPath) : null;
}
