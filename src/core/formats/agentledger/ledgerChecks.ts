/**
 * Ledger cross-links (format doc §3.2, §7.4, §13): tool-ledger and approval rows of bundle.json against their
 * refs, their keys and the tool_call_requested events of the trace.
 */
import { fnv1a64HexOfText, sha256Hex } from '../../digests';
import { Finding } from '../../model';
import { isObj, Obj } from '../common';
import { isBlobRef } from './rows';
import { finding, overridden } from './catalog';
import { BlobStatus, blobRefProblem, Evidence, LedgerBlobs } from './evidence';
import { digestParts } from './payloadChecks';

/** A tool_call_requested row of the trace, as the ledger checks need it. */
export interface RequestEvent {
  line: number;
  seq: number | null;
  eventId: string | null;
  causalToken: string | null;
  payloadHash: unknown;
  stepId: string | null;
  /** `payload.args._logical_operation` when the row shows its payload. */
  logicalOperation: string | null;
}

/** An approval request event (`tool_approval_required`) with its approval id. */
export interface ApprovalEvent {
  line: number;
  seq: number | null;
  approvalId: string;
}

function s(o: Obj, k: string): string | null {
  const v = o[k];
  return typeof v === 'string' ? v : null;
}

function rows(b: Obj, ...keys: string[]): Obj[] {
  for (const k of keys) if (Array.isArray(b[k])) return (b[k] as unknown[]).filter(isObj);
  return [];
}

/** What is wrong with a `*_hash`; `unverifiable` when what it covers is not at hand (a warning, not a broken hash). */
interface HashProblem {
  text: string;
  unverifiable?: boolean;
}

/**
 * Checks a `*_hash` against its `*_ref`; null when it holds. Rust: FNV-1a of the ref text. TypeScript: SHA-256 of
 * the inline ref text. Python: `sha256:` naming an intact blob.
 */
async function hashRefProblem(hash: string | null, ref: string | null, blobs: LedgerBlobs): Promise<HashProblem | null> {
  if (hash === null || ref === null) return null;
  const d = digestParts(hash);
  if (d.algorithm === 'fnv1a64') {
    const actual = fnv1a64HexOfText(ref);
    return actual === d.hex ? null : { text: `${hash} is not stable_hash(ref) = ${actual}` };
  }
  if (d.algorithm !== 'sha256') return null;
  if (!ref.startsWith('blob://')) {
    if (sha256Hex(ref) === d.hex) return null;
    return { text: `${hash} is a SHA-256 digest, but its ref is inline text (${JSON.stringify(ref.slice(0, 40))}) that does not hash to it and names no blob://sha256/ content: what the digest covers is missing, so it cannot be checked`, unverifiable: true };
  }
  const syntax = blobRefProblem(ref);
  if (syntax) return { text: syntax };
  const hex = ref.slice('blob://sha256/'.length).replace(/\.json$/, '');
  if (hex !== d.hex) return { text: `${hash} does not name the blob ${ref}` };
  const st: BlobStatus = await blobs.status(ref);
  if (st.state === 'checked' && !st.ok) return { text: `the blob ${ref} fails blob-integrity (content hashes to ${st.actual})` };
  return null;
}

/** The last part of a Python idempotency key: `args._logical_operation`, else the request hash. */
async function expectedKeyTail(row: Obj, link: RequestEvent | null, blobs: LedgerBlobs): Promise<string | null> {
  const requestHash = s(row, 'request_hash');
  if (requestHash && digestParts(requestHash).algorithm === 'fnv1a64') return requestHash;
  let op = link?.logicalOperation ?? null;
  const ref = s(row, 'request_ref');
  if (op === null && ref && isBlobRef(ref) && !blobRefProblem(ref)) {
    const st = await blobs.status(ref);
    if (st.state === 'checked' && isObj(st.value) && isObj(st.value.args) && typeof st.value.args._logical_operation === 'string') op = st.value.args._logical_operation;
  }
  return op ?? requestHash;
}

