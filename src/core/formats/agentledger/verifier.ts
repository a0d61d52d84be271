/**
 * `agent-trace verify` for AgentLedger: line shape, seq contiguity, payload digests and refs per line; then
 * blobs, bundle hash, bundle events, replay digest and ledger cross-links from the evidence directory.
 */
import { dirname, join } from '../../io/paths';
import { fileSystem } from '../../io/fileSystem';
import { Finding } from '../../model';
import { isObj, Obj } from '../common';
import { Dialect, effectivePayload, isBlobRef, LedgerRow, rowOf } from './rows';
import { CheckContext, LineInput, linesWithRules, StreamCheck } from '../../rules/types';
import { checkBundleHash, compareBundleEvents, eventKeyOf, FileEvent, KeyFields, metaOf, ReplayDigest } from './bundleChecks';
import { At, finding, overridden } from './catalog';
import { blobRefProblem, LedgerBlobs, loadEvidence } from './evidence';
import { ApprovalEvent, checkArtifacts, checkLedger, RequestEvent } from './ledgerChecks';
import { checkPayloadHash, checkPayloadRef } from './payloadChecks';
import { lineJsonProblem, SeqTracker } from './lineChecks';
import { appendAll } from '../../arrays';

/** Collected per file while the lines stream by. */
interface VerifyState {
  dialect: Dialect | null;
  firstAt: At | null;
  runId: string | null;
  replay: ReplayDigest | null;
  fileEvents: FileEvent[];
  requests: RequestEvent[];
  approvals: ApprovalEvent[];
  blobRefs: { ref: string; at: At }[];
  chainNoted: boolean;
  /** Whether bundle.json is next to the trace; rows are kept for the comparison only then (memory). */
  bundlePresent: boolean;
}

/** Creates the AgentLedger verifier for one file. */
export function createAgentledgerVerifier(ctx: CheckContext): StreamCheck {
  const findings: Finding[] = [];
  const seq = new SeqTracker();
  const skipLines = linesWithRules(ctx.model.diagnostics, ['parse/torn-tail', 'parse/line-too-long']);
  const st: VerifyState = { dialect: null, firstAt: null, runId: null, replay: null, fileEvents: [], requests: [], approvals: [], blobRefs: [], chainNoted: false,
    bundlePresent: fileSystem().existsSync(join(dirname(ctx.path), 'bundle.json')),
  };
  return {
    add(input: LineInput) {
      if (input.blank || skipLines.has(input.line)) return;
      const problem = lineJsonProblem(input);
      if (problem) {
        findings.push(finding('line-json', { line: input.line }, problem));
        return;
      }
      const row = rowOf(input.value);
      if (!row) return;
      const at: At = { line: input.line, seq: row.seq, eventId: row.id };
      findings.push(...seq.add(row, input.value as Obj, at));
      findings.push(...checkPayloadHash(row, input.text, at), ...checkPayloadRef(row, at));
      collect(st, row, input.value as Obj, at, findings);
    },
    async finish() {
      appendAll(findings, await finishVerify(ctx, st));
      return findings;
    },
  };
}

function collect(st: VerifyState, row: LedgerRow, value: Obj, at: At, findings: Finding[]): void {
  if (!st.dialect) {
    st.dialect = row.dialect;
    st.firstAt = at;
    st.runId = row.runId;
    if (row.dialect !== 'rust-span') st.replay = new ReplayDigest(row.dialect.startsWith('python') ? 'python' : row.dialect.startsWith('ts') ? 'ts' : 'rust');
  }
  if (!st.chainNoted && ('prev_hash' in value || 'hash' in value)) {
    st.chainNoted = true;
    findings.push(finding('no-chain', at, 'This line carries prev_hash/hash fields, but AgentLedger has no hash chain; they are not verified. Integrity comes from payload hashes, seq, ledger links, blobs and the bundle hash.'));
  }
  if (row.spanKind === 'media' || row.spanKind === 'stream') return;
  if (row.runId === st.runId || st.runId === null) {
    st.replay?.add(row.seq, row.type, row.payloadHash, row.payloadRef);
    if (st.bundlePresent) {
      const fields = keyFieldsOf(row.dialect);
      const meta = metaOf(fields === 'python-span' ? spanMeta(row) : value, fields);
      st.fileEvents.push({ line: at.line, ...eventKeyOf(row.seq, row.type, row.payloadHash, row.payloadRef, fields === 'event' ? row.id : null, meta) });
    }
  }
  if (isBlobRef(row.payloadRef) && !blobRefProblem(row.payloadRef)) st.blobRefs.push({ ref: row.payloadRef, at });
  const payload = effectivePayload(row);
  if (row.type === 'tool_call_requested') {
    const args = isObj(payload) && isObj(payload.args) ? payload.args : null;
    st.requests.push({
      line: at.line, seq: row.seq ?? null, eventId: row.id, causalToken: row.causalToken, payloadHash: row.payloadHash, stepId: row.stepId,
      logicalOperation: args && typeof args._logical_operation === 'string' ? args._logical_operation : null,
    });
  }
  if (row.type === 'tool_approval_required' && isObj(payload) && typeof payload.approval_id === 'string') {
    st.approvals.push({ line: at.line, seq: row.seq, approvalId: payload.approval_id });
  }
}

