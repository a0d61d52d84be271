import { BLOB_RULE, BlobVerifier } from '../blobs/blobVerification';
import type { BlobStoreOptions } from '../blobs/blobOptions';
import { CheckContext, RuleInfo, RuleModule, StreamCheck } from './types';

/**
 * Blob integrity rules for every format: each referenced blob is rehashed from its raw bytes by the format's
 * own scheme (murmur: SHA-256 of the bytes; agentledger: SHA-256 of the canonical JSON for 64-hex names,
 * FNV-1a 64 of the bytes for 16-hex names) and compared with the digest that names it.
 * The format docs' own ids for these checks map here: murmur/blob-integrity and agentledger/blob-integrity →
 * blob/mismatch; murmur/blob-exists and agentledger/blob-exists → blob/missing; murmur/blob-orphan →
 * blob/orphan; the unsafe half of agentledger/blob-ref-syntax → blob/rejected-reference.
 */
export const BLOB_RULES: RuleInfo[] = [
  { id: BLOB_RULE.mismatch, format: 'generic', mode: 'verify', severity: 'error', summary: 'A blob does not hash to the digest that names it.',
    explanation: 'Runtimes write each blob once and never rewrite it, so a blob that was tampered with or cut short by a crash stays wrong. The blob is rehashed from its raw bytes (agentledger Python blobs: from the canonical JSON of their content, as the runtime named them) and compared with the digest in its name. Reported at the line of every event that references it, with the expected and actual digests.',
    example: 'blobs/28c7339e…441f holds "Be terse!" instead of "Be terse."' },
  { id: BLOB_RULE.missing, format: 'generic', mode: 'verify', severity: 'error', summary: 'A referenced blob is not in the blob store.',
    explanation: 'The event names a blob that is in none of the blob roots. For murmur traces captured with content (a blobs/ folder exists or tool calls carry output) this is an error: the blob is written before the event that names it. For agentledger and other formats it is a warning: the store may be elsewhere (add it to agentTrace.blobRoots).',
    example: '{"event_type":"inference",…,"response_sha":"19374ad7…46e4"} with no blobs/19374ad7…46e4' },
  { id: BLOB_RULE.unreadable, format: 'generic', mode: 'verify', severity: 'warning', summary: 'A referenced blob exists but cannot be read.',
    explanation: 'The blob file is there but is not a regular file, or reading it failed (permissions, I/O error). Its integrity cannot be proven.' },
  { id: BLOB_RULE.rejected, format: 'generic', mode: 'verify', severity: 'error', summary: 'A blob reference is unsafe or malformed and was not followed.',
    explanation: 'A blob name must be exactly the lowercase hex digest (64 digits for SHA-256, 16 for FNV-1a 64). References with "..", path separators, absolute paths, uppercase or short hex, and blob files that are symbolic links leading outside the blob root, are refused without being read: a trace must never make the viewer read other files.',
    example: '{"payload_ref":"blob://sha256/../../secrets.json"}' },
  { id: BLOB_RULE.unverifiable, format: 'generic', mode: 'verify', severity: 'info', summary: 'A blob could not be verified.',
    explanation: 'The reference is safe but its name is not a digest (agentledger Rust allows names such as blob://sha256/chunk-7.json), or verifying it would need more memory than allowed (a JSON blob whose keys are not sorted and that is too large to re-sort).' },
  { id: BLOB_RULE.noStore, format: 'generic', mode: 'verify', severity: 'info', summary: 'The trace references blobs but no blob store was found.',
    explanation: 'murmur writes blob bodies only under trace.capture: content; under meta (the default) and none the trace holds hashes without bodies, and that is not an error. agentledger evidence may be exported without its store. Configure agentTrace.blobRoots if the blobs live elsewhere.' },
  { id: BLOB_RULE.orphan, format: 'generic', mode: 'verify', severity: 'info', summary: 'A blob in the trace\'s store is referenced by no event (murmur).',
    explanation: 'murmur stores blobs before writing the event that names them; if that write failed, the blob stays behind unreferenced. Orphans are rehashed too.' },
];

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
