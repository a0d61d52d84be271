import { ruleCatalog, RuleEntry } from './ruleEntries';

/**
 * Blob integrity rules for every format: each referenced blob is rehashed from its raw bytes by the format's
 * own scheme (murmur: SHA-256 of the bytes; agentledger: SHA-256 of the canonical JSON for 64-hex names,
 * FNV-1a 64 of the bytes for 16-hex names) and compared with the digest that names it.
 * The format docs' own ids for these checks map here: murmur/blob-integrity and agentledger/blob-integrity →
 * blob/mismatch; murmur/blob-exists and agentledger/blob-exists → blob/missing; murmur/blob-orphan →
 * blob/orphan; the unsafe half of agentledger/blob-ref-syntax → blob/rejected-reference.
 */
const ENTRIES = [
  ['mismatch', 'verify', 'error', 'A blob does not hash to the digest that names it.',
    'Runtimes write each blob once and never rewrite it, so a blob that was tampered with or cut short by a crash stays wrong. The blob is rehashed from its raw bytes (agentledger Python blobs: from the canonical JSON of their content, as the runtime named them) and compared with the digest in its name. Reported at the line of every event that references it, with the expected and actual digests.',
    'blobs/28c7339e…441f holds "Be terse!" instead of "Be terse."'],
  ['missing', 'verify', 'error', 'A referenced blob is not in the blob store.',
    'The event names a blob that is in none of the blob roots. For murmur traces captured with content (a blobs/ folder exists or tool calls carry output) this is an error: the blob is written before the event that names it. For agentledger and other formats it is a warning: the store may be elsewhere (add it to agentTrace.blobRoots).',
    '{"event_type":"inference",…,"response_sha":"19374ad7…46e4"} with no blobs/19374ad7…46e4'],
  ['unreadable', 'verify', 'error', 'A referenced blob exists but cannot be read.',
    'Something has the blob\'s name in the store but it is not a regular file (a directory, a FIFO, a device, a symbolic link loop or a link to nothing), or reading it failed (permissions, I/O error). It is never opened or read. The content is not there, so this fails like a missing blob: putting something else in a blob\'s place must not turn a failing verification into a passing one.',
    'blobs/28c7339e…441f is a directory'],
  ['rejected-reference', 'verify', 'error', 'A blob reference is unsafe or malformed and was not followed.',
    'A blob name must be exactly the lowercase hex digest (64 digits for SHA-256, 16 for FNV-1a 64). References with "..", path separators, absolute paths, uppercase or short hex, and blob files that are symbolic links leading outside the blob root, are refused without being read: a trace must never make the viewer read other files.',
    '{"payload_ref":"blob://sha256/../../secrets.json"}'],
  ['unverifiable', 'verify', 'info', 'A blob could not be verified.',
    'The reference is safe but its name is not a digest (agentledger Rust allows names such as blob://sha256/chunk-7.json), or verifying it would need more memory than allowed (a JSON blob whose keys are not sorted and that is too large to re-sort).'],
  ['no-store', 'verify', 'info', 'The trace references blobs but no blob store was found.',
    'murmur writes blob bodies only under trace.capture: content; under meta (the default) and none the trace holds hashes without bodies, and that is not an error. agentledger evidence may be exported without its store. Configure agentTrace.blobRoots if the blobs live elsewhere.'],
  ['orphan', 'verify', 'info', 'A blob in the trace\'s store is referenced by no event (murmur).',
    'murmur stores blobs before writing the event that names them; if that write failed, the blob stays behind unreferenced. Orphans are rehashed too.'],
] as const satisfies readonly RuleEntry[];

/**
 * The blob rules' catalog; every blob finding takes its severity from it. blob/missing is a warning when the
 * store may simply not have been exported with the trace (any format but murmur with content captured).
 */
export const BLOB_CATALOG = ruleCatalog('blob', 'generic', ENTRIES, {
  missing: { severity: 'warning', when: 'the blob store may not have been exported with the trace' },
});

/** A blob rule id. */
export type BlobRuleId = Parameters<typeof BLOB_CATALOG.finding>[0];
