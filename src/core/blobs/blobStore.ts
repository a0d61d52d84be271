import { dirname, isAbsolute, join, relative, resolve } from '../io/paths';
import { DigestAlgorithm, HashRef } from '../model';
import { BlobHashCache, hashBlobFile, HashOutcome, sharedBlobHashCache } from './blobHashing';
import type { BlobLayout } from './blobLayout';
import type { BlobStoreOptions } from './blobOptions';
import { BlobHashMethod, BlobRefRole, checkHashRef } from './blobReference';
import { findBlobRoots } from './blobRoots';
import { BlobRoot, locateInRoot } from './blobSafety';
import { FolderListings } from './blobListing';
import { FileInfo, fileSystem } from '../io/fileSystem';

/** Integrity of one referenced blob. `too-large` means it could not be verified within the limits. */
export type BlobStatus = 'verified' | 'mismatch' | 'missing' | 'unreadable' | 'too-large' | 'rejected' | 'unverifiable';

/** What resolving a reference found. */
export interface BlobResult {
  status: BlobStatus;
  role: BlobRefRole;
  ref: HashRef;
  algorithm: DigestAlgorithm;
  method: BlobHashMethod;
  /** The digest the reference names. */
  expected: string;
  /** The digest the file's content has (absent when it could not be computed). */
  actual?: string;
  /** The file as found under its root, and its real path (symbolic links resolved, inside the root). */
  path?: string;
  realPath?: string;
  root?: BlobRoot;
  size?: number;
  mtimeMs?: number;
  /** The file is larger than the preview limit: show a bounded preview and offer "Open full blob". */
  previewTooLarge?: boolean;
  /** One sentence for people, naming expected and actual digests where they differ. */
  message: string;
}

export type { BlobStoreOptions };

const METHOD_LABEL: Record<BlobHashMethod, string> = {
  'sha256-bytes': 'SHA-256 of the file bytes',
  'sha256-canonical-json': 'SHA-256 of the canonical JSON',
  'fnv1a64-bytes': 'FNV-1a 64 of the file bytes',
};

/**
 * Where the file a digest names was found: in a root (its path there, its real path and what stat said), nowhere,
 * or somewhere it is not read from (`rejected`: it or its root leads elsewhere; `unreadable`: not a regular file,
 * or stat failed), with one phrase, naming the file, that says why.
 */
export type BlobLookup =
  | { kind: 'found'; root: BlobRoot; path: string; realPath: string; stats: FileInfo }
  | { kind: 'missing' }
  | { kind: 'rejected' | 'unreadable'; reason: string; path: string };

/**
 * The blob store(s) of one trace: its roots (found once) and the rehash cache. Resolving a reference never
 * reads outside the roots and never throws. Opened with the trace's format's layout; a format's own rules open
 * one with their layout, the rest of the code by format name (`openBlobStore`, blobStore/formatBlobs.ts).
 */
export class BlobStore {
  private constructor(
    readonly tracePath: string,
    /** Where the format keeps its blobs and how it names them. */
    readonly layout: BlobLayout,
    readonly roots: readonly BlobRoot[],
    private readonly options: BlobStoreOptions,
  ) {}

  /**
   * Finds the trace's blob roots (see blobRoots.ts: the layout's folders, then the options' extra roots, the
   * `agentTrace.blobRoots` setting or the CLI's `--blob-root`) and returns a store over them.
   */
  static async open(tracePath: string, layout: BlobLayout, options: BlobStoreOptions = {}): Promise<BlobStore> {
    return new BlobStore(resolve(tracePath), layout, await findBlobRoots(tracePath, layout, options), options);
  }

  /** The roots' sources: `beside-trace` means the format's own store exists next to the trace. */
  hasRoot(source?: BlobRoot['source']): boolean {
    return this.roots.some((r) => source === undefined || r.source === source);
  }

  /** Whether the reference names a blob in this trace's format. */
  role(ref: Pick<HashRef, 'field' | 'raw'>): BlobRefRole {
    return this.layout.refRole(ref);
  }

