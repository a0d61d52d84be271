import { BLOB_RULE, BlobVerifier } from './blobVerification';
import type { BlobStoreOptions } from '../blobs/blobOptions';
import { BLOB_CATALOG } from '../catalog/blobCatalog';
import { CheckContext, RuleModule, StreamCheck } from '../rules/types';

/** The blob rules (see blobCatalog.ts). */
export const BLOB_RULES = BLOB_CATALOG.rules;

/**
 * Creates the blob verifier with explicit options (blob roots from the agentTrace.blobRoots setting,
 * workspace folders, cache). The registry's module uses options attached to the context as `blobOptions`
 * when a host provides them, else the formats' default layouts only.
 */
export function createBlobVerifier(ctx: CheckContext, options?: BlobStoreOptions): StreamCheck {
  return new BlobVerifier(ctx, options ?? ctx.blobOptions ?? {});
}

/** Blob integrity verification (every referenced blob rehashes to its name), for all formats. */
export const blobRules: RuleModule = {
  format: 'generic',
  rules: BLOB_RULES,
  createVerifier: (ctx) => createBlobVerifier(ctx),
};
