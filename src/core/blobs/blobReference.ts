import { DigestAlgorithm, FormatName, HashRef } from '../model';

/**
 * Which hash references point at blob files, how each format names and hashes its blobs, and which
 * reference texts are safe to turn into a file name. The single source of truth for the editor, the CLI
 * and the verifier.
 *
 * | format | blob refs | file | digest |
 * |---|---|---|---|
 * | murmur | `system_prompt_sha256`, `system_sha`, `tools_sha`, `response_sha`, `message_shas[i]` | `blobs/<64hex>` | SHA-256 of the file bytes |
 * | agentledger | any `blob://sha256/<hex>.json` value (`payload_ref`, `request_ref`, `response_ref`, `blob_ref`, span attributes) | `<root>/sha256/<hex>.json` | 64 hex: SHA-256 of the canonical compact JSON of the parsed file (Python); 16 hex: FNV-1a 64 of the file bytes (Rust) |
 * | others | `blob://` values; any other digest only if such a file exists | `blobs/<hex>[.json]` | SHA-256 of the bytes (canonical JSON for `blob://…json`) |
 *
 * Not blob refs: agentledger `payload_hash` / `request_hash` / `response_hash` (digests of inline content,
 * checked by the agentledger rules), murmur `resource_read.sha256`, `peer_handle_redeem.sha256`,
 * `peer_file_fetch.sha256` (hashes of files elsewhere), chain hashes.
 */

/** How a blob's bytes are turned into the digest its name carries. */
export type BlobHashMethod = 'sha256-bytes' | 'sha256-canonical-json' | 'fnv1a64-bytes';

/**
 * `blob`: the reference names a blob the format stores, so a missing file is a finding.
 * `opportunistic`: a digest that may or may not name a blob (other formats); verified only if a file exists.
 * `not-a-blob`: a digest of content kept elsewhere or inline; never resolved.
 */
export type BlobRefRole = 'blob' | 'opportunistic' | 'not-a-blob';

/** murmur fields that reference blobs (§2.9 of the format doc); `message_shas[]` stands for each element. */
export const MURMUR_BLOB_FIELDS = ['system_prompt_sha256', 'system_sha', 'tools_sha', 'response_sha', 'message_shas[]'] as const;
const MURMUR_BLOB_FIELD = /^(?:system_prompt_sha256|system_sha|tools_sha|response_sha|message_shas(?:\[\d+\]|\.\d+))$/;

/** Exact digest shapes: lowercase hex of the algorithm's length, nothing else. */
export const DIGEST_PATTERN: Record<DigestAlgorithm, RegExp> = {
  sha256: /^[0-9a-f]{64}$/,
  fnv1a64: /^[0-9a-f]{16}$/,
};

/** The role of one hash reference in a trace of `format`. */
export function blobRefRole(format: FormatName, ref: Pick<HashRef, 'field' | 'raw'>): BlobRefRole {
  const isUri = ref.raw.startsWith('blob://');
  if (format === 'murmur') return MURMUR_BLOB_FIELD.test(ref.field) ? 'blob' : 'not-a-blob';
  if (isUri) return 'blob';
  if (format === 'agentledger') return 'not-a-blob';
  return 'opportunistic';
}

/** The digest algorithm a digest of this length means (agentledger: 16 hex = FNV-1a 64, 64 hex = SHA-256). */
export function algorithmOfDigest(hex: string): DigestAlgorithm | null {
  if (DIGEST_PATTERN.sha256.test(hex)) return 'sha256';
  if (DIGEST_PATTERN.fnv1a64.test(hex)) return 'fnv1a64';
  return null;
}

/** How the blob a reference names is hashed, per format and algorithm. */
export function hashMethodFor(format: FormatName, ref: Pick<HashRef, 'algorithm' | 'raw'>): BlobHashMethod {
  if (ref.algorithm === 'fnv1a64') return 'fnv1a64-bytes';
  if (format === 'murmur') return 'sha256-bytes';
  // agentledger's Python store names `blob://sha256/<64hex>.json` files by their canonical JSON.
  if (format === 'agentledger' || /^blob:\/\/.*\.json$/.test(ref.raw)) return 'sha256-canonical-json';
  return 'sha256-bytes';
}

/** Paths, relative to a blob root, where the blob may be stored; built only from a validated digest. */
export function blobFileNames(format: FormatName, digest: string): string[] {
  if (format === 'murmur') return [digest];
  if (format === 'agentledger') return [`sha256/${digest}.json`, `${digest}.json`];
  return [digest, `${digest}.json`, `sha256/${digest}.json`, `sha256/${digest}`];
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