/** Ledger and approval rules over bundle.json; `requests` are the file's tool_call_requested rows in order. */
export async function checkLedger(ev: Evidence, requests: RequestEvent[], approvals: ApprovalEvent[], blobs: LedgerBlobs, fallbackLine: number): Promise<Finding[]> {
  const out: Finding[] = [];
  for (const row of rows(ev.bundle, 'tool_ledger')) {
    const id = s(row, 'ledger_id') ?? s(row, 'tool_call_id') ?? 'ledger row';
    const link = requests.find((r) => r.payloadHash === row.request_hash && (r.causalToken === null || r.causalToken === row.causal_token)) ?? null;
    // Point at the call itself: the request with this causal token, else one with this request hash.
    const sameRequest = link ?? requests.find((r) => r.causalToken !== null && r.causalToken === row.causal_token) ?? requests.find((r) => r.payloadHash === row.request_hash) ?? null;
    const at = { line: sameRequest?.line ?? fallbackLine, seq: sameRequest?.seq, eventId: sameRequest?.eventId };
    const req = await hashRefProblem(s(row, 'request_hash'), s(row, 'request_ref'), blobs);
    if (req) out.push((req.unverifiable ? overridden : finding)('ledger-request-hash', at, `Ledger ${id}: request_hash ${req.text}.`));
    const resp = await hashRefProblem(s(row, 'response_hash'), s(row, 'response_ref'), blobs);
    if (resp) out.push((resp.unverifiable ? overridden : finding)('ledger-response-hash', at, `Ledger ${id}: response_hash ${resp.text}.`));
    const tail = await expectedKeyTail(row, link, blobs);
    const expected = `${s(row, 'run_id')}:${s(row, 'step_id')}:${s(row, 'tool_name')}:${tail}`;
    if (row.idempotency_key !== expected) out.push(finding('idempotency-key', at, `Ledger ${id}: idempotency_key ${JSON.stringify(row.idempotency_key)}, expected ${JSON.stringify(expected)}.`));
    if (!link) out.push(finding('ledger-event-link', at, `Ledger ${id} (${s(row, 'tool_name')}) has no tool_call_requested event with payload_hash ${String(row.request_hash)} and its causal_token.`));
  }
  for (const row of rows(ev.bundle, 'approval_requests', 'approvals')) {
    const id = s(row, 'approval_id') ?? 'approval row';
    const ev2 = approvals.find((a) => a.approvalId === id);
    const at = { line: ev2?.line ?? fallbackLine, seq: ev2?.seq };
    const req = await hashRefProblem(s(row, 'request_hash'), s(row, 'request_ref'), blobs);
    if (req) out.push((req.unverifiable ? overridden : finding)('ledger-request-hash', at, `Approval ${id}: request_hash ${req.text}.`));
    const expected = `${s(row, 'run_id')}:${s(row, 'step_id')}:${s(row, 'tool_name')}:${s(row, 'request_hash')}`;
    if (row.approval_key !== expected) out.push(finding('idempotency-key', at, `Approval ${id}: approval_key ${JSON.stringify(row.approval_key)}, expected ${JSON.stringify(expected)}.`));
  }
  return out;
}

/** artifact-blob-hash: Rust `blob_hash = "sha256:" + stable_hash(blob_ref)`; Python hash and ref name one SHA-256. */
export function checkArtifacts(ev: Evidence, line: number): Finding[] {
  const out: Finding[] = [];
  for (const a of rows(ev.bundle, 'artifacts')) {
    const hash = s(a, 'blob_hash');
    const ref = s(a, 'blob_ref');
    if (!hash || ref === null) continue;
    const d = digestParts(hash);
    const id = s(a, 'artifact_id') ?? 'artifact';
    if (d.algorithm === 'fnv1a64') {
      const actual = fnv1a64HexOfText(ref);
      if (actual !== d.hex) out.push(finding('artifact-blob-hash', { line }, `Artifact ${id}: blob_hash ${hash}, expected sha256:${actual} (stable_hash of blob_ref).`));
    } else if (d.algorithm === 'sha256' && isBlobRef(ref) && ref.slice('blob://sha256/'.length).replace(/\.json$/, '') !== d.hex) {
      out.push(finding('artifact-blob-hash', { line }, `Artifact ${id}: blob_hash ${hash} does not name the blob ${ref}.`));
    }
  }
  return out;
}
