/**
 * Reading one AgentLedger blob the shared store found (evidence.ts), for verification, streamed and bounded: the
 * digest is computed over chunks (SHA-256 of the canonical JSON, or FNV-1a of the text), and a blob is parsed whole
 * only when it is small, for the fields the rules look into. Before, a 20 MB blob took 24.6 s and 2.74 GB.
 */
import { hashBlobFile } from '../../blobs/blobHashing';
import { FileInfo, readTextFile } from '../../io/fileSystem';

/** Largest blob verified at all (an agentledger runtime never writes one this big). */
export const MAX_BLOB_BYTES = 256 * 1024 * 1024;
/** Largest blob also parsed whole (its value for the rules, Rust `decode_value`). */
export const MAX_PARSED_BLOB_BYTES = 8 * 1024 * 1024;

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
