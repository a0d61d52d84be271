import { Buffer } from 'buffer';
import type { DigestAlgorithm, HashRef } from '../model';
import type { BlobHashMethod, BlobRefRole } from './blobReference';
import type { LineRef } from './blobReferenceScan';

/**
 * Where a format's content blobs live, how their names are derived from their bytes, which line texts hold
 * references to them and how a missing one is judged. A format module that stores blobs declares one
 * (`FormatModule.blobs`); the others get the format-neutral {@link DEFAULT_BLOB_LAYOUT}. The blob store, the
 * verifier, the viewer and the editor's links ask the layout instead of testing format names.
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
  /**
   * A cheap test on a line's raw text, for callers that have not parsed it (the editor's links): false means
   * {@link scanLine} finds nothing on it. It may say true for a line without references.
   */
  lineMayHoldRef(text: string): boolean;
  /** {@link lineMayHoldRef} of a line's bytes (valid UTF-8), without decoding them; absent: they are decoded. */
  lineBytesMayHoldRef?(bytes: Buffer): boolean;
  /** The blob references on one parsed line, read from the line itself, malformed ones included. */
  scanLine(line: number, value: Record<string, unknown>, text: string): LineRef[];
  /** Every file of the store beside the trace is rehashed, and one no event names is reported (`blob/orphan`). */
  readonly checksWholeStore: boolean;
  /**
   * A store beside the trace holds every blob the trace names (the writer stores them together), so a missing
   * blob there is an error, not a store that was not exported with the trace (a warning).
   */
  readonly storeBesideTraceIsComplete: boolean;
  /**
   * For formats whose lines show that content was captured (so blobs must exist even without a store): true
   * for such a line. A layout with this hook has every line read by the blob verifier.
   */
  contentCaptured?(value: Record<string, unknown>): boolean;
  /**
   * The format's own rules verify its blobs under the format doc's rule ids, so the generic blob verifier
   * stays out (each problem would be reported twice). Its blobs are still resolved and previewed.
   */
  readonly verifiedByFormatRules: boolean;
  /** Why referenced blobs cannot be shown when no store is found (ends the `blob/no-store` message). */
  readonly noStoreReason: string;
  /** A reference built from a digest alone, in the shape the format writes one (field and raw text matter for hashing). */
  syntheticRef(digest: string, algorithm: DigestAlgorithm): HashRef;
}