  /** A path for messages: relative to the trace's folder when inside it. */
  display(path: string): string {
    const rel = relative(dirname(this.tracePath), path);
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split('\\').join('/') : path;
  }

  /**
   * The file a blob reference names, without rehashing it (find reads blob text; verification is the
   * Content tab's and the checks' job): its real path inside a root and its size, or null.
   */
  async locate(ref: HashRef): Promise<{ realPath: string; size: number } | null> {
    if (this.role(ref) === 'not-a-blob' || !checkHashRef(ref).ok) return null;
    const found = await this.find(ref.digest);
    return found.kind === 'found' ? { realPath: found.realPath, size: found.stats.size } : null;
  }

  /**
   * A locator for many references in one pass (find): the same files {@link locate} finds, but each folder
   * of a root is listed once instead of three calls per blob (see blobListing.ts). Gives the real path; the
   * size is read when the file is opened.
   */
  locator(): (ref: HashRef) => Promise<string | null> {
    const listings = new FolderListings();
    return async (ref) => {
      if (this.role(ref) === 'not-a-blob' || !checkHashRef(ref).ok) return null;
      // Roots leading outside the trace's folder are refused, as lookup() refuses what it finds in them.
      for (const root of this.roots.filter((r) => r.outside === undefined)) {
        for (const name of this.layout.fileNames(ref.digest)) {
          const listed = await listings.classify(root.realPath, name);
          if (listed === 'file') return join(root.realPath, name);
          if (listed === 'absent') continue;
          const loc = await locateInRoot(root, name);
          if (loc?.kind === 'found') return loc.realPath;
        }
      }
      return null;
    };
  }

  /**
   * Finds the file a digest names, across the roots in order and the layout's file names, without reading it.
   * `digest` is a validated digest, or a name a format's rules checked has no `/`, `\` or `..` (agentledger's Rust
   * store names any `<name>.json`); a name that climbs out of a root is refused anyway.
   */
  async find(digest: string): Promise<BlobLookup> {
    let refused: BlobLookup | null = null;
    for (const root of this.roots) {
      for (const name of this.layout.fileNames(digest)) {
        const loc = await locateInRoot(root, name);
        if (loc === null) continue;
        if (loc.kind === 'found') {
          if (root.outside === undefined) return { kind: 'found', root, path: loc.path, realPath: loc.realPath, stats: loc.stats };
          refused = { kind: 'rejected', path: loc.path, reason: `the blob folder ${this.display(root.path)} is a symbolic link leading outside the trace's folder (to ${root.outside}); nothing in it is read` };
        } else if (loc.kind === 'escape') refused = { kind: 'rejected', path: loc.path, reason: `${this.display(loc.path)} leads outside the blob root ${this.display(root.path)} (to ${loc.target})` };
        else if (!refused) refused = { kind: 'unreadable', path: loc.path, reason: loc.kind === 'not-file' ? `${this.display(loc.path)} is ${loc.what}, not a regular file; it is not read` : `${this.display(loc.path)}: ${loc.error}` };
      }
    }
    return refused ?? { kind: 'missing' };
  }

  /** Resolves a reference to its blob file and rehashes it (cached per path, size and mtime). */
  async resolve(ref: HashRef): Promise<BlobResult> {
    const role = this.role(ref);
    const method = this.layout.hashMethod(ref);
    const base = { role, ref, algorithm: ref.algorithm, method, expected: ref.digest };
    const check = checkHashRef(ref);
    if (!check.ok) return { ...base, status: check.unverifiable ? 'unverifiable' : 'rejected', message: `Reference ${ref.field} refused: ${check.reason}.` };
    const found = await this.find(ref.digest);
    if (found.kind === 'missing') {
      const where = this.roots.length === 0 ? 'no blob store was found' : `not in ${this.roots.map((r) => `${this.display(r.path)}/`).join(', ')}`;
      return { ...base, status: 'missing', message: `Missing blob (${ref.field}): ${where}; digest ${ref.digest}.` };
    }
    if (found.kind !== 'found') return { ...base, status: found.kind, path: found.path, message: `${found.kind === 'rejected' ? 'Blob refused' : 'Blob unreadable'} (${ref.field}): ${found.reason}; digest ${ref.digest}.` };
    const place = {
      path: found.path, realPath: found.realPath, root: found.root, size: found.stats.size, mtimeMs: found.stats.mtimeMs,
      previewTooLarge: found.stats.size > (this.options.previewLimit ?? 1024 * 1024),
    };
    const [outcome, usedMethod] = await this.rehash(found.realPath, found.stats, method, ref.digest);
    return { ...base, ...place, method: usedMethod, ...this.judge(outcome, usedMethod, ref, this.display(found.path)) };
  }

