import { Obj } from '../common';
import { runIdOf } from './records';

/** Per-run bookkeeping both the verifier and the replay need: the bound run id and the next expected seq. */
export interface RunSlot {
  /** The run id bound by `run_started` (null while none is bound). */
  runId: string | null;
  nextSeq: number;
  /** Last line of a record routed to this run. */
  lastLine: number;
}

/** Outcome of routing one record to its run. */
export interface Routed<S extends RunSlot> {
  slot: S;
  /** `run id mismatch` when the record names a run that was never bound while another one is. */
  runMismatch: { expected: string; actual: string } | null;
  /** `event sequence mismatch` when seq is not the run's next one. */
  seqMismatch: { expected: number; actual: number } | null;
  /** True when the seq is below the expected one: a repeated or replayed record that the kernel would refuse. */
  stale: boolean;
}

/**
 * Groups records by run (open point 5: a file may hold several runs) and applies the kernel's pre-checks 1 and 2
 * (§6.1). Unlike the kernel, which stops at the first error, it resynchronises so one defect gives one finding:
 * after a gap the expected seq continues from the record's own seq, and a record of an unbound run counts
 * against the run it was written into.
 */
export class RunRouter<S extends RunSlot> {
  private slots = new Map<string, S>();
  private current: S | null = null;
  private unnamed: S | null = null;

  constructor(private readonly make: (runId: string | null) => S) {}

  /** Every run seen, in order of first appearance. */
  all(): S[] {
    const out = [...new Set(this.slots.values())];
    if (this.unnamed && !out.includes(this.unnamed)) out.unshift(this.unnamed);
    return out;
  }

  /** Routes one record (its tag, event and seq) and runs the seq and run-id pre-checks. */
  route(name: string | null, event: Obj | null, seq: number | null, line: number): Routed<S> {
    const runId = runIdOf(event);
    let runMismatch: Routed<S>['runMismatch'] = null;
    let slot: S | undefined = runId !== null ? this.slots.get(runId) : undefined;
    if (name === 'run_started' && !slot) {
      slot = this.make(runId);
      if (runId !== null) this.slots.set(runId, slot);
    } else if (!slot) {
      if (this.current?.runId != null && runId !== null) {
        runMismatch = { expected: this.current.runId, actual: runId };
        slot = this.current;
      } else if (runId !== null) {
        slot = this.make(runId);
        this.slots.set(runId, slot);
      } else {
        slot = this.current ?? (this.unnamed ??= this.make(null));
      }
    }
    if (name === 'run_started') this.current = slot;
    else this.current ??= slot;
    slot.lastLine = line;
    let seqMismatch: Routed<S>['seqMismatch'] = null;
    let stale = false;
    if (seq !== null) {
      if (seq !== slot.nextSeq) seqMismatch = { expected: slot.nextSeq, actual: seq };
      if (seq >= slot.nextSeq) slot.nextSeq = seq + 1;
      else stale = true;
    }
    return { slot, runMismatch, seqMismatch, stale };
  }
}
