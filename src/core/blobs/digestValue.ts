import type { HashRef } from '../model';

/**
 * Digest values in trace text (a leaf: blob reference scanning and the formats' hash-reference walk both read
 * digests, and the blob code sits below the formats).
 */

const HEX64 = /^[0-9a-f]{64}$/;
const HEX16 = /^[0-9a-f]{16}$/;
const PREFIXED = /^sha256:([0-9a-f]{64}|[0-9a-f]{16})$/;
const BLOB_URI = /^blob:\/\/sha256\/([0-9a-f]{64}|[0-9a-f]{16})(\.json)?$/;
export const DIGEST_LENGTHS = new Set([64, 16].flatMap((hex) => [hex, 'sha256:'.length + hex, 'blob://sha256/'.length + hex, 'blob://sha256/'.length + hex + '.json'.length]));

/** Recognises a digest value: bare 64-hex, `sha256:<hex>` or `blob://sha256/<hex>[.json]`. 16-hex digests are FNV-1a. */
export function parseDigest(value: string, allowBare16 = false): Omit<HashRef, 'field'> | null {
  // Only these lengths can match (64 or 16 hex digits, bare, after `sha256:`, or in a blob URI with or without
  // `.json`): most strings a walk meets (messages, names, times) are turned away without a regular expression.
  if (!DIGEST_LENGTHS.has(value.length)) return null;
  let m: RegExpExecArray | null;
  if (HEX64.test(value)) return { digest: value, algorithm: 'sha256', raw: value };
  if (allowBare16 && HEX16.test(value)) return { digest: value, algorithm: 'fnv1a64', raw: value };
  if ((m = PREFIXED.exec(value)) || (m = BLOB_URI.exec(value))) {
    return { digest: m[1], algorithm: m[1].length === 16 ? 'fnv1a64' : 'sha256', raw: value };
  }
  return null;
}
