import { DigestAlgorithm, HashRef } from '../model';

/**
 * Format-neutral facts of blob references: how a blob may be hashed, the role a reference can play, the
 * digest shapes, and which reference texts are safe to turn into a file name. What is a blob reference in
 * which format, and where its file lives, is each format's `BlobLayout` (`formats/<name>/blobLayout.ts`;
 * the others use `defaultBlobLayout.ts`); `blobStore/formatBlobs.ts` finds a format's layout.
 */

/** How a blob's bytes are turned into the digest its name carries. */
export type BlobHashMethod = 'sha256-bytes' | 'sha256-canonical-json' | 'fnv1a64-bytes';

/**
 * `blob`: the reference names a blob the format stores, so a missing file is a finding.
 * `opportunistic`: a digest that may or may not name a blob (other formats); verified only if a file exists.
 * `not-a-blob`: a digest of content kept elsewhere or inline; never resolved.
 */
export type BlobRefRole = 'blob' | 'opportunistic' | 'not-a-blob';

/** Exact digest shapes: lowercase hex of the algorithm's length, nothing else. */
export const DIGEST_PATTERN: Record<DigestAlgorithm, RegExp> = {
  sha256: /^[0-9a-f]{64}$/,
  fnv1a64: /^[0-9a-f]{16}$/,
};

/** The digest algorithm a digest of this length means (agentledger: 16 hex = FNV-1a 64, 64 hex = SHA-256). */
export function algorithmOfDigest(hex: string): DigestAlgorithm | null {
  if (DIGEST_PATTERN.sha256.test(hex)) return 'sha256';
  if (DIGEST_PATTERN.fnv1a64.test(hex)) return 'fnv1a64';
  return null;
}

/** Why a reference was refused; shown to the user. */
export interface RefCheck {
  ok: boolean;
  /** Set when not ok. */
  reason?: string;
  /** True when the reference is not unsafe but names no digest (Rust allows `blob://sha256/chunk-7.json`). */
  unverifiable?: boolean;
}

const BLOB_URI = /^blob:\/\/sha256\/([0-9a-f]{64}|[0-9a-f]{16})(\.json)?$/;

/**
 * Checks a `blob://` reference text before any file name is derived from it: the name may not contain
 * `..`, `/`, `\`, NUL or be absolute, must end in `.json` per agentledger's store, and must be a lowercase
 * hex digest to be verifiable.
 */
export function checkBlobUri(raw: string): RefCheck {
  if (!raw.startsWith('blob://')) return { ok: false, reason: 'not a blob:// reference' };
  const rest = raw.slice('blob://'.length);
  if (!rest.startsWith('sha256/')) return { ok: false, reason: `unsupported blob ref: ${raw} (expected blob://sha256/<digest>.json)` };
  const name = rest.slice('sha256/'.length);
  if (name === '' || name.includes('..') || /[/\\\0]/.test(name) || /^[a-zA-Z]:/.test(name)) {
    return { ok: false, reason: `unsafe blob name ${JSON.stringify(name)}: a blob name may not contain "..", "/", "\\" or a drive` };
  }
  if (BLOB_URI.test(raw)) return { ok: true };
  return { ok: false, unverifiable: true, reason: `blob name ${JSON.stringify(name)} is not a lowercase 16- or 64-hex digest; it cannot be verified` };
}

/**
 * Validates a hash reference as a blob name: the digest must be lowercase hex of exactly the algorithm's
 * length, and the raw text must be that digest (bare, `sha256:`-prefixed or a safe `blob://` URI).
 * Uppercase, short, long, non-hex, `..`, separators and absolute paths are refused.
 */
export function checkHashRef(ref: Pick<HashRef, 'digest' | 'algorithm' | 'raw'>): RefCheck {
  const pattern = DIGEST_PATTERN[ref.algorithm];
  if (!pattern) return { ok: false, reason: `unknown digest algorithm ${JSON.stringify(ref.algorithm)}` };
  if (!pattern.test(ref.digest)) {
    const want = ref.algorithm === 'sha256' ? 64 : 16;
    return { ok: false, reason: `digest ${JSON.stringify(ref.digest.slice(0, 80))} is not ${want} lowercase hex digits` };
  }
  const raw = ref.raw;
  if (raw.startsWith('blob://')) {
    const c = checkBlobUri(raw);
    if (!c.ok) return c;
    const m = BLOB_URI.exec(raw)!;
    return m[1] === ref.digest ? { ok: true } : { ok: false, reason: `reference ${raw} does not name digest ${ref.digest}` };
  }
  if (raw === ref.digest || raw === `sha256:${ref.digest}`) return { ok: true };
  return { ok: false, reason: `reference ${JSON.stringify(raw.slice(0, 80))} is not the lowercase digest ${ref.digest}` };
}

/** Short form of a digest for messages: first 8 and last 4 hex digits. */
export function shortDigest(hex: string): string {
  return hex.length > 16 ? `${hex.slice(0, 8)}…${hex.slice(-4)}` : hex;
}
