import { EventDraft } from '../../model';
import { collectHashRefs, isObj, num, Obj, str } from '../common';
import { describeKernelRecord } from './describeJournal';
import { describeDsEvent } from './describe';
import { dsCallIds, dsShapeScore, llmToolCalls, readDsRecord } from './records';
import { KERNEL_OS_KINDS } from './kinds';
import { Emit, EventBuilder, FormatAdapter, FormatTotals, SniffResult, SniffSample, SourceRecord } from '../../format';

/** Content-based detection: `{seq, event:{kind}}` lines or elements, bare known kinds, or kernel journal records. */
export function sniffDeepstrike(sample: SniffSample): SniffResult {
  const scores = sample.values.map(dsShapeScore);
  if (scores.length === 0 || scores[0] === 0) return { confidence: 0, reason: 'first record is not a DeepStrike record' };
  const hits = scores.filter((s) => s > 0).length;
  if (hits / scores.length < 0.5) return { confidence: 0, reason: 'most records are not DeepStrike records' };
  const confidence = scores[0] * 0.95 * (0.8 + 0.2 * (hits / scores.length));
  const first = sample.values[0];
  const journal = isObj(first) && ('record_bytes' in first || 'canonical_input' in first);
  return { confidence, reason: journal ? 'DeepStrike kernel journal records' : scores[0] === 1 ? 'DeepStrike session log {seq, event:{kind}}' : 'DeepStrike session events' };
}

/** A run's derived structure while its events stream in. */
interface RunCtx {
  index: number;
  runId: string | null;
  /** The latest llm_completed of each turn: the turn's anchor in the tree. */
  turnAnchor: Map<number, number>;
  llm: number;
  request: number;
  calls: Map<string, { tool: string | null; parent: number }>;
}

const REQUEST_CHILDREN = new Set(['tool_denied', 'tool_gated', 'tool_completed', 'tool_argument_repaired', 'permission_requested', 'permission_resolved']);

/** Builds session → run → turn (llm_completed) → tool request → per-call events, kernel-lane events under their turn. */
class DeepstrikeBuilder implements EventBuilder {
  private run: RunCtx | null = null;
  private lastLine = 1;
  private measured = false;
  private sums = { inputTokens: 0, outputTokens: 0, toolCalls: 0, errors: 0, totalTokens: 0, runs: 0 };

  add(rec: SourceRecord, emit: Emit): void {
    const ds = readDsRecord(rec.value);
    // A JSONL line keeps its own line; an element of a JSON array document is placed through its seq.
    const at = rec.locate ? { ...rec, line: this.lineOf(rec) } : rec;
    if (!ds) {
      emit({ kind: isObj(rec.value) ? 'record' : typeof rec.value, category: 'other', status: 'warning', label: 'not a DeepStrike record' }, at);
      return;
    }
    if (ds.form === 'rec' || ds.form === 'kernel') {
      emit(describeKernelRecord(ds.form === 'rec' ? ds.rec : null, ds.form === 'kernel' ? ds.record : null), at);
      return;
    }
    const e = ds.event ?? {};
    const kind = ds.kind ?? 'record';
    const seq = typeof ds.seq === 'number' && Number.isInteger(ds.seq) ? ds.seq : null;
    if (kind === 'run_started') this.run = { index: -1, runId: str(e, 'run_id'), turnAnchor: new Map(), llm: -1, request: -1, calls: new Map() };
    const run = this.run;
    const d = describeDsEvent(kind, e, (id) => run?.calls.get(id)?.tool ?? null);
    // The description's fields named one by one: a spread of its varying shapes was a slow copy on every line.
    const draft: EventDraft = {
      kind, category: d.category, label: d.label, status: d.status, tokensIn: d.tokensIn, tokensOut: d.tokensOut, model: d.model, tool: d.tool,
      seq, parentIndex: this.parentOf(kind, e), group: run?.runId ?? null, mentions: dsCallIds(e), hashRefs: collectHashRefs(e),
    };
    // run_terminal's total_tokens is the run's tokens, not split into input and output: a totals line.
    if (kind === 'run_terminal' && num(e, 'total_tokens') !== null) draft.usage = { source: 'totals', total: num(e, 'total_tokens') };
    const index = emit(draft, at);
    this.remember(kind, e, index, d.status);
    if (kind === 'run_terminal') this.run = null;
  }

