/**
 * The files around an AgentLedger trace: `bundle.json` and `manifest.json` of the evidence directory (read from the
 * trace's own directory) and its blobs (§1, §7.6, found through the shared blob store). Nothing is written.
 */
import { dirname, join } from '../../io/paths';
import { FileInfo, fileSystem, readTextFile } from '../../io/fileSystem';
import { fnv1a64HexOfText, sha256Hex } from '../../digests';
import { isObj, Obj } from '../common';
import { canonicalJson, parseRawJson, RawJson, rawToValue } from '../../json/pythonRawJson';
import { rustDecodeValue } from './rustText';
import { MAX_BLOB_BYTES, smallBlobText, streamedBlobDigest } from './blobFile';
import { agentledgerBlobLayout } from './blobLayout';
import { BlobStore } from '../../blobs/blobStore';
import type { BlobStoreOptions } from '../../blobs/blobOptions';
import type { BlobRoot } from '../../blobs/blobSafety';

/** A parsed evidence bundle, with its raw tree for byte-exact rehashing. */
export interface Evidence {
  bundle: Obj;
  raw: RawJson;
  manifest: Obj | null;
}

/** The evidence next to a trace, or why there is none to use. */
export type EvidenceLoad = { state: 'ok'; evidence: Evidence } | { state: 'missing' } | { state: 'unreadable'; message: string };

