import { EventDraft, IdMention } from '../../model';
import { collectHashRefs, hasExactKeys, isObj, Obj, str } from '../common';
import { CallFacts, describeHarnessEvent } from './describe';
import { callIdOf, ENVELOPE_KEYS, RECORD_KEYS, runIdOf, unwrapLedgerLine } from './records';
import { Emit, EventBuilder, FormatAdapter, FormatTotals, SniffResult, SniffSample, SourceRecord } from '../../format';

/** Where a run's derived structure stands while its records stream in. */
interface RunCtx {
  runIndex: number;
  startedAt: number | null;
  turnIndex: number;
  model: string | null;
  /** model_requested per step: its event index, time and model. */
  steps: Map<number, { index: number; time: number | null; model: string | null }>;
  calls: Map<string, CallCtx>;
}

interface CallCtx extends CallFacts {
  index: number;
  startedAt: number | null;
}

function looksLikeRecord(v: unknown, exact: boolean): boolean {
  if (!isObj(v) || !isObj(v.event) || typeof v.event.event !== 'string') return false;
  return exact ? hasExactKeys(v, [...RECORD_KEYS]) : 'seq' in v && 'occurred_at_ms' in v;
}

/** Scores one sniffed value: 1 exact record or envelope, 0.8 a record with stray keys, 0 anything else; null for voice lines. */
function scoreValue(v: unknown): number | null {
  if (!isObj(v)) return 0;
  if (hasExactKeys(v, ['voice_events'])) return null;
  if ('record' in v && 'v' in v) {
    if (!looksLikeRecord(v.record, false)) return 0;
    return hasExactKeys(v, [...ENVELOPE_KEYS]) && looksLikeRecord(v.record, true) ? 1 : 0.8;
  }
  if (looksLikeRecord(v, true)) return 1;
  return looksLikeRecord(v, false) ? 0.8 : 0;
}

/** Content-based detection: `{seq, occurred_at_ms, event:{event}}` bare or inside `{"v","record"}`. */
export function sniffHarnessLedger(sample: SniffSample): SniffResult {
  const scores = sample.values.map(scoreValue).filter((s): s is number => s !== null);
  if (scores.length === 0) {
    const voiceOnly = sample.values.length > 0;
    return { confidence: voiceOnly ? 0.3 : 0, reason: voiceOnly ? 'only a voice_events line' : 'no values' };
  }
  const hits = scores.filter((s) => s > 0).length;
  if (scores[0] === 0 || hits / scores.length < 0.5) return { confidence: 0, reason: 'first record is not a harness RecordedEvent' };
  const base = scores[0] === 1 ? 0.95 : 0.75;
  const confidence = base * (0.8 + 0.2 * (hits / scores.length));
  const enveloped = isObj(sample.values.find((v) => isObj(v) && 'record' in v));
  return { confidence, reason: enveloped ? 'harness ledger lines {"v","record":{seq,occurred_at_ms,event}}' : 'harness RecordedEvent lines {seq,occurred_at_ms,event}' };
}

const MENTION_FIELDS = ['turn_id', 'call_id', 'actor_id'] as const;

function mentionsOf(e: Obj): IdMention[] {
  const out: IdMention[] = [];
  for (const f of MENTION_FIELDS) {
    const v = str(e, f);
    if (v) out.push({ field: f, id: v });
  }
  const callId = str(e.call, 'id');
  if (callId) out.push({ field: 'call.id', id: callId });
  const resultCall = str(e.result, 'call_id');
  if (resultCall) out.push({ field: 'result.call_id', id: resultCall });
  return out;
}

function artifactRefs(e: Obj) {
  const arts = isObj(e.result) ? e.result.artifacts : undefined;
  if (!Array.isArray(arts)) return [];
  return collectHashRefs(arts).map((r) => ({ ...r, field: `result.artifacts${r.field}` }));
}

/** Builds run → turn → model step / tool call structure from records that carry no parent ids (§4). */
class HarnessBuilder implements EventBuilder {
  private runs = new Map<string, RunCtx>();
  private current: RunCtx | null = null;
  private sums = { inputTokens: 0, outputTokens: 0, toolCalls: 0, errors: 0, denials: 0 };