/** Which fields of a line the bundle's events are compared on: Python and TypeScript spans copy the same ones. */
function keyFieldsOf(dialect: Dialect): KeyFields {
  return dialect === 'rust-span' ? 'rust-span' : dialect === 'python-span' || dialect === 'ts-span' ? 'python-span' : 'event';
}

/** A Python (or TypeScript) span's fields under the bundle event's key names (the exporter copies them, §6.4). */
function spanMeta(row: LedgerRow): Record<string, unknown> {
  return { session_id: row.sessionId, step_id: row.stepId, state_version: row.stateVersion, timestamp: row.time };
}

async function finishVerify(ctx: CheckContext, st: VerifyState): Promise<Finding[]> {
  if (!st.dialect || !st.firstAt) return [];
  const blobs = new LedgerBlobs(ctx.path, ctx.blobOptions);
  const out = await checkBlobs(st.blobRefs, blobs);
  const replayHex = st.replay?.hex() ?? null;
  const loaded = await loadEvidence(ctx.path);
  if (loaded.state === 'missing') {
    const digest = replayHex ? `the replay digest of this file is ${replayHex}` : 'Rust span lines carry no payload hashes, so no replay digest can be computed';
    out.push(finding('replay-digest', st.firstAt, `No bundle.json next to the trace: ${digest}; bundle hash, bundle events and ledger links were not checked.`));
    return out;
  }
  if (loaded.state === 'unreadable') return [...out, finding('bundle-hash', st.firstAt, loaded.message)];
  const ev = loaded.evidence;
  out.push(...checkBundleHash(ev, st.firstAt));
  const bundleRun = isObj(ev.bundle.run) ? ev.bundle.run.run_id : undefined;
  if (st.runId !== null && bundleRun !== st.runId) {
    out.push(finding('bundle-events', st.firstAt, `bundle.json is for run ${JSON.stringify(bundleRun)}, the trace for run ${st.runId}; bundle events and ledger links were not compared.`));
    return out;
  }
  const fields = keyFieldsOf(st.dialect);
  out.push(...compareBundleEvents(st.fileEvents, ev, fields, { file: replayHex ?? 'not computable', form: st.replay?.form ?? 'rust' }));
  if (st.dialect !== 'rust-span') out.push(...(await checkLedger(ev, st.requests, st.approvals, blobs, st.firstAt.line)));
  out.push(...checkArtifacts(ev, st.firstAt.line));
  return out;
}

/** blob-exists, blob-integrity, blob-decode and unverifiable names, each blob verified once. */
async function checkBlobs(refs: { ref: string; at: At }[], blobs: LedgerBlobs): Promise<Finding[]> {
  const out: Finding[] = [];
  const reported = new Set<string>();
  let noStore = false;
  for (const { ref, at } of refs) {
    const s = await blobs.status(ref);
    if (s.state === 'no-store') {
      if (!noStore) out.push(overridden('blob-exists', at, `No blob store (blobs/sha256/ or .agentledger/blobs/sha256/) next to the trace or in a configured blob root; ${refs.length} blob ref(s) were not resolved.`));
      noStore = true;
    } else if (s.state === 'missing') {
      out.push(finding('blob-exists', at, `${ref} is not in the blob store (expected ${s.path}).`));
    } else if (s.state === 'refused') {
      out.push(finding('blob-exists', at, `${ref}: ${s.reason}.`));
    } else if (s.state === 'not-blob') {
      out.push(finding('blob-integrity', at, `${ref}: ${s.reason}, so it cannot hash to its name.`));
    } else if (!reported.has(ref)) {
      reported.add(ref);
      if (s.state === 'unverifiable') out.push(finding('hash-algorithm', at, `${ref}: the name is neither 16 nor 64 hex digits, so the blob cannot be verified.`));
      else {
        if (!s.ok) out.push(finding('blob-integrity', at, integrityText(ref, s.algorithm, s.actual)));
        if (s.decodeError) out.push(finding('blob-decode', at, `${ref}: decode_value fails: ${s.decodeError}.`));
      }
    }
  }
  return out;
}

function integrityText(ref: string, algorithm: 'sha256' | 'fnv1a64', actual: string): string {
  if (actual === 'not JSON') return `${ref}: the blob file is not JSON, so it cannot hash to its name.`;
  return algorithm === 'sha256'
    ? `${ref}: SHA-256 of the canonical JSON of the blob is ${actual}, not its name.`
    : `${ref}: stable_hash (FNV-1a) of the blob text is ${actual}, not its name.`;
}