  /**
   * Rehashes with the layout's method. When the layout does not fix one (formats without a documented blob
   * scheme), a JSON blob may be named by either its bytes or its canonical JSON: the other method is tried
   * before calling it a mismatch.
   */
  private async rehash(realPath: string, stats: FileInfo, method: BlobHashMethod, expected: string): Promise<[HashOutcome, BlobHashMethod]> {
    const first = await this.hashWith(realPath, stats, method);
    if (this.layout.singleMethod || method === 'fnv1a64-bytes') return [first, method];
    if (first.kind === 'digest' && first.digest === expected) return [first, method];
    const other: BlobHashMethod = method === 'sha256-bytes' ? 'sha256-canonical-json' : 'sha256-bytes';
    const second = await this.hashWith(realPath, stats, other);
    return second.kind === 'digest' && second.digest === expected ? [second, other] : [first, method];
  }

  private hashWith(realPath: string, stats: FileInfo, method: BlobHashMethod): Promise<HashOutcome> {
    const cache = this.options.cache ?? sharedBlobHashCache;
    return cache.get(BlobHashCache.key(realPath, stats, method), () => hashBlobFile(realPath, stats, method, this.options));
  }

  private judge(outcome: HashOutcome, method: BlobHashMethod, ref: HashRef, shown: string): Pick<BlobResult, 'status' | 'actual' | 'message'> {
    const label = METHOD_LABEL[method];
    switch (outcome.kind) {
      case 'digest':
        if (outcome.digest === ref.digest) return { status: 'verified', actual: outcome.digest, message: `Blob verified (${label} ${outcome.digest}): ${shown}.` };
        return {
          status: 'mismatch',
          actual: outcome.digest,
          message: `Blob content does not match its name, tampered or truncated (${ref.field}): expected ${label} ${ref.digest}, actual ${outcome.digest}; file ${shown}.`,
        };
      case 'invalid':
        return { status: 'mismatch', message: `Blob corrupt or truncated (${ref.field}): the file is ${outcome.error}, so it cannot hash to ${label} ${ref.digest}; file ${shown}.` };
      case 'too-large':
        return { status: 'too-large', message: `Blob not verified (${ref.field}): ${outcome.error}; file ${shown}.` };
      case 'error':
        return { status: 'unreadable', message: `Blob cannot be read (${ref.field}): ${outcome.error}; file ${shown}.` };
    }
  }

  /**
   * Files in the format's own store beside the trace (murmur `blobs/<64hex>`, others `blobs/sha256/`) whose
   * names are digests, for orphan and whole-store checks. Other names (temporary files) are skipped.
   */
  async storedDigests(): Promise<{ digest: string; algorithm: DigestAlgorithm; path: string }[]> {
    const root = this.roots.find((r) => r.source === 'beside-trace');
    if (!root) return [];
    const dir = this.layout.storeDir === '' ? root.realPath : join(root.realPath, this.layout.storeDir);
    let names: string[];
    try {
      names = (await fileSystem().list(dir)).map((e) => e.name);
    } catch {
      return [];
    }
    const out: { digest: string; algorithm: DigestAlgorithm; path: string }[] = [];
    for (const name of names.sort()) {
      const d = this.layout.digestOfStoredName(name);
      if (d) out.push({ ...d, path: join(dir, name) });
    }
    return out;
  }
}
