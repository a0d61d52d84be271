import { isObj, num, Obj, str } from '../common';
import { OUTSIDE_RUN_KINDS, TERMINATION_REASONS } from './kinds';
import { llmToolCalls } from './records';
import { Finding } from '../../model';
import { DEEPSTRIKE_CATALOG, DeepstrikeRuleId } from './catalog';

interface PendingCall {
  name: string | null;
  line: number;
  seq: number | undefined;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/**
 * The session-log run state machine of §7, derived from the writers' order (upstream does not enforce it, so every
 * finding is advisory): NoRun → InRun → AwaitTools (→ AwaitPermission / Suspended) → … → run_terminal.
 */
export class DsRunMachine {
  private out: Finding[] = [];
  private inRun = false;
  private run: { id: string | null; line: number } | null = null;
  private lastTurn: number | null = null;
  /** Call ids the run's llm_completed events asked for, with their tool names. */
  private known = new Map<string, string | null>();
  /** Calls of the latest llm_completed that have no result yet (AwaitTools). */
  private pending = new Map<string, PendingCall>();
  private answered = new Set<string>();
  private openPermissions = 0;
  private suspended: Set<string> | null = null;
  private checkpoints = new Set<number>();
  private compressedSeqs = new Set<number>();
  private lastCompressed: number | null = null;
  private lastLine = 0;
  private lastSeq: number | undefined;

  /** Feeds one event (in file order). */
  add(kind: string, e: Obj, seq: number | undefined, line: number): void {
    this.lastLine = line;
    this.lastSeq = seq;
    const f = (rule: DeepstrikeRuleId, message: string) => this.out.push(DEEPSTRIKE_CATALOG.finding(rule, line, message, { seq }));
    if (kind === 'run_started') return this.startRun(e, line, f);
    if (!this.inRun && !OUTSIDE_RUN_KINDS.has(kind)) f('deepstrike/event-outside-run', `event outside a run (${kind} before the first run_started or after run_terminal)`);
    switch (kind) {
      case 'llm_completed': return this.llm(e, line, seq, f);
      case 'tool_requested':
        for (const c of Array.isArray(e.calls) ? e.calls : []) this.knownCall(str(c, 'id'), 'tool_requested.calls[].id', f);
        return;
      case 'tool_denied': case 'tool_gated': return this.knownCall(str(e, 'call_id'), `${kind}.call_id`, f);
      case 'tool_argument_repaired': {
        const tool = str(e, 'tool');
        if (tool !== null && ![...this.pending.values()].some((p) => p.name === tool)) {
          f('deepstrike/call-id-known', `tool_argument_repaired names tool ${tool}, which no pending call of the preceding llm_completed uses`);
        }
        return;
      }
      case 'permission_requested': this.openPermissions++; return;
      case 'permission_resolved':
        if (this.openPermissions === 0) f('deepstrike/permission-pairing', 'permission_resolved without a preceding permission_requested');
        else this.openPermissions--;
        return;
      case 'suspended': this.suspended = new Set(strings(e.pending_calls)); return;
      case 'resumed': return this.resumed(e, f);
      case 'tool_completed': return this.results(e, f);
      case 'operation_cancelled': for (const id of strings(e.pending_call_ids)) this.pending.delete(id); return;
      case 'checkpoint_taken': { const n = num(e, 'history_len'); if (n !== null) this.checkpoints.add(n); return; }
      case 'rollbacked': {
        const n = num(e, 'checkpoint_history_len');
        if (n === null || !this.checkpoints.has(n)) f('deepstrike/rollback-checkpoint', `rollbacked to checkpoint_history_len ${String(e.checkpoint_history_len)}, but no earlier checkpoint_taken has that history_len (${[...this.checkpoints].join(', ') || 'none'})`);
        return;
      }
      case 'compressed': return this.compressed(e, seq, f);
      case 'summary_upgraded': {
        const cs = e.compressed_seq;
        if (typeof cs !== 'number' || !this.compressedSeqs.has(cs)) f('deepstrike/summary-target', `summary_upgraded.compressed_seq ${JSON.stringify(cs)} is not the seq of an earlier compressed record`);
        return;
      }
      case 'run_terminal': return this.terminal(e, f);
    }
  }

  /** End of file: an open run and unanswered calls (the wake case). */
  finish(): Finding[] {
    if (this.inRun && this.run) {
      this.out.push(DEEPSTRIKE_CATALOG.finding('deepstrike/run-unterminated', this.lastLine,
        `run ${this.run.id ?? '(no run_id)'} started on line ${this.run.line} has no run_terminal at end of file (in flight, crashed, or waiting to wake)`, { seq: this.lastSeq }));
    }
    for (const [id, p] of this.pending) {
      this.out.push(DEEPSTRIKE_CATALOG.finding('deepstrike/pending-call-eof', p.line,
        `call ${id}${p.name ? ` (${p.name})` : ''} has no result at end of file: a pending call that wake() resumes`, { seq: p.seq }));
    }
    return this.out;
  }

