import { basename } from '../../io/paths';
import { contentName } from '../../byteSource';
import { isLumenKind, isRunIdFileName, LUMEN_KINDS, runIdFromFileName, SLOT, UUID_RE } from './lumenFields';
import { Finding } from '../../model';
import { LUMEN_CATALOG, LumenRuleId } from './lumenRuleCatalog';
import { CheckContext, LineInput, StreamCheck } from '../../rules/types';
import { kindFieldProblem } from './lumenKindSchemas';
import { LumenLineReader, seqNumber } from './lumenLine';
import { bomFinding, EndTracker, LineSet, openLine, tornLines } from './lumenShared';
import type { LumenDigestColumns } from './lumenDigest';
import { LumenFastLine, Tok } from './lumenFastLine';
import { fastFieldsClean, FastTimestamps } from './lumenFastChecks';

type RunState = 'start' | 'inRun' | 'inCell' | 'cellDone' | 'errored' | 'ended';
const FRAME_EVENTS = new Set(['vm_step', 'tool_call', 'schema_validate']);

/**
 * Conformance of a Lumen trace: the run state machine of lumen.md §9 (run_start first, one cell, call
 * pairing, run_end last), per-kind fields of §4 and whether upstream could load each line at all.
 */
export class LumenRunChecker implements StreamCheck {
  private readonly reader = new LumenLineReader();
  private readonly fast = new LumenFastLine();
  private readonly times = new FastTimestamps();
  private lastCell: string | null = null;
  private readonly findings: Finding[] = [];
  private readonly torn: LineSet;
  private readonly end = new EndTracker();
  private state: RunState = 'start';
  private startLine = 0;
  private endLine = 0;
  private entry: string | null = null;
  private entryReturned = false;
  /**
   * An error event was written in the open cell. The tree keeps the cell open after an error (it is a leaf), and
   * a real run writes cell_end after it, so the cell stays open here too: a later cell_end pairs with it. The
   * error may also end the cell (lumen.md §9: cell_end or error), so neither a missing cell_end nor a new
   * cell_start is reported after one, and the frame stack, which the VM unwound, is not held against events.
   */
  private cellErrored = false;
  private readonly calls: string[] = [];
  private docHash: string | null = null;
  private lastDocHash: string | null = null;
  private line = 0;
  private seq: number | undefined;

  constructor(private readonly ctx: CheckContext) {
    this.torn = tornLines(ctx);
    if (ctx.model.bom) this.findings.push(bomFinding());
  }

  add(input: LineInput): void {
    if (input.digest) return this.addDigest(input.line, input.digest.columns as LumenDigestColumns, input.digest.row);
    if (input.bytes !== undefined && this.addFast(input)) return;
    if (openLine(input, this.torn, this.end, this.reader, this.findings) !== 'read') return;
    const r = this.reader;
    this.line = input.line;
    this.seq = seqNumber(r.seqText());
    for (const f of r.loadFindings(input.line)) this.findings.push(f);
    const kind = r.string(SLOT.kind);
    this.end.event(input.line, kind, this.seq);
    if (kind === null) return;
    if (isLumenKind(kind) && input.value !== undefined) {
      const problem = kindFieldProblem(kind, input.value);
      if (problem) this.report('lumen/kind-fields', problem);
    }
    this.checkDocHash(r.string(SLOT.doc_hash));
    this.step(kind, r.string(SLOT.cell));
  }

  /**
   * A line in the fast reader's subset (lumenFastLine.ts) that loads without a finding: its kind's fields and the
   * run's state are checked as for any line, from its bytes instead of a lossless re-read; false for other lines.
   */
  private addFast(input: LineInput): boolean {
    const f = this.fast;
    if (input.blank || !(input.validJson ?? input.value !== undefined) || this.torn.has(input.line) || !f.read(input.bytes!, false, input.utf8 === true) || !fastFieldsClean(f, this.times)) return false;
    this.line = input.line;
    this.seq = f.integer(SLOT.seq);
    const kind = LUMEN_KINDS[f.kindIndex(SLOT.kind)];
    this.end.event(input.line, kind, this.seq);
    const problem = kindFieldProblem(kind, input.value);
    if (problem) this.report('lumen/kind-fields', problem);
    // The same doc_hash and cell as the line before, mostly: compared in place, decoded only when they change.
    const docHash = this.lastDocHash !== null && f.stringEquals(SLOT.doc_hash, this.lastDocHash) ? this.lastDocHash : f.string(SLOT.doc_hash);
    this.checkDocHash(docHash);
    this.step(kind, f.tok[SLOT.cell] === Tok.Str ? this.cellOf(f) : null);
    return true;
  }

  /** The fast reader's cell, as the string of the line before when it is the same. */
  private cellOf(f: LumenFastLine): string {
    if (this.lastCell === null || !f.stringEquals(SLOT.cell, this.lastCell)) this.lastCell = f.string(SLOT.cell);
    return this.lastCell;
  }

  /** A line a range worker digested (lumenDigest.ts): it loads and its kind's fields are right, so only the run's state is left. */
  private addDigest(line: number, c: LumenDigestColumns, row: number): void {
    this.line = line;
    this.seq = c.seq[row];
    const kind = c.table[c.kind[row]];
    this.end.event(line, kind, this.seq);
    this.checkDocHash(c.docHash[row] >= 0 ? c.table[c.docHash[row]] : null);
    this.step(kind, c.cell[row] >= 0 ? c.table[c.cell[row]] : null);
  }

