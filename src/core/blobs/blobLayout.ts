import type { DigestAlgorithm, HashRef } from '../model';
import type { BlobHashMethod, BlobRefRole } from './blobReference';

/**
 * Where a format's content blobs live and how their names are derived from their bytes. A format module
 * that stores blobs declares one; the blob store, the verifier and the viewer ask it instead of testing
 * format names.
 */
export interface BlobLayout {
  /** Whether a hash reference names a blob this format stores, may name one, or names content kept elsewhere. */
  refRole(ref: Pick<HashRef, 'field' | 'raw'>): BlobRefRole;
  /** How the blob a reference names is hashed. */
  hashMethod(ref: Pick<HashRef, 'algorithm' | 'raw'>): BlobHashMethod;
  /** True when the layout fixes one hashing method; false: a mismatch is tried again with the other method. */
  readonly singleMethod: boolean;
  /** Paths, relative to a blob root, where the blob may be stored; built only from a validated digest. */
  fileNames(digest: string): string[];
  /** Search `.agentledger/blobs` from the trace's folder upwards (the agentledger runtime's store). */
  readonly runtimeRoots: boolean;
  /** The trace's own folder is a store root too (a Rust `LocalBlobStore` holding `sha256/`). */
  readonly traceFolderRoot: boolean;
  /** The store's folder below the `blobs/` root beside the trace ('' for the root itself), for whole-store checks. */
  readonly storeDir: string;
  /** The digest a stored file's name carries, or null for other files (temporary files). */
  digestOfStoredName(name: string): { digest: string; algorithm: DigestAlgorithm } | null;
}
