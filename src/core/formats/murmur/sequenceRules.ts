import { Obj } from '../common';
import { MURMUR_EVENT_ID } from './catalog';
import { Finding } from '../../model';
import { MURMUR_CATALOG, MurmurRuleId } from './ruleCatalog';
import { CheckEvent } from './segments';
import { MurmurEventStore } from './eventStore';

/** Start event → result events, keyed by the id field they share (murmur.md §8 start-before-result). */
const STARTS: Record<string, string> = { shell_detached: 'work_id', delegation_start: 'delegation_id', member_call_start: 'call_id', plan_start: 'plan_id' };
const RESULTS: Record<string, [start: string, field: string]> = {
  shell_completed: ['shell_detached', 'work_id'],
  shell_abandoned: ['shell_detached', 'work_id'],
  delegation: ['delegation_start', 'delegation_id'],
  member_call: ['member_call_start', 'call_id'],
  plan_step_start: ['plan_start', 'plan_id'],
  plan_step: ['plan_start', 'plan_id'],
  plan_end: ['plan_start', 'plan_id'],
};

/** Cross-writer jitter tolerated by murmur/monotonic: separate handles interleave lines in write order. */
const JITTER_MS = 1000;

/** UUIDv7 ids start with 48 bits of Unix milliseconds. */
function idMillis(id: string): number {
  return parseInt(id.slice(4, 16), 16);
}

/** start-before-result, monotonic and capture-mode: rules about order and about the file as a whole. */
export class SequenceCheck {
  private readonly out: Finding[] = [];
  private readonly startLines = new Map<string, number>();
  private readonly waiting: { ev: CheckEvent; key: string; start: string }[] = [];
  private lastTrace: { id: string | null; time: number | null; line: number } | null = null;
  private maxTime = -Infinity;
  private maxIdMs = -Infinity;
  private firstOutput: number | null = null;
  private anyHash = false;
  /** Tool calls without output and agent-loop inferences without wire hashes, as numbers in the store: findings if capture is content. */
  private readonly noOutput: number[] = [];
  private readonly noHashes: number[] = [];

  constructor(private readonly blobsDir: boolean, private readonly store: MurmurEventStore) {}

  /** Event `k` of the store, read from `ev` and `o`. */
  add(k: number, ev: CheckEvent, o: Obj): void {
    this.order(ev, o);
    this.monotonic(ev);
    this.capture(k, ev, o);
  }

  finish(): Finding[] {
    for (const w of this.waiting) {
      const line = this.startLines.get(w.key);
      if (line !== undefined && line > w.ev.line) this.push('murmur/start-before-result', w.ev, `${w.ev.type} comes before its ${w.start} on line ${line} (${w.key.split('\u0000')[1]}); the start is written first.`);
    }
    const content = this.blobsDir || this.firstOutput !== null;
    if (content) {
      const why = this.blobsDir ? 'blobs/ exists next to the trace' : `the tool_call on line ${this.firstOutput} carries output`;
      for (const k of this.noOutput) this.push('murmur/capture-mode', this.store.at(k), `Capture mode is content (${why}), but this tool_call has no output.`);
      for (const k of this.noHashes) this.push('murmur/capture-mode', this.store.at(k), `Capture mode is content (${why}), but this agent-loop inference carries no wire hashes (no wire passed, or mixed capture modes).`);
    }
    if (this.firstOutput !== null && !this.blobsDir && this.anyHash) {
      this.out.push(MURMUR_CATALOG.finding('murmur/capture-mode', this.firstOutput,
        'tool_call output means content capture, but there is no blobs/ directory next to the trace, so the bodies the hashes name are not here.'));
    }
    return this.out;
  }

  private order(ev: CheckEvent, o: Obj): void {
    const startField = STARTS[ev.type];
    if (startField && typeof o[startField] === 'string') {
      const key = `${ev.type}\u0000${o[startField]}`;
      if (!this.startLines.has(key)) this.startLines.set(key, ev.line);
    }
    const result = RESULTS[ev.type];
    if (!result || typeof o[result[1]] !== 'string') return;
    const key = `${result[0]}\u0000${o[result[1]]}`;
    if (!this.startLines.has(key)) this.waiting.push({ ev, key, start: result[0] });
  }

  /** Within TraceWriter, ids and timestamps never go back; other writers may lag by a little. */
  private monotonic(ev: CheckEvent): void {
    const back: string[] = [];
    // The session_start id is minted at open, control_change ids by the caller: neither is in write order.
    const idOk = ev.id !== null && MURMUR_EVENT_ID.test(ev.id) && ev.type !== 'session_start' && ev.type !== 'control_change';
    if (ev.writer === 'trace') {
      const last = this.lastTrace;
      if (last && idOk && last.id !== null && ev.id! < last.id) back.push(`event_id ${ev.id} sorts before ${last.id} (line ${last.line})`);
      if (last && ev.time !== null && last.time !== null && ev.time < last.time) back.push(`timestamp ${ev.time} is before ${last.time} (line ${last.line})`);
      this.lastTrace = { id: idOk ? ev.id : last?.id ?? null, time: ev.time ?? last?.time ?? null, line: ev.line };
    } else {
      if (ev.time !== null && ev.time < this.maxTime - JITTER_MS) back.push(`timestamp ${ev.time} is ${this.maxTime - ev.time} ms before an earlier line's`);
      if (idOk && idMillis(ev.id!) < this.maxIdMs - JITTER_MS) back.push(`event_id ${ev.id} was minted ${this.maxIdMs - idMillis(ev.id!)} ms before an earlier line's`);
    }
    if (ev.time !== null) this.maxTime = Math.max(this.maxTime, ev.time);
    if (idOk) this.maxIdMs = Math.max(this.maxIdMs, idMillis(ev.id!));
    if (back.length > 0) this.push('murmur/monotonic', ev, `Out of order: ${back.join('; ')}.`);
  }

  private capture(k: number, ev: CheckEvent, o: Obj): void {
    if (ev.type === 'tool_call') {
      if (o.output !== undefined) this.firstOutput ??= ev.line;
      else this.noOutput.push(k);
    }
    if (ev.type !== 'inference') return;
    const single = (['system_sha', 'tools_sha', 'response_sha'] as const).filter((k) => o[k] !== undefined);
    if (single.length > 0 || o.message_shas !== undefined) this.anyHash = true;
    if (single.length > 0 && single.length < 3) {
      this.push('murmur/capture-mode', ev, `The inference carries ${single.join(', ')} but not the other wire hashes; the writer records system, tools and response hashes together.`);
    }
    if (!ev.hook && o.error_code === undefined && single.length === 0) this.noHashes.push(k);
  }

  private push(rule: MurmurRuleId, ev: { line: number; id: string | null }, message: string): void {
    this.out.push(MURMUR_CATALOG.finding(rule, ev.line, message, ev.id ? { eventId: ev.id } : undefined));
  }
}