  private startRun(e: Obj, line: number, f: (rule: DeepstrikeRuleId, message: string) => void): void {
    if (this.inRun) f('deepstrike/run-unterminated', `previous run has no run_terminal (run ${this.run?.id ?? '?'} started on line ${this.run?.line ?? '?'})`);
    this.inRun = true;
    this.run = { id: str(e, 'run_id'), line };
    this.lastTurn = null;
    this.known.clear();
    this.pending.clear();
    this.answered.clear();
    this.openPermissions = 0;
    this.suspended = null;
  }

  private llm(e: Obj, line: number, seq: number | undefined, f: (rule: DeepstrikeRuleId, message: string) => void): void {
    const turn = num(e, 'turn');
    if (turn !== null && this.lastTurn !== null && turn < this.lastTurn) f('deepstrike/turn-monotonic', `llm_completed turn ${turn} is below the run's previous turn ${this.lastTurn}`);
    if (turn !== null) this.lastTurn = Math.max(turn, this.lastTurn ?? turn);
    for (const [id, p] of this.pending) {
      f('deepstrike/kernel-handled', `call ${id}${p.name ? ` (${p.name})` : ''} from line ${p.line} has no result before this llm_completed; replay inserts "[${p.name ?? id} handled by kernel]"`);
    }
    this.pending.clear();
    this.openPermissions = 0;
    for (const c of llmToolCalls(e)) {
      if (c.id === null) continue;
      this.known.set(c.id, c.name);
      this.pending.set(c.id, { name: c.name, line, seq });
    }
  }

  private knownCall(id: string | null, field: string, f: (rule: DeepstrikeRuleId, message: string) => void): void {
    if (id !== null && !this.known.has(id)) f('deepstrike/call-id-known', `${field} ${id} is not a call of a preceding llm_completed in this run`);
  }

  private resumed(e: Obj, f: (rule: DeepstrikeRuleId, message: string) => void): void {
    const ids = [...strings(e.approved), ...strings(e.denied)];
    const extra = ids.filter((id) => !this.suspended?.has(id));
    if (extra.length > 0) {
      f('deepstrike/resume-subset', this.suspended
        ? `resumed names ${extra.join(', ')}, not among the preceding suspended.pending_calls (${[...this.suspended].join(', ') || 'none'})`
        : `resumed names ${extra.join(', ')} without a preceding suspended`);
    }
    this.suspended = null;
  }

  private results(e: Obj, f: (rule: DeepstrikeRuleId, message: string) => void): void {
    for (const r of Array.isArray(e.results) ? e.results.filter(isObj) : []) {
      const id = str(r, 'call_id');
      if (id === null) continue;
      this.knownCall(id, 'tool_completed.results[].call_id', f);
      if (this.answered.has(id)) f('deepstrike/duplicate-result', `call ${id} already has a tool_completed result`);
      this.answered.add(id);
      this.pending.delete(id);
    }
  }

  private compressed(e: Obj, seq: number | undefined, f: (rule: DeepstrikeRuleId, message: string) => void): void {
    const r = e.archived_seq_range;
    const [s, end] = Array.isArray(r) && r.length === 2 ? r : [undefined, undefined];
    const ok = Number.isInteger(s) && Number.isInteger(end) && (s as number) <= (end as number) && (seq === undefined || (end as number) < seq);
    if (!ok) f('deepstrike/compressed-range', `archived_seq_range ${JSON.stringify(r)} must be [s, e] with s ≤ e < the record's own seq ${seq ?? '?'}`);
    else if (this.lastCompressed !== null && s !== this.lastCompressed + 1) {
      f('deepstrike/compressed-contiguous', `archived_seq_range starts at ${String(s)}, expected ${this.lastCompressed + 1} (the previous compressed record's seq + 1)`);
    }
    if (seq !== undefined) {
      this.lastCompressed = seq;
      this.compressedSeqs.add(seq);
    }
  }

  private terminal(e: Obj, f: (rule: DeepstrikeRuleId, message: string) => void): void {
    const reason = e.reason;
    if (typeof reason !== 'string' || !TERMINATION_REASONS.has(reason)) f('deepstrike/terminal-reason', `run_terminal.reason ${JSON.stringify(reason)} is not a known TerminationReason`);
    this.inRun = false;
    this.pending.clear();
    this.suspended = null;
  }
}
