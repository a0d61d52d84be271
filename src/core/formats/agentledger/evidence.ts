/**
 * The files around an AgentLedger trace: `bundle.json` and `manifest.json` of the evidence directory and the
 * blob store (§1, §7.6). Read from the trace's own directory; nothing is written.
 */
import { dirname, join } from '../../io/paths';
import { FileInfo, fileSystem, readTextFile } from '../../io/fileSystem';
import { fnv1a64HexOfText, sha256Hex } from '../../digests';
import { isObj, Obj } from '../common';
import { canonicalJson, parseRawJson, RawJson, rawToValue } from '../../json/pythonRawJson';
import { rustDecodeValue } from './rustText';
import { locateBlobFile, smallBlobText, streamedBlobDigest } from './blobFile';

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

/** The outcome of resolving and rehashing one blob. */
export type BlobStatus =
  | { state: 'no-store' }
  | { state: 'missing'; path: string }
  | { state: 'unverifiable'; path: string }
  /** A file is there but is not read (a symlink out of the store, a FIFO, too large): `reason` says what it is. */
  | { state: 'refused'; path: string; reason: string }
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

async function isDir(p: string): Promise<boolean> {
  try {
    return (await fileSystem().stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Resolves `blob://sha256/<name>` refs under the blob roots a trace directory can have and rehashes each file
 * once: 64-hex names by SHA-256 of the canonical JSON of the parsed file, 16-hex names by FNV-1a of the text.
 */
export class BlobStore {
  private roots: Promise<string[]> | null = null;
  private readonly cache = new Map<string, Promise<BlobStatus>>();

  constructor(private readonly traceDir: string) {}

  /** Candidate roots that hold a `sha256/` folder: Python `blobs/`, `.agentledger/blobs`, a Rust store root. */
  private findRoots(): Promise<string[]> {
    const d = this.traceDir;
    const candidates = [join(d, 'blobs'), join(d, '.agentledger', 'blobs'), d, join(d, '..', 'blobs'), join(d, '..', '.agentledger', 'blobs')];
    return (this.roots ??= Promise.all(candidates.map(async (c) => ((await isDir(join(c, 'sha256'))) ? c : null))).then((r) => r.filter((x): x is string => x !== null)));
  }

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
    const roots = await this.findRoots();
    if (roots.length === 0) return { state: 'no-store' };
    let refused: BlobStatus | null = null;
    for (const root of roots) {
      const path = join(root, 'sha256', name);
      const file = await locateBlobFile(root, path);
      if (file.kind === 'absent') continue;
      if (file.kind === 'refused') {
        refused ??= { state: 'refused', path, reason: file.reason };
        continue;
      }
      return verifyBlobFile(name.replace(/\.json$/, ''), file, path);
    }
    return refused ?? { state: 'missing', path: join(roots[0], 'sha256', name) };
  }
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
    if ('error' in h) return { state: 'refused', path, reason: h.error };
    const actual = 'digest' in h ? h.digest : 'not JSON';
    return { state: 'checked', path, algorithm, actual, ok: actual === digest, decodeError: null, value: undefined };
  } catch (e) {
    return { state: 'refused', path, reason: `cannot be read: ${(e as Error).message}` };
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
