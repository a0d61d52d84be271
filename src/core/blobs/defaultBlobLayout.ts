import { Buffer } from 'buffer';
import type { DigestAlgorithm, HashRef } from '../model';
import type { BlobLayout } from './blobLayout';
import { algorithmOfDigest, BlobHashMethod } from './blobReference';
import { scanBlobUriLine } from './blobReferenceScan';

/**
 * The blob layout of formats that document none: `blob://` values are blob references (any other digest
 * only if such a file exists), stored as `blobs/<hex>[.json]` or `blobs/sha256/<hex>[.json]` beside the
 * trace or in an `.agentledger/blobs` runtime root; hashed as SHA-256 of the bytes, or of the canonical JSON
 * for `blob://…json`. Since no writer fixes the method, a mismatch is tried again with the other one.
 */
const BLOB_SCHEME = Buffer.from('blob://');

export const DEFAULT_BLOB_LAYOUT: BlobLayout = {
  refRole: (ref) => (ref.raw.startsWith('blob://') ? 'blob' : 'opportunistic'),
  hashMethod: (ref): BlobHashMethod => {
    if (ref.algorithm === 'fnv1a64') return 'fnv1a64-bytes';
    return /^blob:\/\/.*\.json$/.test(ref.raw) ? 'sha256-canonical-json' : 'sha256-bytes';
  },
  singleMethod: false,
  fileNames: (digest) => [digest, `${digest}.json`, `sha256/${digest}.json`, `sha256/${digest}`],
  runtimeRoots: true,
  traceFolderRoot: false,
  storeDir: 'sha256',
  digestOfStoredName: (name) => storedJsonDigest(name),
  lineMayHoldRef: (text) => text.includes('blob://'),
  // ASCII: in valid UTF-8 its bytes stand for these characters only.
  lineBytesMayHoldRef: (bytes) => bytes.includes(BLOB_SCHEME),
  scanLine: scanBlobUriLine,
  checksWholeStore: false,
  storeBesideTraceIsComplete: false,
  verifiedByFormatRules: false,
  noStoreReason: 'no blob store was found beside the trace or in a configured blob root (it may not have been exported with the trace)',
  syntheticRef: (digest, algorithm): HashRef => ({ field: 'ref', digest, algorithm, raw: digest }),
};

/** The digest a `sha256/` store file is named by (`<hex>` or `<hex>.json`), of either algorithm. */
export function storedJsonDigest(name: string): { digest: string; algorithm: DigestAlgorithm } | null {
  const digest = name.replace(/\.json$/, '');
  const algorithm = algorithmOfDigest(digest);
  return algorithm ? { digest, algorithm } : null;
}
