/**
 * `agent-trace check` for AgentLedger: row and payload schemas, causal tokens, call order per line; the
 * adversarial review over the events and bundle.json at the end.
 */
import { Finding } from '../../model';
import { isObj } from '../common';
import { Dialect, dialectOf, effectivePayload, LedgerRow, rowOf } from './rows';
import { BLOCKING_FAILURE_TYPES } from './vocab';
import { CheckContext, LineInput, linesWithRules, StreamCheck } from '../../rules/types';
import { At, finding } from './catalog';
import { CallOrder, checkRequired, RowRules } from './conformance';
import { loadEvidence } from './evidence';
import { lineJsonProblem } from './lineChecks';
import { newReviewFacts, ReviewFacts, runReview } from './review';

/** Options the checker takes beyond the file (review #12 needs a user-supplied cost limit). */
export interface AgentledgerCheckOptions {
  maxTotalUsd?: number;
}

function collectReviewFacts(facts: ReviewFacts, row: LedgerRow, at: At): void {
  facts.firstAt ??= at;
  if (!row.stepKnown) facts.stepsKnown = false;
  const type = row.type ?? '';
  if (type === 'step_failed') facts.failedSteps.push({ at, stepId: row.stepId });
  if (BLOCKING_FAILURE_TYPES.has(type)) facts.blocking.push({ at, type });
  if (type === 'step_completed' && row.stepId) facts.completedSteps.add(row.stepId);
  if (type === 'tool_call_requested') facts.requests.push({ at, token: row.causalToken, hash: row.payloadHash });
  const p = effectivePayload(row);
  if (!isObj(p) || typeof p.approval_id !== 'string') return;
  if (type === 'tool_approval_required') {
    facts.approvalsRequired.push({ at, approvalId: p.approval_id, riskLevel: typeof p.risk_level === 'string' ? p.risk_level : null, tool: typeof p.tool === 'string' ? p.tool : null });
  }
  if (type === 'tool_approval_decided' && (p.status === 'APPROVED' || p.status === 'DENIED')) facts.approvalsDecided.add(p.approval_id);
}

/** Creates the AgentLedger conformance checker for one file. */
export function createAgentledgerChecker(ctx: CheckContext, options: AgentledgerCheckOptions = {}): StreamCheck {
  const findings: Finding[] = [];
  const skipLines = linesWithRules(ctx.model.diagnostics, ['parse/torn-tail', 'parse/line-too-long']);
  const rowRules = new RowRules();
  const calls = new CallOrder();
  const facts = newReviewFacts();
  let fileDialect: Dialect | null = null;
  let runId: string | null = null;
  return {
    add(input: LineInput) {
      if (input.blank || skipLines.has(input.line)) return;
      const problem = lineJsonProblem(input);
      if (problem) {
        findings.push(finding('line-json', { line: input.line }, problem));
        return;
      }
      const dialect = dialectOf(input.value);
      fileDialect ??= dialect;
      if (!dialect) {
        // A line of another shape: judge it by the file's dialect (or the Python row, the common case).
        findings.push(...checkRequired(fileDialect ?? 'python-event', input.value, { line: input.line }, true));
        return;
      }
      const row = rowOf(input.value, dialect)!;
      const at: At = { line: input.line, seq: row.seq, eventId: row.id };
      findings.push(...checkRequired(dialect, input.value, at, false), ...rowRules.check(row, at), ...calls.check(row, at));
      runId ??= row.runId;
      collectReviewFacts(facts, row, at);
    },
    async finish() {
      if (facts.firstAt === null) return findings;
      const loaded = await loadEvidence(ctx.path);
      // A bundle of another run (or an unreadable one) says nothing about this trace; review the events alone.
      const ev = loaded.state === 'ok' && isObj(loaded.evidence.bundle.run) && loaded.evidence.bundle.run.run_id === runId ? loaded.evidence : null;
      const why = loaded.state === 'missing' ? 'No bundle.json next to the trace' : loaded.state === 'unreadable' ? loaded.message : `bundle.json next to the trace is not for run ${runId}`;
      findings.push(...runReview(facts, ev, options.maxTotalUsd, why));
      return findings;
    },
  };
}
