import type { BlobHashCache, HashOptions } from './blobHashing';
import type { BlobRootOptions } from './blobRoots';

/**
 * Options of a {@link BlobStore}. Declared apart from the store so the check engine's types can name them
 * without importing the store, which reads the format registry.
 */
export interface BlobStoreOptions extends BlobRootOptions, HashOptions {
  cache?: BlobHashCache;
  /** Size above which a blob is marked `previewTooLarge`; default 1 MiB. */
  previewLimit?: number;
}
