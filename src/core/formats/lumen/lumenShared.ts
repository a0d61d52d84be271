import { Finding } from '../../model';
import { LUMEN_CATALOG } from './lumenRuleCatalog';
import { CheckContext, LineInput, linesWithRules } from '../../rules/types';

/** Lines looked up by number (a live view of the loader's findings). */
export type LineSet = { has(line: number): boolean };
import type { LumenLineReader } from './lumenLine';

/** Lines the loader reported as an incomplete last line (parse/torn-tail); not reported again. */
export function tornLines(ctx: CheckContext): LineSet {
  return linesWithRules(ctx.model.diagnostics, ['parse/torn-tail']);
}

/** serde_json refuses a byte-order mark, so upstream fails on line 1 even though this reader skips it. */
export function bomFinding(): Finding {
  return LUMEN_CATALOG.finding('lumen/line-json', 1,
    'invalid JSON in trace at line 1: expected value at line 1 column 1 (the file starts with a UTF-8 byte-order mark, which upstream does not skip)');
}

/** A blank line in the middle of a trace fails upstream's reader like any bad JSON. */
export function blankLineFinding(line: number): Finding {
  return LUMEN_CATALOG.finding('lumen/line-json', line, `invalid JSON in trace at line ${line}: EOF while parsing a value (the line is blank)`);
}

/** Remembers how the file ends, for `lumen/truncated`. */
export class EndTracker {
  private lastLine = 0;
  private lastKind: string | null = null;
  private lastSeq: number | undefined;
  private sawRunEnd = false;
  private tornLine = 0;

  /** A readable event line. */
  event(line: number, kind: string | null, seq: number | undefined): void {
    this.lastLine = line;
    this.lastKind = kind;
    this.lastSeq = seq;
    if (kind === 'run_end') this.sawRunEnd = true;
  }

  /** An incomplete last line (the writer stopped mid-line). */
  torn(line: number): void {
    this.tornLine = line;
  }

  /** The truncation finding when no run_end was written, at the line where the file ends. */
  finding(): Finding | null {
    if (this.sawRunEnd) return null;
    const line = Math.max(this.lastLine, this.tornLine, 1);
    const last = this.lastKind === null ? 'the file holds no readable event' : `the last event is ${this.lastKind}${this.lastSeq !== undefined ? ` (seq ${this.lastSeq})` : ''}`;
    const torn = this.tornLine > this.lastLine ? ', followed by an incomplete line' : '';
    return LUMEN_CATALOG.finding('lumen/truncated', line, `trace truncated (no run_end): ${last}${torn}; a finished run ends with run_end`,
      this.lastSeq !== undefined && line === this.lastLine ? { seq: this.lastSeq } : undefined);
  }
}

/**
 * The start of reading one line, shared by the chain verifier and the run checker: a torn tail ends the
 * run, a blank or unparseable line is a `lumen/line-json` finding. Returns 'read' when `reader` holds the
 * line, 'invalid' when it is not JSON, 'skipped' otherwise.
 */
export function openLine(input: LineInput, torn: LineSet, end: EndTracker, reader: LumenLineReader, findings: Finding[]): 'read' | 'invalid' | 'skipped' {
  if (torn.has(input.line)) {
    end.torn(input.line);
    return 'skipped';
  }
  if (input.blank) {
    findings.push(blankLineFinding(input.line));
    return 'skipped';
  }
  if (!reader.read(input.text, input.validJson ?? input.value !== undefined)) {
    findings.push(LUMEN_CATALOG.finding('lumen/line-json', input.line, `invalid JSON in trace at line ${input.line}: ${reader.error}`));
    return 'invalid';
  }
  return 'read';
}
