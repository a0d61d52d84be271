/**
 * Line shape and ordering: every line a JSON object (`line-json`), seq 1..N per run (`seq-contiguous`),
 * span numbering and order (`span-seq`).
 */
import { Finding } from '../../model';
import { isObj, Obj } from '../common';
import { LedgerRow } from './rows';
import { LineInput } from '../../rules/types';
import { AgentLedgerRule, At, finding } from './catalog';

/** Why a non-blank line is not a JSON object, or null when it is one. */
export function lineJsonProblem(input: LineInput): string | null {
  if (input.value === undefined) {
    const rustSpan = input.text.startsWith('{"trace_id":"');
    return `The line is not valid JSON${rustSpan ? ' (Rust trace_jsonl does not escape quotes in names or ids)' : ''}: ${JSON.stringify(input.text.slice(0, 60))}.`;
  }
  if (!isObj(input.value)) return `The line is a JSON ${Array.isArray(input.value) ? 'array' : input.value === null ? 'null' : typeof input.value}, not an object.`;
  return null;
}

interface Counter {
  expected: number;
}

function gapText(seq: number, expected: number, what: string): string {
  if (seq > expected) return `${what} ${seq} where ${expected} was expected: ${seq - expected} event(s) missing or out of order.`;
  return `${what} ${seq} where ${expected} was expected: a repeated or reordered event.`;
}

/** Tracks seq per run (event rows) and span numbering per run and kind (span lines). */
export class SeqTracker {
  private readonly events = new Map<string, Counter>();
  private readonly spans = new Map<string, Counter>();
  /** Runs whose media/stream spans have started; event spans after them are out of order. */
  private readonly extrasStarted = new Map<string, number>();

  add(row: LedgerRow, value: Obj, at: At): Finding[] {
    return row.dialect.endsWith('span') ? this.span(row, value, at) : this.event(row, at);
  }

  private event(row: LedgerRow, at: At): Finding[] {
    const c = counter(this.events, row.runId ?? '');
    if (row.seq === null || row.seq < 1) {
      const expected = c.expected++;
      return [finding('seq-contiguous', at, `seq is ${row.seq === null ? 'missing or not an integer' : row.seq}; ${expected} was expected.`)];
    }
    return advance(c, row.seq, 'seq-contiguous', at, 'seq');
  }

  private span(row: LedgerRow, value: Obj, at: At): Finding[] {
    const run = row.runId ?? '';
    const kind = row.spanKind;
    if (kind === null) return [finding('span-seq', at, `span_id ${JSON.stringify(row.id)} is not evt-, media- or stream- followed by at least 6 digits.`)];
    const id = row.id ?? '';
    const n = Number(id.slice(id.indexOf('-') + 1));
    const out: Finding[] = [];
    if (kind === 'evt') {
      const extra = this.extrasStarted.get(run);
      if (extra !== undefined && extra > 0) {
        out.push(finding('span-seq', at, `Event span ${id} comes after the media/stream spans that start on line ${extra}; event spans come first.`));
        this.extrasStarted.set(run, 0); // reported once per run
      }
      const attrs = isObj(value.attributes) ? value.attributes : null;
      const attrSeq = attrs?.['agentledger.seq'];
      if (attrs && attrSeq !== undefined && attrSeq !== n) out.push(finding('span-seq', at, `span_id ${id} but agentledger.seq is ${JSON.stringify(attrSeq)}.`));
    } else if (!this.extrasStarted.has(run)) this.extrasStarted.set(run, at.line);
    out.push(...advance(counter(this.spans, `${run}\u0000${kind}`), n, 'span-seq', at, `${kind}-span number`));
    return out;
  }
}

function counter(m: Map<string, Counter>, key: string): Counter {
  let c = m.get(key);
  if (!c) m.set(key, (c = { expected: 1 }));
  return c;
}

/** Compares with the expected number and resynchronises so one gap or swap is not reported on every later line. */
function advance(c: Counter, seq: number, rule: AgentLedgerRule, at: At, what: string): Finding[] {
  if (seq === c.expected) {
    c.expected++;
    return [];
  }
  const f = finding(rule, at, gapText(seq, c.expected, what));
  c.expected = Math.max(c.expected, seq + 1);
  return [f];
}