/** Reads `bundle.json` (and `manifest.json` when present) from the trace's directory. */
export async function loadEvidence(tracePath: string): Promise<EvidenceLoad> {
  const dir = dirname(tracePath);
  let text: string;
  try {
    text = await readTextFile(join(dir, 'bundle.json'));
  } catch {
    return { state: 'missing' };
  }
  let raw: RawJson;
  let bundle: unknown;
  try {
    raw = parseRawJson(text.replace(/^\uFEFF/, ''));
    bundle = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    return { state: 'unreadable', message: `bundle.json is not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (!isObj(bundle)) return { state: 'unreadable', message: 'bundle.json is not a JSON object' };
  let manifest: Obj | null = null;
  try {
    const m: unknown = JSON.parse(await readTextFile(join(dir, 'manifest.json')));
    manifest = isObj(m) ? m : null;
  } catch {
    manifest = null;
  }
  return { state: 'ok', evidence: { bundle, raw, manifest } };
}

/** Why a `blob://` ref cannot be used, per the Rust `get_json` rules; null when its syntax is fine. */
export function blobRefProblem(ref: string): string | null {
  if (!ref.startsWith('blob://sha256/')) return `unsupported blob ref: ${ref}`;
  const name = ref.slice('blob://sha256/'.length);
  if (!name.endsWith('.json')) return `unsupported blob ref: ${ref} (the name does not end with .json)`;
  if (name.includes('..') || name.includes('/') || name.includes('\\')) return `unsupported blob ref: ${ref} (the name contains .., / or \\)`;
  return null;
}

/**
 * The outcome of resolving and rehashing one blob. `path` is where it is or was looked for, as the store shows
 * paths (relative to the trace's folder when inside it).
 */
export type BlobStatus =
  | { state: 'no-store' }
  | { state: 'missing'; path: string }
  | { state: 'unverifiable'; path: string }
  /** A file is there but is not read (too large): `reason` names it and says why. */
  | { state: 'refused'; path: string; reason: string }
  /**
   * The blob's name is taken by something that is not its content and is never read: not a regular file (a
   * directory, a FIFO, a device, a symbolic link loop or a link to nothing), a link leading out of its root, or a
   * file that cannot be read. `reason` names it and says what it is. Fails like content that does not hash to
   * its name (issue 41: putting something else in a blob's place must not make verification pass).
   */
  | { state: 'not-blob'; path: string; reason: string }
  | {
      state: 'checked';
      path: string;
      algorithm: 'sha256' | 'fnv1a64';
      /** The digest the content hashes to ('not JSON' when a Python blob does not parse). */
      actual: string;
      ok: boolean;
      /** Rust blobs: why `decode_value` rejects the body, or null. */
      decodeError: string | null;
      value: unknown;
    };

/**
 * The blobs of one trace for agentledger's own rules. The lookup is the shared blob store's, with the format's
 * layout: the same roots the viewer reads (`blobs/` beside the trace, every `.agentledger/blobs` upwards, the
 * trace's folder as a Rust store root) and the user's blob roots (`agentTrace.blobRoots`, `--blob-root`), the
 * same file names and the same refusals. The verification is the format's: each blob is rehashed once, 64-hex
 * names by SHA-256 of the canonical JSON of the parsed file, 16-hex names by FNV-1a of the text (and decoded).
 */
export class LedgerBlobs {
  private store: Promise<BlobStore> | null = null;
  private home: Promise<BlobRoot | null> | null = null;
  private readonly cache = new Map<string, Promise<BlobStatus>>();

  constructor(private readonly tracePath: string, private readonly options: BlobStoreOptions = {}) {}

  /** Resolves and verifies the blob a well-formed ref names (call {@link blobRefProblem} first). */
  status(ref: string): Promise<BlobStatus> {
    let p = this.cache.get(ref);
    if (!p) {
      p = this.resolve(ref.slice('blob://sha256/'.length));
      this.cache.set(ref, p);
    }
    return p;
  }

  private async resolve(name: string): Promise<BlobStatus> {
    const store = await (this.store ??= BlobStore.open(this.tracePath, agentledgerBlobLayout, this.options));
    // A well-formed ref's name ends with `.json` and has no `/`, `\` or `..`; the Rust store takes any such name.
    const digest = name.slice(0, -'.json'.length);
    const found = await store.find(digest);
    if (found.kind === 'found') {
      const path = store.display(found.path);
      if (found.stats.size > MAX_BLOB_BYTES) return { state: 'refused', path, reason: `${path} is ${found.stats.size} bytes, over the ${MAX_BLOB_BYTES / 1024 / 1024} MB limit for verification; it is not read` };
      return verifyBlobFile(digest, found, path);
    }
    if (found.kind !== 'missing') return { state: 'not-blob', path: store.display(found.path), reason: found.reason };
    const home = await (this.home ??= storeRoot(store));
    return home ? { state: 'missing', path: store.display(join(home.path, agentledgerBlobLayout.fileNames(digest)[0])) } : { state: 'no-store' };
  }
}

/**
 * The first root that is a blob store: one holding the layout's `sha256/` folder, or one the user configured. None
 * means no store was exported with the trace (one info finding), not that each blob is missing.
 */
async function storeRoot(store: BlobStore): Promise<BlobRoot | null> {
  for (const root of store.roots) {
    if (root.outside !== undefined) continue;
    if (root.source === 'setting') return root;
    try {
      if ((await fileSystem().stat(join(root.realPath, agentledgerBlobLayout.storeDir))).isDirectory()) return root;
    } catch {
      // no store folder in this root
    }
  }
  return null;
}

/**
 * Verifies a located blob: small ones whole (their value is needed by the rules), larger ones streamed, so memory
 * stays at a chunk whatever the blob's size.
 */
async function verifyBlobFile(digest: string, file: { realPath: string; stats: FileInfo }, path: string): Promise<BlobStatus> {
  try {
    const text = await smallBlobText(file);
    if (text !== null) return verifyBlobText(digest, text, path);
    const algorithm = /^[0-9a-f]{64}$/.test(digest) ? 'sha256' : /^[0-9a-f]{16}$/.test(digest) ? 'fnv1a64' : null;
    if (algorithm === null) return { state: 'unverifiable', path };
    const h = await streamedBlobDigest(file, algorithm);
    if ('error' in h) return { state: 'not-blob', path, reason: `${path}: ${h.error}` };
    const actual = 'digest' in h ? h.digest : 'not JSON';
    return { state: 'checked', path, algorithm, actual, ok: actual === digest, decodeError: null, value: undefined };
  } catch (e) {
    return { state: 'not-blob', path, reason: `${path} cannot be read: ${(e as Error).message}` };
  }
}

/** Verifies one blob body against its name (without `.json`), choosing the algorithm by the name's length. */
export function verifyBlobText(digest: string, text: string, path: string): BlobStatus {
  if (/^[0-9a-f]{64}$/.test(digest)) {
    let raw: RawJson;
    try {
      raw = parseRawJson(text.replace(/^\uFEFF/, ''));
    } catch {
      return { state: 'checked', path, algorithm: 'sha256', actual: 'not JSON', ok: false, decodeError: null, value: undefined };
    }
    const actual = sha256Hex(canonicalJson(raw));
    return { state: 'checked', path, algorithm: 'sha256', actual, ok: actual === digest, decodeError: null, value: rawToValue(raw) };
  }
  if (/^[0-9a-f]{16}$/.test(digest)) {
    const decoded = rustDecodeValue(text);
    const actual = fnv1a64HexOfText(text);
    return {
      state: 'checked', path, algorithm: 'fnv1a64', actual, ok: actual === digest,
      decodeError: decoded.ok ? null : decoded.error, value: decoded.ok ? decoded.value : undefined,
    };
  }
  return { state: 'unverifiable', path };
}
