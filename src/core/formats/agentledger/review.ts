/**
 * The upstream adversarial review (format doc §9.1, Python `review.py`) as findings: events of the trace plus,
 * when present, the steps, ledger, approvals, artifacts and costs of bundle.json next to it.
 */
import { Finding } from '../../model';
import { isObj, Obj } from '../common';
import { KNOWN_LEDGER_STATUSES, REVIEW_HIGH_RISK_LEVELS } from './vocab';
import { At, finding, overridden } from './catalog';
import { Evidence } from './evidence';

/** What the review needs from the trace's lines. */
export interface ReviewFacts {
  firstAt: At | null;
  failedSteps: { at: At; stepId: string | null }[];
  blocking: { at: At; type: string }[];
  completedSteps: Set<string>;
  approvalsRequired: { at: At; approvalId: string; riskLevel: string | null; tool: string | null }[];
  approvalsDecided: Set<string>;
  /** tool_call_requested rows, to point ledger findings at their call. */
  requests: { at: At; token: string | null; hash: unknown }[];
  /** False for Rust spans, which do not name steps. */
  stepsKnown: boolean;
}

/** Creates empty review facts. */
export function newReviewFacts(): ReviewFacts {
  return { firstAt: null, failedSteps: [], blocking: [], completedSteps: new Set(), approvalsRequired: [], approvalsDecided: new Set(), requests: [], stepsKnown: true };
}

function rows(b: Obj, ...keys: string[]): Obj[] {
  for (const k of keys) if (Array.isArray(b[k])) return (b[k] as unknown[]).filter(isObj);
  return [];
}

/** Runs the review checks; `evidence` null means bundle.json is missing and only event-based checks run. */
export function runReview(facts: ReviewFacts, evidence: Evidence | null, maxTotalUsd?: number, missingWhy = 'No bundle.json next to the trace'): Finding[] {
  const first = facts.firstAt ?? { line: 1 };
  const out: Finding[] = [];
  for (const f of facts.failedSteps) out.push(finding('review-no-failed-steps', f.at, `Step ${f.stepId ?? '?'} failed (step_failed); review no_failed_steps: "no step is in failed status".`));
  for (const b of facts.blocking) out.push(finding('review-no-blocking-failure-events', b.at, `${b.type} is a blocking failure event; review no_blocking_failure_events: "no blocking failure events are present".`));
  if (!evidence) {
    out.push(...eventApprovals(facts));
    out.push(finding('bundle-missing', first, `${missingWhy}: steps, tool ledger, approvals, artifacts and costs were not reviewed; event-based review checks ran.`));
    return out;
  }
  const b = evidence.bundle;
  const failedEvents = new Set(facts.failedSteps.map((f) => f.stepId));
  for (const s of rows(b, 'steps')) {
    const id = typeof s.step_id === 'string' ? s.step_id : null;
    if (s.status === 'failed' && !failedEvents.has(id)) out.push(finding('review-no-failed-steps', first, `bundle.json step ${id} has status failed.`));
    if (s.status === 'completed' && facts.stepsKnown && !facts.completedSteps.has(id ?? '')) {
      out.push(finding('review-completed-steps-have-events', first, `Step ${id} is completed in bundle.json but the trace has no step_completed event for it.`));
    }
  }
  out.push(...ledgerReview(b, facts, first), ...approvalReview(b, facts, first), ...artifactReview(b, first));
  if (maxTotalUsd !== undefined) {
    const summary = isObj(b.summary) ? b.summary : {};
    const cost = isObj(b.cost_summary) ? b.cost_summary : isObj(summary.cost_summary) ? summary.cost_summary : {};
    const total = typeof cost.total_usd === 'number' ? cost.total_usd : 0;
    if (total > maxTotalUsd) out.push(finding('review-max-total-usd', first, `total_usd=${total}, limit=${maxTotalUsd}.`));
  }
  return out;
}

