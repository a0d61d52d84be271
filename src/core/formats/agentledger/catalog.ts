/**
 * The AgentLedger rule catalog (format doc §13 "Checks a viewer can run", §9 review checks). Ids and default
 * severities follow the doc; `bundle-events`, `bundle-missing` and `payload-schema` are this viewer's own.
 */
import { Finding } from '../../model';
import { ruleCatalog, RuleEntry } from '../../catalog/ruleEntries';
import { RuleInfo } from '../../rules/types';

const ENTRIES = [
  ['line-json', 'verify', 'error', 'A line is not a JSON object.',
    'Every non-blank line of events.jsonl and trace.jsonl is one JSON object. Rust trace_jsonl builds lines with format! and never escapes values, so an event type containing a quote produces a line that does not parse.',
    '{"trace_id":"run_1","span_id":"evt-000003","name":"my"odd"type"}'],
  ['required-fields', 'check', 'error', 'An event row lacks a field the runtime contract requires, or has the wrong type.',
    'The contract (agentledger.runtime.v1) requires event_id, run_id, seq, type (event_type in Rust records), timestamp, payload_hash (null allowed in Python rows) and payload_ref. Span lines need trace_id, span_id and name.',
    '{"event_id":"evt_1a2b3c4d5e6f7a8b","run_id":"run_1","type":"step_created"}'],
  ['event-type-known', 'check', 'info', 'An event type is not one the runtimes or the contract name.',
    'Known types are the 28 the Rust runtime emits plus the contract, Python-only and reader-only names (§5.1, §5.2). Unknown types are shown as they are; this reports the first line of each.'],
  ['payload-schema', 'check', 'warning', 'A payload lacks a key its event type always carries, or has the wrong type.',
    'Per event type the runtimes write fixed payload keys (§5.1), e.g. step_claimed has attempt and lease_token, tool_approval_decided has status APPROVED or DENIED. Unknown keys are allowed. Python blob-backed payloads (the request or response itself) are not checked.',
    '{"type":"tool_approval_decided","payload":{"status":"MAYBE"}}'],
  ['hash-algorithm', 'verify', 'info', 'A digest is neither 16 hex (FNV-1a) nor 64 hex (SHA-256) and cannot be verified.',
    'AgentLedger labels both algorithms "sha256". The length decides: 16 hex digits are Rust FNV-1a 64, 64 hex digits are SHA-256. Anything else is reported once per line as unverifiable.'],
  ['payload-hash', 'verify', 'error', 'payload_hash does not match the payload.',
    'Rust rows: payload_hash is stable_hash (FNV-1a 64) of the payload_ref text. Python blob-backed rows: payload_hash is sha256: plus the hex in payload_ref, and SHA-256 of the canonical compact JSON of payload equals it. Python rows with inline JSON in payload_ref have a null payload_hash.',
    '"payload_hash": "sha256:3da5…", "payload": {"tool": "edited"}'],
  ['payload-ref-canonical', 'verify', 'warning', 'payload_ref and payload disagree.',
    'Rust rows: format_state(payload) equals payload_ref. Python inline rows: json.loads(payload_ref) equals payload. An edited payload or ref shows here; for Python blob rows the payload is checked through payload-hash and blob-integrity.'],
  ['seq-contiguous', 'verify', 'error', 'seq does not run 1, 2, 3… in file order.',
    'Per run, the i-th event has seq i (upstream blocker event_sequence_contiguous, "event sequence has no gaps"). A jump means deleted lines, a repeat a duplicated line, a step back reordered lines.',
    'seq 4 followed by seq 6'],
  ['span-seq', 'verify', 'warning', 'Span ids evt-NNNNNN do not follow seq order, or media/stream spans come before event spans.',
    'Exported spans are one per event in seq order (evt-000001…), then media-NNNNNN and stream-NNNNNN spans. Python spans also carry agentledger.seq, which equals the span number.'],
  ['no-chain', 'verify', 'info', 'AgentLedger has no prev-hash chain.',
    'Events carry no prev_hash; "verify chain" consists of the payload, ledger, artifact, blob, bundle and sequence rules. Reported only when a line carries chain-like fields (prev_hash, hash), which the runtimes never write.'],
  ['blob-ref-syntax', 'verify', 'error', 'A blob:// ref is not blob://sha256/<name>.json or its name has .., / or \\.',
    'The Rust LocalBlobStore accepts a ref only in this form and fails with "unsupported blob ref: <ref>"; the Python store does not check, so a viewer must refuse such names before touching the file system.',
    '"payload_ref": "blob://sha256/../../etc/passwd.json"'],
  ['blob-exists', 'verify', 'warning', 'A blob:// ref names a file that is not in the blob store.',
    'Refs resolve to <blob root>/sha256/<name>. The blob roots are the viewer\'s: blobs/ beside the trace (a Python evidence export), every .agentledger/blobs from the trace\'s folder upwards (the Python runtime root), the trace\'s folder (a Rust store root), then the blob roots the user configured (the agentTrace.blobRoots setting, the CLI\'s --blob-root). A missing file means an incomplete copy of the evidence. When no blob store is found at all, one info finding says so.'],
  ['blob-integrity', 'verify', 'error', 'A blob file does not hash to its name.',
    'Python blobs: SHA-256 of the canonical compact JSON of the parsed file equals the name (the pretty-printed file bytes are never hashed). Rust blobs: stable_hash (FNV-1a) of the file text equals the name. Something in a blob\'s place that is not a regular file inside the store (a directory, a FIFO, a device, a symbolic link loop, a link to nothing or out of the store) or that cannot be read is never read and fails here too: it cannot be the content its name promises.'],
  ['blob-decode', 'verify', 'error', 'A Rust blob body does not decode.',
    'Rust blob files hold encode_value text (Z, T, F, N<hex>:, S<hex>:, O<n>:, A<n>:). decode_value rejects trailing bytes, unknown tags, odd-length hex and invalid UTF-8.'],
  ['ledger-request-hash', 'verify', 'error', 'A tool-ledger or approval row\'s request_hash does not match its request_ref.',
    'Rust: request_hash = stable_hash(request_ref). Python: request_hash = sha256: plus the hex in request_ref, and the referenced blob passes blob-integrity. Rows come from bundle.json next to the trace.'],
  ['ledger-response-hash', 'verify', 'error', 'A tool-ledger row\'s response_hash does not match its response_ref.',
    'Rust: response_hash = stable_hash(response_ref). Python: response_hash = sha256: plus the hex in response_ref, and the blob passes blob-integrity.'],
  ['idempotency-key', 'verify', 'error', 'A ledger idempotency_key or approval_key is not built from its row.',
    'Rust: run_id:step_id:tool_name:request_hash. Python: the last part is args._logical_operation when the request has one, else request_hash; the Python approval key always ends with request_hash.'],
  ['ledger-event-link', 'verify', 'warning', 'A tool-ledger row has no matching tool_call_requested event.',
    'Each ledger row was written by a call whose tool_call_requested event has the same causal_token and payload_hash = request_hash. A missing link means edited evidence or a bundle from another run.'],
  ['artifact-blob-hash', 'verify', 'error', 'An artifact\'s blob_hash does not match its blob_ref.',
    'Rust: blob_hash = "sha256:" + stable_hash(blob_ref) (an FNV digest under a sha256 label). Python: blob_hash and blob_ref name the same SHA-256.'],
  ['bundle-hash', 'verify', 'warning', 'bundle.json\'s bundle_hash does not match its content.',
    'Python: bundle_hash = sha256: + SHA-256 of the canonical JSON of the bundle without bundle_hash (number tokens as written); manifest.json repeats it. Rust: stable_hash of "run_id:steps:events:ledger:costs" (counts only).'],
  ['bundle-events', 'verify', 'warning', 'bundle.json\'s events differ from the trace file.',
    'The evidence export writes events.jsonl from bundle.events, and trace.jsonl spans one per bundle event. Compared by seq, type, payload_hash, payload_ref and event id, with the replay digest (§8.2) of each side in the message.'],
  ['replay-digest', 'verify', 'info', 'No bundle.json next to the trace: the replay digest is computed but not compared.',
    'The replay digest is Rust stable_hash of "seq:type:payload_hash" joined with "|", or Python sha256_json of [{seq,type,payload_hash,payload_ref}]. Without bundle.json the bundle hash, ledger links and this digest cannot be compared; the finding gives the digest so it can be compared with a ReplaySummary.'],
  ['bundle-missing', 'check', 'info', 'No bundle.json next to the trace: review checks ran on the events alone.',
    'Steps, tool ledger, approvals, artifacts and costs live in bundle.json. Without it, only the review checks that events can answer ran (failed steps, failure events, undecided approvals).'],
  ['step-id-null', 'check', 'warning', 'A Rust row has step_id null on a step event, or a step on a run event.',
    'In Rust records step_id is null exactly for run_created, run_cancel_requested and run_cancelled.'],
  ['causal-token', 'check', 'warning', 'A causal_token does not match its row.',
    'Rust: "{run_id}:{step_id}:{attempt}:{state_version}" with the row\'s own run, step and state version. Python: JSON text with keys attempt, event_seq, lease_token, run_id, state_version, step_id whose run_id and step_id match the row.'],
  ['call-order', 'check', 'warning', 'The events of one tool call are out of order.',
    'A call starts with tool_call_requested; an input-validation failure comes before any permission decision; sandbox_completed follows sandbox_started; the tool cost follows tool_call_completed; nothing runs after a denied permission (§5.4).'],
  ['review-no-failed-steps', 'check', 'error', 'A step failed (review no_failed_steps, blocker).',
    'Upstream adversarial review #1: no step_failed event (and, with bundle.json, no step in failed status). Detail "no step is in failed status".'],
  ['review-no-pending-verification', 'check', 'error', 'A side effect is pending verification (blocker).',
    'Review #2: no tool-ledger row has status PENDING_VERIFICATION. Detail "no side effect is pending verification".'],
  ['review-no-pending-approvals', 'check', 'error', 'An approval request is still pending (blocker).',
    'Review #3: no approval has status PENDING. Without bundle.json, a tool_approval_required with no later tool_approval_decided for its approval_id counts as pending.'],
  ['review-completed-steps-have-events', 'check', 'error', 'A completed step has no step_completed event (blocker).',
    'Review #4: every step with status completed in bundle.json has a step_completed event with its step_id.'],
  ['review-ledger-statuses-known', 'check', 'error', 'A tool-ledger row has an unknown status (blocker).',
    'Review #5: statuses are SUCCEEDED, FAILED_NO_EFFECT, PENDING_VERIFICATION, COMPENSATED, RUNNING or RESERVED.'],
  ['review-artifacts-have-blob-refs', 'check', 'warning', 'An artifact lacks blob_ref or blob_hash (warning upstream).',
    'Review #7: every artifact has a non-empty blob_ref and blob_hash. Empty-content Rust artifacts fail it by design.'],
  ['review-media-artifacts-have-refs', 'check', 'error', 'A media artifact lacks kind or a durable ref (blocker).',
    'Review #8: kind is present and one of uri, content_ref, blob_ref is present (Rust: null is missing, "" present; Python: empty counts as missing).'],
  ['review-stream-checkpoints-have-offsets', 'check', 'error', 'A stream checkpoint lacks stream_id, consumer_id or offset (blocker).',
    'Review #9: every stream checkpoint row has stream_id, consumer_id and a non-null offset.'],
  ['review-high-risk-approvals-decided', 'check', 'error', 'A high-risk approval is undecided (blocker).',
    'Review #10: approvals with risk high, destructive or sensitive are APPROVED or DENIED. financial_or_legal, which upstream omits although it is high risk, is reported as a warning.'],
  ['review-no-blocking-failure-events', 'check', 'warning', 'A blocking failure event is present (warning upstream).',
    'Review #11: no event of type error_raised, step_failed, tool_call_failed or tool_call_blocked. Reported at each such event.'],
  ['review-max-total-usd', 'check', 'error', 'The run cost more than the allowed total (blocker, only with a limit).',
    'Review #12: cost_summary.total_usd is at most the limit the user supplies. Without a limit the rule does not run.'],
] as const satisfies readonly RuleEntry[];