  finish(): Finding[] {
    const truncated = this.end.finding();
    if (truncated) this.findings.push(truncated);
    // A `.gz` run is named by its content's name (`<run_id>.jsonl.gz` → `<run_id>.jsonl`).
    const name = contentName(basename(this.ctx.path));
    if (!isRunIdFileName(name)) {
      const runId = runIdFromFileName(name);
      const message = UUID_RE.test(runId)
        ? `file name '${name}' is not <uuid>.jsonl; the run id is taken from its leading UUID ${runId}`
        : `file name '${name}' is not <uuid>.jsonl, so the run id is unknown (it exists only in the file name)`;
      this.findings.push(LUMEN_CATALOG.finding('lumen/run-id-name', 1, message));
    }
    return this.findings;
  }

  private report(rule: LumenRuleId, message: string): void {
    this.findings.push(LUMEN_CATALOG.finding(rule, this.line, message, this.seq !== undefined ? { seq: this.seq } : undefined));
  }

  /** One finding per stretch of lines whose doc_hash differs from the first line's. */
  private checkDocHash(docHash: string | null): void {
    if (docHash === null) return;
    if (this.docHash === null) this.docHash = docHash;
    else if (docHash !== this.docHash && docHash !== this.lastDocHash) {
      this.report('lumen/doc-hash-constant', `doc_hash changed within run (expected '${this.docHash}' as on the first line, got '${docHash}')`);
    }
    this.lastDocHash = docHash;
  }

  /** The §9 transition for one event. */
  private step(kind: string, cell: string | null): void {
    if (this.state === 'ended') {
      if (this.endLine > 0) this.report('lumen/after-run-end', `event after run_end (run_end is on line ${this.endLine}; this line is ${kind})`);
      this.endLine = 0; // one finding for the whole tail
      return;
    }
    if (this.state === 'start') {
      this.state = 'inRun';
      this.startLine = this.line;
      if (kind === 'run_start') return;
      this.report('lumen/first-run-start', `first event must be run_start (got ${kind})`);
    }
    switch (kind) {
      case 'run_start':
        return this.report('lumen/duplicate-run-start', `duplicate run_start (the run started on line ${this.startLine})`);
      case 'cell_start':
        return this.cellStart(cell);
      case 'cell_end':
        return this.cellEnd(cell);
      case 'call_enter':
        if (this.state !== 'inCell') this.report('lumen/call-balance', `call_enter '${cell}' outside an open cell`);
        this.calls.push(cell ?? '');
        return;
      case 'call_exit':
        return this.callExit(cell);
      case 'error':
        if (this.state === 'inCell') this.cellErrored = true;
        else this.state = 'errored';
        return;
      case 'run_end':
        if (this.state === 'inCell' && !this.cellErrored) this.report('lumen/cell-end', `run_end while cell '${this.entry}' is open (no cell_end and no error)`);
        this.state = 'ended';
        this.endLine = this.line;
        return;
    }
    if (FRAME_EVENTS.has(kind)) this.frameEvent(kind, cell);
  }

  private cellStart(cell: string | null): void {
    if (this.state === 'inCell' && !this.cellErrored) {
      this.report('lumen/nested-cell', `cell_start '${cell}' while cell '${this.entry}' is still open`);
      return;
    }
    this.state = 'inCell';
    this.entry = cell;
    this.entryReturned = false;
    this.cellErrored = false;
    this.calls.length = 0;
  }

  private cellEnd(cell: string | null): void {
    if (this.state !== 'inCell') {
      this.report('lumen/cell-end', `cell_end '${cell}' without an open cell`);
      return;
    }
    if (cell !== this.entry) this.report('lumen/cell-end', `cell_end '${cell}' does not name the open cell '${this.entry}'`);
    if (this.calls.length > 0 && !this.cellErrored) this.report('lumen/cell-end', `cell_end '${cell}' while calls are still open: ${this.calls.join(' > ')}`);
    this.state = 'cellDone';
    this.cellErrored = false;
    this.calls.length = 0;
  }

  private callExit(cell: string | null): void {
    const top = this.calls[this.calls.length - 1];
    if (this.calls.length > 0 && top === cell) {
      this.calls.pop();
      return;
    }
    if (this.calls.length === 0 && this.state === 'inCell' && cell === this.entry && !this.entryReturned) {
      this.entryReturned = true; // the entry frame returns without a call_enter of its own
      return;
    }
    const why = this.state !== 'inCell' ? 'no cell is open'
      : this.calls.length > 0 ? `the innermost open call is '${top}'`
      : this.entryReturned ? `the entry cell '${this.entry}' has already returned`
      : `no call is open and the entry cell is '${this.entry}'`;
    if (!this.cellErrored) this.report('lumen/call-balance', `unbalanced call_exit ('${cell}'; ${why})`);
    // Every Return pops one frame. A name deeper in the stack means exits were skipped (tail call, JIT):
    // unwind to it; otherwise the innermost frame is the one that returned under another name.
    const at = this.calls.lastIndexOf(cell ?? '');
    if (at >= 0) this.calls.length = at;
    else this.calls.pop();
  }

  private frameEvent(kind: string, cell: string | null): void {
    if (this.state === 'errored' || this.cellErrored) return; // the VM unwound its frames; the stack here is stale
    if (this.state !== 'inCell') {
      this.report('lumen/event-cell', `${kind} outside an open cell`);
      return;
    }
    const current = this.calls.length > 0 ? this.calls[this.calls.length - 1] : this.entry;
    if (cell !== current) this.report('lumen/event-cell', `${kind} carries cell '${cell}' but the current frame is '${current}'`);
  }
}

