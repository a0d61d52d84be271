import { readSpan } from '../../lineIndexer';
import { tracePathToOpen } from '../../tracePath';
import { isObj, Obj, str } from '../common';
import { isHarnessEventName, LedgerLine } from './records';
import { Finding } from '../../model';
import { HARNESS_CATALOG, HARNESS_RULES, HarnessRuleId } from './catalog';
import { checkLedgerLine, LineScan } from './lineRules';
import { RunRouter, RunSlot } from './router';
import { checkEventShape, EFFECT_DEFAULT_POLICY } from './schemas';
import { newRunState, pendingCommand, replayEvent, RunState } from './transitions';
import { parseTyped } from './typedJson';
import { CheckContext, LineInput, linesWithRules, RuleModule, StreamCheck } from '../../rules/types';
import { appendAll } from '../../arrays';
import { exactNumberText } from '../../json/numberToken';

function lineScan(ctx: CheckContext): LineScan {
  return { torn: linesWithRules(ctx.model.diagnostics, ['parse/torn-tail']), voiceLines: 0 };
}

/**
 * Only bytes up to the last newline are committed (§1): a last record without its newline parses, but the server
 * truncates it on reopen. The runner's lines do not say whether they ended in a newline, so the file's last byte does.
 */
async function uncommittedTail(ctx: CheckContext, scan: LineScan, lastRecordLine: number): Promise<Finding[]> {
  if (lastRecordLine === 0 || scan.torn.has(lastRecordLine) || ctx.model.document || ctx.model.bytesIndexed === 0) return [];
  // The last content byte (for a `.gz`, of the decompressed content, which `bytesIndexed` measures).
  const last = (await readSpan(tracePathToOpen(ctx.model), ctx.model.bytesIndexed - 1, 1))[0];
  if (last === 0x0a || lastRecordLine !== ctx.model.lineCount) return [];
  return [HARNESS_CATALOG.overridden('harness/line-json', lastRecordLine, 'torn tail: the last record has no newline, so it is not committed (the server truncates it on reopen)')];
}

/** Integrity: framing, seq contiguous from 0 per run, and the run_id binding (§6.1 pre-checks 1 and 2). */
function createVerifier(ctx: CheckContext): StreamCheck {
  const scan = lineScan(ctx);
  const router = new RunRouter<RunSlot>((runId) => ({ runId, nextSeq: 0, lastLine: 0 }));
  const out: Finding[] = [];
  let lastLine = 0;
  return {
    add(input) {
      const { findings, line } = checkLedgerLine(input, scan);
      appendAll(out, findings);
      if (!input.blank) lastLine = input.line;
      if (!line || line.form === 'voice' || !line.record) return;
      const r = router.route(line.name, line.event, line.seq, input.line);
      const seq = line.seq ?? undefined;
      if (r.seqMismatch) out.push(HARNESS_CATALOG.finding('harness/seq-contiguous', input.line, `event sequence mismatch: expected ${r.seqMismatch.expected}, actual ${exactNumberText(r.seqMismatch.actual, input.text, 'seq')}`, { seq }));
      if (r.runMismatch) out.push(HARNESS_CATALOG.finding('harness/run-id-bound', input.line, `run id mismatch: expected ${r.runMismatch.expected}, actual ${r.runMismatch.actual}`, { seq }));
    },
    async finish() {
      appendAll(out, await uncommittedTail(ctx, scan, lastLine));
      return out;
    },
  };
}

/** The event with serde number kinds, for proposal matching; only the two events that need it pay for the parse. */
function typedEvent(line: LedgerLine, text: string): Obj | null {
  if (line.name !== 'model_responded' && line.name !== 'tool_call_proposed') return null;
  const typed = parseTyped(text);
  if (!isObj(typed)) return null;
  const rec = line.form === 'envelope' ? (typed as Obj).record : typed;
  return isObj(rec) && isObj(rec.event) ? (rec.event as Obj) : null;
}

/** Conformance: event names and shapes, then the run state machine replay (§6) and the end-of-file phase. */
function createChecker(ctx: CheckContext): StreamCheck {
  const scan = lineScan(ctx);
  const router = new RunRouter<RunState>(newRunState);
  const out: Finding[] = [];
  let v03 = false;
  let lastLine = 0;
  const check = (input: LineInput, line: LedgerLine) => {
    const seq = line.seq ?? undefined;
    const f = (rule: HarnessRuleId, message: string) => out.push(HARNESS_CATALOG.finding(rule, input.line, message, { seq }));
    const e = line.event!;
    if (!isHarnessEventName(line.name)) {
      f('harness/event-known', `unknown variant \`${line.name}\`, expected one of the 16 HarnessEvent names (run_started … tool_proposals_rejected)`);
      return;
    }
    for (const issue of checkEventShape(line.name, e)) f(issue.rule, issue.message);
    if (line.name === 'model_responded' && 'served_model' in e) v03 = true;
    const routed = router.route(line.name, e, line.seq, input.line);
    const s = routed.slot;
    // A repeated record is refused before any transition (verify reports its seq); a reordered one is replayed.
    if (routed.stale && line.seq !== null && s.recent.get(line.seq) === line.name) return;
    rememberSeq(s, line.seq, line.name);
    if (line.name === 'policy_evaluated' && s.phase === 'awaiting_policy') effectPolicy(s, e, f);
    for (const v of replayEvent(s, { name: line.name, event: e, typed: typedEvent(line, input.text), v03 })) {
      out.push(v.overridden ? HARNESS_CATALOG.overridden(v.rule, input.line, v.message, { seq }) : HARNESS_CATALOG.finding(v.rule, input.line, v.message, { seq }));
    }
  };
  return {
    add(input) {
      const { findings, line } = checkLedgerLine(input, scan);
      appendAll(out, findings.filter((x) => x.rule === 'harness/line-json'));
      if (!input.blank) lastLine = input.line;
      if (line?.event && line.name !== null) check(input, line);
    },
    async finish() {
      appendAll(out, await uncommittedTail(ctx, scan, lastLine));
      for (const s of router.all()) {
        if (s.phase === 'finished' || s.phase === 'failed' || s.lastLine === 0) continue;
        const cmd = pendingCommand(s.phase);
        out.push(HARNESS_CATALOG.finding('harness/terminal', s.lastLine, `run ${s.runId ?? '(unbound)'} ends in phase ${s.phase}${cmd ? ` waiting for ${cmd}` : ''}, expected run_finished or run_failed (in flight or crashed)`));
      }
      return out;
    },
  };
}

const RECENT_SEQS = 64;

function rememberSeq(s: RunState, seq: number | null, name: string): void {
  if (seq === null) return;
  s.recent.delete(seq);
  s.recent.set(seq, name);
  if (s.recent.size > RECENT_SEQS) s.recent.delete(s.recent.keys().next().value as number);
}

function effectPolicy(s: RunState, e: Obj, f: (rule: HarnessRuleId, message: string) => void): void {
  const effect = s.call?.effect ?? null;
  const decision = str(e.decision, 'decision');
  const def = effect !== null ? EFFECT_DEFAULT_POLICY[effect] : undefined;
  if (def && decision && decision !== def) {
    f('harness/effect-policy', `policy decided ${decision} for ${s.call?.tool ?? 'the call'} (effect ${effect}); the default policy for ${effect} is ${def}`);
  }
}

/** Harness ledger verification and conformance rules (format doc §9). */
export const harnessLedgerRules: RuleModule = {
  format: 'harness-ledger',
  rules: HARNESS_RULES,
  supersedes: ['parse/invalid-json', 'parse/torn-tail'],
  createVerifier,
  createChecker,
};