function ledgerReview(b: Obj, facts: ReviewFacts, first: At): Finding[] {
  const out: Finding[] = [];
  for (const row of rows(b, 'tool_ledger')) {
    const call = facts.requests.find((r) => r.token !== null && r.token === row.causal_token) ?? facts.requests.find((r) => r.hash === row.request_hash);
    const at = call?.at ?? first;
    const id = String(row.ledger_id ?? row.tool_call_id ?? 'ledger row');
    if (row.status === 'PENDING_VERIFICATION') out.push(finding('review-no-pending-verification', at, `Ledger ${id} (${String(row.tool_name)}) is PENDING_VERIFICATION: the side effect may or may not have happened.`));
    if (typeof row.status !== 'string' || !KNOWN_LEDGER_STATUSES.has(row.status)) {
      out.push(finding('review-ledger-statuses-known', at, `Ledger ${id} has status ${JSON.stringify(row.status)}, not one of ${[...KNOWN_LEDGER_STATUSES].join(', ')}.`));
    }
  }
  return out;
}

function approvalAt(facts: ReviewFacts, id: unknown, first: At): At {
  return facts.approvalsRequired.find((a) => a.approvalId === id)?.at ?? first;
}

function approvalReview(b: Obj, facts: ReviewFacts, first: At): Finding[] {
  const out: Finding[] = [];
  for (const a of rows(b, 'approval_requests', 'approvals')) {
    const at = approvalAt(facts, a.approval_id, first);
    const decided = a.status === 'APPROVED' || a.status === 'DENIED';
    if (a.status === 'PENDING') out.push(finding('review-no-pending-approvals', at, `Approval ${String(a.approval_id)} for ${String(a.tool_name)} is still PENDING.`));
    out.push(...highRisk(String(a.approval_id), a.risk_level, decided, String(a.status), at));
  }
  return out;
}

function highRisk(id: string, risk: unknown, decided: boolean, status: string, at: At): Finding[] {
  if (decided || typeof risk !== 'string') return [];
  if (REVIEW_HIGH_RISK_LEVELS.has(risk)) return [finding('review-high-risk-approvals-decided', at, `Approval ${id} has risk ${risk} and is ${status}, not APPROVED or DENIED.`)];
  if (risk === 'financial_or_legal') {
    return [overridden('review-high-risk-approvals-decided', at, `Approval ${id} has risk financial_or_legal and is ${status}; upstream's review omits this level, which is high risk.`)];
  }
  return [];
}

/** Without bundle.json: an approval requested and never decided in the events is pending. */
function eventApprovals(facts: ReviewFacts): Finding[] {
  const out: Finding[] = [];
  for (const a of facts.approvalsRequired) {
    if (facts.approvalsDecided.has(a.approvalId)) continue;
    out.push(finding('review-no-pending-approvals', a.at, `Approval ${a.approvalId}${a.tool ? ` for ${a.tool}` : ''} was requested and never decided (no tool_approval_decided).`));
    out.push(...highRisk(a.approvalId, a.riskLevel, false, 'undecided', a.at));
  }
  return out;
}

function present(v: unknown, python: boolean): boolean {
  return python ? v !== null && v !== undefined && v !== '' && v !== false && v !== 0 : v !== null && v !== undefined;
}

function artifactReview(b: Obj, first: At): Finding[] {
  const out: Finding[] = [];
  // Python's review tests truthiness; Rust's tests for null (so "" counts as present there).
  const python = typeof b.bundle_hash === 'string' && /^sha256:[0-9a-f]{64}$/.test(b.bundle_hash);
  for (const a of rows(b, 'artifacts')) {
    if (!a.blob_ref || !a.blob_hash) out.push(finding('review-artifacts-have-blob-refs', first, `Artifact ${String(a.artifact_id)} has no blob_ref or blob_hash.`));
  }
  for (const m of rows(b, 'media_artifacts')) {
    const ok = present(m.kind, python) && (present(m.uri, python) || present(m.content_ref, python) || present(m.blob_ref, python));
    if (!ok) out.push(finding('review-media-artifacts-have-refs', first, `Media artifact ${String(m.artifact_id)} lacks a kind or a durable ref (uri, content_ref, blob_ref).`));
  }
  for (const s of rows(b, 'stream_checkpoints')) {
    const ok = present(s.stream_id, python) && present(s.consumer_id, python) && s.offset !== null && s.offset !== undefined;
    if (!ok) out.push(finding('review-stream-checkpoints-have-offsets', first, `Stream checkpoint ${String(s.artifact_id)} lacks stream_id, consumer_id or offset.`));
  }
  return out;
}