  add(rec: SourceRecord, emit: Emit): void {
    const line = unwrapLedgerLine(rec.value);
    if (!line) {
      emit({ kind: isObj(rec.value) ? 'record' : typeof rec.value, category: 'other', status: 'warning', label: 'not a harness ledger record' });
      return;
    }
    if (line.form === 'voice') {
      const v = (rec.value as Obj).voice_events;
      emit({ kind: 'voice_events', category: 'other', label: `voice_events${Array.isArray(v) ? ` (${v.length})` : ''}` });
      return;
    }
    const e = line.event ?? {};
    const name = line.name ?? 'record';
    const run = this.runFor(name, runIdOf(line.event));
    const draft = this.place(name, e, run, line.occurredAtMs);
    // Set on the draft `place` made: a copy of it with these five, on every line, was slow (its shapes vary).
    draft.seq = line.seq;
    draft.time = line.occurredAtMs;
    draft.group = runIdOf(line.event);
    draft.mentions = mentionsOf(e);
    draft.hashRefs = artifactRefs(e);
    const index = emit(draft);
    this.remember(name, e, run, index, line.occurredAtMs, draft);
  }

  totals(): FormatTotals {
    return { ...this.sums };
  }

  private runFor(name: string, runId: string | null): RunCtx {
    const fresh = (): RunCtx => ({ runIndex: -1, startedAt: null, turnIndex: -1, model: null, steps: new Map(), calls: new Map() });
    if (name === 'run_started') {
      const ctx = fresh();
      if (runId !== null) this.runs.set(runId, ctx);
      this.current = ctx;
      return ctx;
    }
    let ctx = runId !== null ? this.runs.get(runId) : this.current ?? undefined;
    if (!ctx) {
      // A record of a run whose run_started is not in the file still groups with its own run.
      ctx = fresh();
      if (runId !== null) this.runs.set(runId, ctx);
    }
    return ctx;
  }

  /** Chooses the parent and describes the event. */
  private place(name: string, e: Obj, run: RunCtx, time: number | null): EventDraft {
    const callId = callIdOf(e);
    const call = callId !== null ? run.calls.get(callId) ?? null : null;
    const inTurn = run.turnIndex >= 0 ? run.turnIndex : run.runIndex;
    let parent = inTurn;
    let durationMs: number | null = null;
    let model = run.model;
    const since = (t: number | null) => (t !== null && time !== null ? time - t : null);
    switch (name) {
      case 'run_started': parent = -1; break;
      case 'context_built': case 'context_compacted': case 'run_finished': case 'run_failed':
        parent = run.runIndex;
        if (name.startsWith('run_')) durationMs = since(run.startedAt);
        break;
      case 'model_responded': case 'model_failed': {
        const step = run.steps.get(typeof e.step === 'number' ? e.step : -1);
        if (step) {
          parent = step.index;
          durationMs = since(step.time);
          model = step.model ?? model;
        }
        break;
      }
      case 'tool_finished': case 'tool_failed':
        durationMs = since(call?.startedAt ?? null);
        parent = call?.index ?? inTurn;
        break;
      default:
        if (call && name !== 'tool_call_proposed') parent = call.index;
    }
    const d = describeHarnessEvent(name, e, { call, model, durationMs });
    return {
      kind: name, category: d.category, label: d.label, status: d.status, tokensIn: d.tokensIn, tokensOut: d.tokensOut,
      parentIndex: parent >= 0 ? parent : null, durationMs, model: name === 'model_requested' ? str(e, 'model') : name.startsWith('model_') ? model : null, tool: d.tool ?? null,
    };
  }

  /** Updates the run's structure after the event got its index. */
  private remember(name: string, e: Obj, run: RunCtx, index: number, time: number | null, d: EventDraft): void {
    const callId = callIdOf(e);
    switch (name) {
      case 'run_started': run.runIndex = index; run.startedAt = time; break;
      case 'context_built': run.turnIndex = index; break;
      case 'model_requested':
        run.model = str(e, 'model') ?? run.model;
        if (typeof e.step === 'number') run.steps.set(e.step, { index, time, model: str(e, 'model') });
        break;
      case 'model_responded':
        this.sums.inputTokens += d.tokensIn ?? 0;
        this.sums.outputTokens += d.tokensOut ?? 0;
        break;
      case 'tool_call_proposed':
        this.sums.toolCalls++;
        if (callId !== null) run.calls.set(callId, { index, tool: str(e.call, 'tool'), effect: str(e.call, 'effect'), startedAt: null });
        break;
      case 'tool_started': {
        const c = callId !== null ? run.calls.get(callId) : undefined;
        if (c) c.startedAt = time;
        break;
      }
    }
    if (d.status === 'error') this.sums.errors++;
    if (name === 'approval_denied' || (name === 'policy_evaluated' && d.status === 'warning')) this.sums.denials++;
  }
}

/** Platonic harness event ledger (`RecordedEvent` JSONL, bare or `{"v","record"}` enveloped). */
export const harnessLedgerAdapter: FormatAdapter = {
  name: 'harness-ledger',
  title: 'Harness ledger (platonic)',
  sniff: sniffHarnessLedger,
  createBuilder: () => new HarnessBuilder(),
};
