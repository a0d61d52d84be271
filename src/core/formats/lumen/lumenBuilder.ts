import { EventCategory, EventDraft, EventStatus, HashRef } from '../../model';
import { isObj, num, obj, Obj, parseDigest, short, str } from '../common';
import { Emit, EventBuilder, FormatTotals, SourceRecord } from '../../format';
import { isLumenKind } from './lumenFields';
import { makeTimestampReader } from '../isoTime';
import { jsonPreview } from '../../json/jsonPreview';
import { lumenLineLabel } from './lumenLabels';

/** An open container in the derived tree: the run, the entry cell, or a call frame. */
interface Frame {
  index: number;
  type: 'run' | 'cell' | 'call';
  name: string | null;
  time: number | null;
}

const CATEGORY: Record<string, EventCategory> = {
  run_start: 'run', run_end: 'run', cell_start: 'task', cell_end: 'task', call_enter: 'span', call_exit: 'span',
  tool_call: 'tool', error: 'error', vm_step: 'other', schema_validate: 'other',
};
const NO_REFS: HashRef[] = [];

/**
 * Builds the derived tree of lumen.md §5 (there are no ids or parent fields): run_start is the root;
 * cell_start and call_enter open containers that their cell_end / call_exit close (the closing event is the
 * container's last child and carries the container's duration); leaf events go under the innermost open frame
 * of their own cell, else the innermost frame.
 */
export class LumenTreeBuilder implements EventBuilder {
  private readonly frames: Frame[] = [];
  private readonly counts = { toolCalls: 0, errors: 0, cachedToolCalls: 0, toolLatencyMs: 0, vmSteps: 0 };
  private readonly timeOf = makeTimestampReader();
  private runDocHash: string | null = null;
  private runFailed = false;

  constructor(private readonly runId: string | null) {}

  add(rec: SourceRecord, emit: Emit): void {
    const v = rec.value;
    if (!isObj(v)) {
      const text = short(jsonPreview(v));
      emit({ kind: Array.isArray(v) ? 'array' : typeof v, category: 'other', status: 'warning', label: text, parentIndex: this.top()?.index ?? null, group: this.runId });
      return;
    }
    const kind = str(v, 'kind') ?? 'record';
    const draft: EventDraft = {
      kind, category: CATEGORY[kind] ?? 'other', seq: num(v, 'seq'), time: this.timeOf(v.timestamp), group: this.runId, label: kind, status: 'ok',
      // Every label is made from the line and the event's columns (lumenLabels.ts), when it is shown.
      lineLabel: lumenLineLabel,
      hashRefs: this.hashRefsOf(v, kind),
    };
    const cell = str(v, 'cell');
    switch (kind) {
      case 'run_start':
        return this.open(this.startRun(v, draft), 'run', this.runId, emit);
      case 'cell_start':
      case 'call_enter':
        draft.parentIndex = this.top()?.index ?? null;
        return this.open(draft, kind === 'cell_start' ? 'cell' : 'call', cell, emit);
      case 'call_exit':
        this.callExit(cell, draft);
        break;
      case 'cell_end':
        this.cellEnd(cell, draft);
        break;
      case 'run_end':
        this.runEnd(draft);
        break;
      default:
        leafEvent(v, kind, draft, this.counts);
        if (kind === 'error') this.runFailed = true;
        draft.parentIndex = this.leafParent(cell)?.index ?? null;
    }
    emit(draft);
  }

  totals(): FormatTotals {
    return { ...this.counts };
  }

  private startRun(v: Obj, draft: EventDraft): EventDraft {
    this.runDocHash = str(v, 'doc_hash');
    this.frames.length = 0;
    draft.parentIndex = null;
    return draft;
  }

  private open(draft: EventDraft, type: Frame['type'], name: string | null, emit: Emit): void {
    this.frames.push({ index: emit(draft), type, name, time: draft.time ?? null });
  }