/**
 * The AgentLedger rule catalog. Four rules have a documented second severity: the two ledger hashes when what
 * they cover is missing, a financial_or_legal approval left undecided, and blob refs with no store at all.
 */
export const AGENTLEDGER_CATALOG = ruleCatalog('agentledger', 'agentledger', ENTRIES, {
  'ledger-request-hash': { severity: 'warning', when: 'a SHA-256 request_hash whose ref is inline text naming no blob: what it covers is missing, so it cannot be checked' },
  'ledger-response-hash': { severity: 'warning', when: 'a SHA-256 response_hash whose ref is inline text naming no blob: what it covers is missing, so it cannot be checked' },
  'review-high-risk-approvals-decided': { severity: 'warning', when: 'risk financial_or_legal, which upstream\'s review omits' },
  'blob-exists': { severity: 'info', when: 'no blob store next to the trace or in a configured blob root' },
});

/** The AgentLedger rules as catalog entries. */
export const AGENTLEDGER_RULES: RuleInfo[] = AGENTLEDGER_CATALOG.rules;

/** An AgentLedger rule's own name, without the `agentledger/` prefix (e.g. `payload-hash`). */
export type AgentLedgerRule = (typeof ENTRIES)[number][0];

/** The rules with a documented second severity (see {@link AGENTLEDGER_CATALOG}). */
type OverriddenRule = 'ledger-request-hash' | 'ledger-response-hash' | 'review-high-risk-approvals-decided' | 'blob-exists';

/** Where a finding points: its line and, when known, the event's seq and id. */
export interface At {
  line: number;
  seq?: number | null;
  eventId?: string | null;
}

/** Adds the event's seq and id after the message, the order this format's findings have always been written in. */
function located(f: Finding, at: At): Finding {
  if (at.seq != null) f.seq = at.seq;
  if (at.eventId != null) f.eventId = at.eventId;
  return f;
}

/** A finding of an AgentLedger rule (short id, e.g. `payload-hash`) at its catalog severity. */
export function finding(rule: AgentLedgerRule, at: At, message: string): Finding {
  return located(AGENTLEDGER_CATALOG.finding(`agentledger/${rule}`, at.line, message), at);
}

/** A finding at the rule's documented second severity (see {@link AGENTLEDGER_CATALOG}). */
export function overridden(rule: OverriddenRule, at: At, message: string): Finding {
  return located(AGENTLEDGER_CATALOG.overridden(`agentledger/${rule}`, at.line, message), at);
}
