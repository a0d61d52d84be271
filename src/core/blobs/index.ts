/**
 * Content blobs: resolving the hashes a trace's events hold to blob files, rehashing them from their raw
 * bytes, and reading bounded previews, without ever reading outside the blob roots.
 */
export { BlobStore, resolveBlob } from './blobStore';
export type { BlobContext, BlobResult, BlobStatus } from './blobStore';
export { readBlobPreview, DEFAULT_PREVIEW_BYTES, MAX_PREVIEW_BYTES } from './blobPreview';
export type { BlobPreview } from './blobPreview';
export { BlobHashCache, hashBlobFile, sharedBlobHashCache } from './blobHashing';
export type { HashOptions, HashOutcome } from './blobHashing';
export { algorithmOfDigest, checkBlobUri, checkHashRef, shortDigest, DIGEST_PATTERN } from './blobReference';
export type { BlobHashMethod, BlobRefRole, RefCheck } from './blobReference';
export type { BlobLayout } from './blobLayout';
export type { BlobStoreOptions } from './blobOptions';
export { DEFAULT_BLOB_LAYOUT } from './defaultBlobLayout';
export { blobFileNames, blobLayoutOf, blobRefRole, hashMethodFor, scanLineForBlobRefs } from './formatBlobs';
export { candidateRoots, findBlobRoots } from './blobRoots';
export type { BlobRootOptions } from './blobRoots';
export type { BlobRoot } from './blobSafety';
export type { LineRef } from './blobReferenceScan';
export { BLOB_RULE, BlobVerifier } from './blobVerification';
export { canonicalJsonSha256OfBuffer, PythonCanonicalJsonHasher } from '../json/pythonCanonicalJson';
export { canonicalScalar, pythonFloatRepr } from '../json/jsonTokenizer';