  totals(): FormatTotals {
    // Input tokens are only known where the SDK measured prompts; 0 would claim a measurement.
    const { inputTokens, ...rest } = this.sums;
    return this.measured ? { inputTokens, ...rest } : rest;
  }

  /** The line of an element of a JSON array document, found through its seq; JSONL lines keep their own. */
  private lineOf(rec: SourceRecord): number {
    if (!rec.locate) return rec.line;
    const v = rec.value;
    const needles: string[] = [];
    if (isObj(v) && typeof v.seq === 'number') {
      for (const sep of [':', ': ']) for (const end of [',', '}', '\n', '\r', ' ']) needles.push(`"seq"${sep}${v.seq}${end}`);
    } else if (isObj(v) && (typeof v.step_seq === 'string' || typeof v.step_seq === 'number')) {
      const s = typeof v.step_seq === 'string' ? JSON.stringify(v.step_seq) : String(v.step_seq);
      for (const sep of [':', ': ']) needles.push(`"step_seq"${sep}${s}`);
    } else if (isObj(v) && typeof v.kind === 'string') {
      for (const sep of [':', ': ']) needles.push(`"kind"${sep}${JSON.stringify(v.kind)}`);
    }
    let best: number | null = null;
    for (const n of needles) {
      const l = rec.locate(n);
      if (l !== null && l >= this.lastLine && (best === null || l < best)) best = l;
    }
    this.lastLine = best ?? this.lastLine;
    return this.lastLine;
  }

  private parentOf(kind: string, e: Obj): number | null {
    const run = this.run;
    if (!run || kind === 'run_started') return null;
    const turn = num(e, 'turn');
    const anchor = turn !== null ? run.turnAnchor.get(turn) : undefined;
    const callId = typeof e.call_id === 'string' ? e.call_id : Array.isArray(e.results) || Array.isArray(e.calls) ? dsCallIds(e)[0]?.id : undefined;
    const call = callId !== undefined ? run.calls.get(callId) : undefined;
    let p: number;
    if (kind === 'tool_requested') p = call?.parent ?? (run.llm >= 0 ? run.llm : run.index);
    else if (REQUEST_CHILDREN.has(kind)) p = call?.parent ?? (run.request >= 0 ? run.request : run.llm >= 0 ? run.llm : run.index);
    else if (KERNEL_OS_KINDS.has(kind)) p = anchor ?? run.index;
    else p = run.index;
    return p >= 0 ? p : null;
  }

  private remember(kind: string, e: Obj, index: number, status: EventDraft['status']): void {
    const run = this.run;
    if (status === 'error') this.sums.errors++;
    if (kind === 'run_started') {
      this.sums.runs++;
      if (run) run.index = index;
    } else if (kind === 'run_terminal') this.sums.totalTokens += num(e, 'total_tokens') ?? 0;
    else if (kind === 'prompt_measured') {
      this.measured = true;
      this.sums.inputTokens += num(e.measurement, 'input_tokens') ?? 0;
    }
    if (!run) return;
    if (kind === 'llm_completed') {
      const msg = isObj(e.message) ? e.message : e;
      this.sums.outputTokens += num(msg, 'token_count') ?? 0;
      run.llm = index;
      run.request = -1;
      const turn = num(e, 'turn');
      if (turn !== null) run.turnAnchor.set(turn, index);
      for (const c of llmToolCalls(e)) {
        this.sums.toolCalls++;
        if (c.id !== null) run.calls.set(c.id, { tool: c.name, parent: index });
      }
    } else if (kind === 'tool_requested') {
      run.request = index;
      for (const c of Array.isArray(e.calls) ? e.calls.filter(isObj) : []) {
        if (typeof c.id === 'string') run.calls.set(c.id, { tool: str(c, 'name') ?? run.calls.get(c.id)?.tool ?? null, parent: index });
      }
    }
  }
}

/** DeepStrike session logs (`<session_id>.jsonl`, `*.events.json`) and kernel journal records. */
export const deepstrikeAdapter: FormatAdapter = {
  name: 'deepstrike',
  title: 'DeepStrike',
  sniff: sniffDeepstrike,
  createBuilder: () => new DeepstrikeBuilder(),
};
