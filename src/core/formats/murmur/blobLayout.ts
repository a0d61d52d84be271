import type { BlobLayout } from '../../blobs/blobLayout';
import { DIGEST_PATTERN } from '../../blobs/blobReference';
import { blobUriRefs, LineRef } from '../../blobs/blobReferenceScan';
import { parseDigest } from '../common';

/**
 * murmur's blobs (format doc §2.9): the session workdir's `blobs/<64hex>` beside the trace, each named by the
 * SHA-256 of its bytes, referenced by `system_prompt_sha256`, `system_sha`, `tools_sha`, `response_sha` and
 * each `message_shas[i]`. Other murmur digests are not blob references: `resource_read.sha256`,
 * `peer_handle_redeem.sha256` and `peer_file_fetch.sha256` hash files kept elsewhere.
 *
 * murmur writes a blob only under `trace.capture: content`, which shows as a `blobs/` folder beside the trace
 * or as `tool_call.output`; under `meta` / `none` there is no store, and that is not an error.
 */

/** murmur fields that reference blobs; `message_shas[]` stands for each element. */
export const MURMUR_BLOB_FIELDS = ['system_prompt_sha256', 'system_sha', 'tools_sha', 'response_sha', 'message_shas[]'] as const;
const BLOB_FIELD = /^(?:system_prompt_sha256|system_sha|tools_sha|response_sha|message_shas(?:\[\d+\]|\.\d+))$/;
const SINGLE_FIELDS = ['system_prompt_sha256', 'system_sha', 'tools_sha', 'response_sha'] as const;

function digestRef(field: string, raw: string): LineRef['ref'] {
  const d = parseDigest(raw);
  return d && d.algorithm === 'sha256' && d.raw === d.digest ? { field, ...d } : undefined;
}

/** murmur blob fields read straight from the line, so malformed values (uppercase, short) are caught too. */
function murmurRefs(line: number, o: Record<string, unknown>, out: LineRef[]): void {
  const take = (field: string, v: unknown) => {
    if (typeof v !== 'string') return; // null system_prompt_sha256 = no prompt; other shapes: murmur/sha-format
    const ref = digestRef(field, v);
    out.push(ref ? { line, field, ref, source: 'field' } : { line, field, source: 'field', refused: `${field} value ${JSON.stringify(v.slice(0, 80))} is not 64 lowercase hex digits, so it cannot name a blob` });
  };
  for (const f of SINGLE_FIELDS) take(f, o[f]);
  const shas = o.message_shas;
  if (Array.isArray(shas)) shas.forEach((v, i) => take(`message_shas[${i}]`, v));
}

/** See the file comment. */
export const murmurBlobLayout: BlobLayout = {
  refRole: (ref) => (BLOB_FIELD.test(ref.field) ? 'blob' : 'not-a-blob'),
  hashMethod: (ref) => (ref.algorithm === 'fnv1a64' ? 'fnv1a64-bytes' : 'sha256-bytes'),
  singleMethod: true,
  fileNames: (digest) => [digest],
  runtimeRoots: false,
  traceFolderRoot: false,
  storeDir: '',
  digestOfStoredName: (name) => (DIGEST_PATTERN.sha256.test(name) ? { digest: name, algorithm: 'sha256' } : null),
  lineMayHoldRef: (text) => text.includes('blob://') || /_sha(?:256)?"|message_shas"/.test(text),
  scanLine: (line, value, text) => {
    const out: LineRef[] = [];
    murmurRefs(line, value, out);
    if (text.includes('blob://')) blobUriRefs(line, value, out);
    return out;
  },
  checksWholeStore: true,
  storeBesideTraceIsComplete: true,
  // A `tool_call` carries `output` only in the `content` capture mode (doc §1.5), which also writes blobs.
  contentCaptured: (value) => value.event_type === 'tool_call' && 'output' in value,
  verifiedByFormatRules: false,
  noStoreReason: 'no blobs/ folder beside the trace: the capture mode is meta or none, which store hashes but no bodies',
  syntheticRef: (digest, algorithm) => ({ field: 'system_sha', digest, algorithm, raw: digest }),
};