  /**
   * Each Return closes one frame: the named call (unwinding exits that tail calls or the JIT skipped), else the
   * entry cell's own return (it has no call_enter), else the innermost call returning under another name.
   */
  private callExit(cell: string | null, draft: EventDraft): void {
    const call = this.find('call', cell, true);
    const entry = call || this.frames.some((f) => f.type === 'call') ? undefined : this.find('cell', cell, false);
    const other = call || entry ? undefined : this.find('call', undefined, true);
    this.closeWith(draft, call ?? entry ?? other, call || entry ? 'ok' : 'warning');
  }

  /** cell_end closes the innermost cell (and any call left open in it). */
  private cellEnd(cell: string | null, draft: EventDraft): void {
    const open = this.find('cell', undefined, true);
    this.closeWith(draft, open, open && open.name === cell ? 'ok' : 'warning');
  }

  /** run_end closes everything; it shows the run's outcome and duration. */
  private runEnd(draft: EventDraft): void {
    const run = this.find('run', undefined, false);
    this.frames.length = run ? 1 : 0;
    this.closeWith(draft, run, this.runFailed ? 'error' : 'ok');
  }

  /** Makes the closing event the frame's child, with the frame's duration. */
  private closeWith(draft: EventDraft, f: Frame | undefined, status: EventStatus): void {
    draft.parentIndex = (f ?? this.top())?.index ?? null;
    if (f && f.time !== null && draft.time != null) draft.durationMs = Math.max(0, draft.time - f.time);
    draft.status = status;
  }

  private top(): Frame | undefined {
    return this.frames[this.frames.length - 1];
  }

  /** The innermost frame of `type` (and `name`, when given); with `close`, it and everything above are popped. */
  private find(type: Frame['type'], name: string | null | undefined, close: boolean): Frame | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const f = this.frames[i];
      if (f.type !== type || (name !== undefined && f.name !== name)) continue;
      if (close) this.frames.length = i;
      return f;
    }
    return undefined;
  }

  private leafParent(cell: string | null): Frame | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) if (this.frames[i].type !== 'run' && this.frames[i].name === cell) return this.frames[i];
    return this.top();
  }

  /** Content hashes a line holds: doc_hash on run_start (and wherever it differs from the run's), *_hash fields. */
  private hashRefsOf(v: Obj, kind: string): HashRef[] {
    if (kind !== 'run_start' && v.doc_hash === this.runDocHash && v.inputs_hash == null && v.outputs_hash == null && v.policy_hash == null) return NO_REFS;
    const out: HashRef[] = [];
    for (const field of ['doc_hash', 'inputs_hash', 'outputs_hash', 'policy_hash']) {
      const value = str(v, field);
      if (value === null || (field === 'doc_hash' && kind !== 'run_start' && value === this.runDocHash)) continue;
      const d = parseDigest(value);
      if (d) out.push({ field, ...d });
    }
    return out;
  }
}

/** Status, tool and duration of a leaf event (vm_step, tool_call, schema_validate, error, unknown kinds). */
function leafEvent(v: Obj, kind: string, draft: EventDraft, totals: Record<string, number>): void {
  const details = obj(v, 'details');
  switch (kind) {
    case 'vm_step':
      totals.vmSteps++;
      return;
    case 'tool_call': {
      const failed = details?.success === false;
      const latency = num(v, 'latency_ms');
      totals.toolCalls++;
      if (v.cached === true) totals.cachedToolCalls++;
      if (latency !== null) totals.toolLatencyMs += latency;
      if (failed) totals.errors++;
      draft.tool = str(v, 'tool_id');
      draft.durationMs = latency;
      draft.status = failed ? 'error' : 'ok';
      return;
    }
    case 'schema_validate':
      draft.status = details?.valid === false ? 'error' : 'ok';
      return;
    case 'error':
      totals.errors++;
      draft.status = 'error';
      return;
    default:
      draft.status = isLumenKind(kind) ? 'ok' : 'warning';
  }
}
