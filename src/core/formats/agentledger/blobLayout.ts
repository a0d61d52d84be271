import type { BlobLayout } from '../../blobs/blobLayout';
import { scanBlobUriLine } from '../../blobs/blobReferenceScan';
import { storedJsonDigest } from '../../blobs/defaultBlobLayout';

/**
 * agentledger's blobs: any `blob://sha256/<hex>.json` value (`payload_ref`, `request_ref`, `response_ref`,
 * `blob_ref`, span attributes) names `<root>/sha256/<hex>.json` (or `<root>/<hex>.json`, for a root that is the
 * `sha256/` folder itself). 64 hex: SHA-256 of the canonical compact JSON of the parsed file (the Python store);
 * 16 hex: FNV-1a 64 of the file bytes (the Rust store). Roots (format doc §1, §7.6): an evidence export's `blobs/`
 * beside the trace, every `.agentledger/blobs` from the trace's folder upwards (the Python runtime root, also when
 * the export was written inside it) and the trace's folder itself (a Rust `LocalBlobStore` root holding
 * `sha256/`), then the user's blob roots. A `blobs/` beside the trace's parent folder is no root: nothing in the
 * format puts blobs there (a runtime root under another name is a blob root to configure). The viewer, the
 * generic blob code and the agentledger rules (evidence.ts) all look blobs up through this one list.
 *
 * Not blob references: `payload_hash` / `request_hash` / `response_hash` digest inline content (checked by
 * the agentledger rules). The agentledger rules verify the blobs themselves (agentledger/blob-exists,
 * blob-integrity, blob-ref-syntax, blob-decode), so the generic blob verifier stays out.
 */
export const agentledgerBlobLayout: BlobLayout = {
  refRole: (ref) => (ref.raw.startsWith('blob://') ? 'blob' : 'not-a-blob'),
  hashMethod: (ref) => (ref.algorithm === 'fnv1a64' ? 'fnv1a64-bytes' : 'sha256-canonical-json'),
  singleMethod: true,
  fileNames: (digest) => [`sha256/${digest}.json`, `${digest}.json`],
  runtimeRoots: true,
  traceFolderRoot: true,
  storeDir: 'sha256',
  digestOfStoredName: (name) => storedJsonDigest(name),
  lineMayHoldRef: (text) => text.includes('blob://'),
  scanLine: scanBlobUriLine,
  checksWholeStore: false,
  storeBesideTraceIsComplete: false,
  verifiedByFormatRules: true,
  noStoreReason: 'no blob store was found beside the trace or in a configured blob root (it may not have been exported with the trace)',
  syntheticRef: (digest, algorithm) => ({ field: 'blob_ref', digest, algorithm, raw: `blob://sha256/${digest}.json` }),
};
