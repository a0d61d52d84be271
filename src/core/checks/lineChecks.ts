import type { TraceModel } from '../traceModel';
import type { FormatName } from '../model';
import type { CheckContext, CheckMode, CheckSubject, LineInput } from '../rules/types';
import { CheckResult, CheckSet, createChecks, finishChecks, FormatChecks, RunOptions } from './runChecks';

/**
 * The checks of one or more modes, fed the lines of the one read that also builds the events (the loader's, or a
 * streamed verification's), so a trace opened with checks on is read and parsed once. Lines that come before
 * detection chose the format are held (without their bytes) and handed over when it has. The same line input goes
 * to every check of every mode.
 */
export class LineChecks {
  private readonly ctx: Omit<CheckContext, 'blobLayout'>;
  private sets: [CheckMode, CheckSet][] | null = null;
  private held: LineInput[] = [];

  /** `subject`: the read's facts so far (events, live diagnostics); {@link finish} completes it. */
  constructor(readonly modes: readonly CheckMode[], private readonly options: RunOptions, subject: CheckSubject) {
    this.ctx = { path: subject.path, model: subject, blobOptions: options.blobOptions, isCancelled: options.isCancelled };
  }

  /** Whether the checks exist (detection is done); before that, lines are held. */
  get started(): boolean {
    return this.sets !== null;
  }

  /**
   * Detection chose `format`: makes the checks of each mode from what the format brings (`checks`: its rule module
   * and blob layout, from the registry) and hands them the lines held so far.
   */
  start(format: FormatName, checks: FormatChecks): void {
    if (this.sets) return;
    this.ctx.model.format = format;
    this.sets = this.modes.map((mode) => [mode, createChecks(this.ctx, mode, checks)]);
    const held = this.held;
    this.held = [];
    for (const input of held) this.add(input);
  }

  /** One line, in file order. Before {@link start} it must not carry bytes (they are a view of a reused buffer). */
  add(input: LineInput): void {
    if (!this.sets) {
      this.held.push(input);
      return;
    }
    for (const [, set] of this.sets) for (const c of set.checks) c.add(input);
  }

  /**
   * Ends the checks once every line was read, in the order of {@link modes}, handing each result to `onResult` as
   * soon as it exists. `subject`: the read's final facts (the model, when one was built: the rules that need the
   * whole model, such as usage totals, read `traceModel`).
   */
  async finish(subject: CheckSubject, format: FormatName, checks: FormatChecks, cancelled: boolean, traceModel?: TraceModel, onResult?: (mode: CheckMode, result: CheckResult) => void): Promise<Map<CheckMode, CheckResult>> {
    this.start(format, checks);
    // Completed in place: a check may have kept the subject it was made with.
    const { path, source, events, diagnostics, moreDiagnostics, lineCount, bytesIndexed, bom, document } = subject;
    Object.assign(this.ctx.model, { path, source, format, events, diagnostics, moreDiagnostics, lineCount, bytesIndexed, bom, document });
    if (traceModel) this.ctx.traceModel = traceModel;
    const out = new Map<CheckMode, CheckResult>();
    for (const [mode, set] of this.sets!) {
      const result = await finishChecks(set, this.ctx.model, mode, this.options, cancelled);
      out.set(mode, result);
      onResult?.(mode, result);
    }
    return out;
  }
}
