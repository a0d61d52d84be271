/**
 * Content blobs: resolving the hashes a trace's events hold to blob files, rehashing them from their raw
 * bytes, and reading bounded previews, without ever reading outside the blob roots.
 */
export { BlobStore } from '../blobs/blobStore';
export type { BlobLookup, BlobResult, BlobStatus } from '../blobs/blobStore';
export { readBlobPreview, DEFAULT_PREVIEW_BYTES, MAX_PREVIEW_BYTES } from './blobPreview';
export type { BlobPreview } from './blobPreview';
export { BlobHashCache, hashBlobFile, sharedBlobHashCache } from '../blobs/blobHashing';
export type { HashOptions, HashOutcome } from '../blobs/blobHashing';
export { algorithmOfDigest, checkBlobUri, checkHashRef, shortDigest, DIGEST_PATTERN } from '../blobs/blobReference';
export type { BlobHashMethod, BlobRefRole, RefCheck } from '../blobs/blobReference';
export type { BlobLayout } from '../blobs/blobLayout';
export type { BlobStoreOptions } from '../blobs/blobOptions';
export { DEFAULT_BLOB_LAYOUT } from '../blobs/defaultBlobLayout';
export { blobFileNames, blobLayoutOf, blobRefRole, hashMethodFor, openBlobStore, resolveBlob, scanLineForBlobRefs } from './formatBlobs';
export type { BlobContext } from './formatBlobs';
export { candidateRoots, findBlobRoots } from '../blobs/blobRoots';
export type { BlobRootOptions } from '../blobs/blobRoots';
export type { BlobRoot } from '../blobs/blobSafety';
export type { LineRef } from '../blobs/blobReferenceScan';
export { canonicalJsonSha256OfBuffer, PythonCanonicalJsonHasher } from '../json/pythonCanonicalJson';
export { canonicalScalar, pythonFloatRepr } from '../json/jsonTokenizer';
