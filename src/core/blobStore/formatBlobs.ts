import { formatModule } from '../formats';
import { isObj } from '../json/jsonObject';
import type { FormatName, HashRef } from '../model';
import type { BlobLayout } from '../blobs/blobLayout';
import type { BlobStoreOptions } from '../blobs/blobOptions';
import { BlobResult, BlobStore } from '../blobs/blobStore';
import type { BlobHashMethod, BlobRefRole } from '../blobs/blobReference';
import type { LineRef } from '../blobs/blobReferenceScan';
import { DEFAULT_BLOB_LAYOUT } from '../blobs/defaultBlobLayout';

/**
 * A format's blob facts by its name: its module's {@link BlobLayout}, or the format-neutral one. The one
 * place the blob code turns a format name into a layout (it reads the registry, so the layouts themselves,
 * which the format modules import, stay free of it).
 */
export function blobLayoutOf(format: FormatName): BlobLayout {
  return formatModule(format).blobs ?? DEFAULT_BLOB_LAYOUT;
}

/** The role of one hash reference in a trace of `format`. */
export function blobRefRole(format: FormatName, ref: Pick<HashRef, 'field' | 'raw'>): BlobRefRole {
  return blobLayoutOf(format).refRole(ref);
}

/** How the blob a reference names is hashed, per format and algorithm. */
export function hashMethodFor(format: FormatName, ref: Pick<HashRef, 'algorithm' | 'raw'>): BlobHashMethod {
  return blobLayoutOf(format).hashMethod(ref);
}

/** Paths, relative to a blob root, where the blob may be stored; built only from a validated digest. */
export function blobFileNames(format: FormatName, digest: string): string[] {
  return blobLayoutOf(format).fileNames(digest);
}

/**
 * Blob references on one parsed line, read from the line itself (the format's blob fields and any
 * `blob://` value). This does not depend on the format adapter's hashRefs, and sees malformed references
 * the adapter cannot represent as a HashRef.
 */
export function scanLineForBlobRefs(format: FormatName, line: number, value: unknown, text: string): LineRef[] {
  return isObj(value) ? blobLayoutOf(format).scanLine(line, value, text) : [];
}

/** The blob store of a trace of `format`: its layout's roots and the options' extra roots (see {@link BlobStore.open}). */
export function openBlobStore(tracePath: string, format: FormatName, options: BlobStoreOptions = {}): Promise<BlobStore> {
  return BlobStore.open(tracePath, blobLayoutOf(format), options);
}

/** Where a trace's blobs are resolved from (see {@link resolveBlob}). */
export interface BlobContext extends BlobStoreOptions {
  tracePath: string;
  format: FormatName;
}

/** Resolves and verifies one reference without keeping a store (the roots are searched again each call). */
export async function resolveBlob(ref: HashRef, ctx: BlobContext): Promise<BlobResult> {
  return (await openBlobStore(ctx.tracePath, ctx.format, ctx)).resolve(ref);
}
