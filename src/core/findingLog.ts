import { Buffer } from 'buffer';
import type { Finding, FindingSink, Severity } from './model';

/** Entries a chunk of the log holds; a full chunk's texts are copied to their exact size. */
const CHUNK = 1 << 14;
const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

// meta: rule number << 8 | flags
const HAS_SEQ = 1;
const HAS_ID = 2;
/** `eventId` was written before `seq` in the finding (JSON keeps the key order). */
const ID_FIRST = 4;
/** Not in the compact shape: the finding object itself is kept. */
const WHOLE = 8;
/** Dropped by {@link FindingLog.keepOnly}: skipped when read. */
const DROPPED = 1 << 7;
const SEVERITY_SHIFT = 4;
const RULE_SHIFT = 8;

/** One chunk of entries: numbers in typed arrays, the event id and message as UTF-8 bytes in one buffer. */
interface Chunk {
  line: Float64Array;
  /** Null until an entry of the chunk has a seq. */
  seq: Float64Array | null;
  meta: Uint32Array;
  /** Start of the entry's texts in `text`: its event id's bytes, then its message's. */
  start: Uint32Array;
  idBytes: Uint32Array;
  /** Bytes of the part of the message that differs from its rule's first message in the chunk (see `shared`). */
  messageBytes: Uint32Array;
  /** UTF-16 units the message shares with that first message at its start, and at its end. */
  head: Uint16Array;
  tail: Uint16Array;
  /** Rule number → the first message of that rule in the chunk. */
  bases: Map<number, string>;
  text: Buffer;
  used: number;
}

/**
 * Findings kept compactly, for a writer that hands them on one at a time (`agent-trace check|verify --json` with a
 * million findings): each is a few numbers and its texts as UTF-8, about 40 bytes beside its message where a
 * `Finding` object with its strings takes some 200, and is made again as an object, with the same keys in the same
 * order and the same values, only while it is read. A finding of another shape (a text that is not well-formed
 * UTF-16, an unknown key or severity) is kept as it is. {@link sortByLine} orders them as the check engine does.
 */
export class FindingLog implements Iterable<Finding>, FindingSink {
  private chunks: Chunk[] = [];
  private readonly rules: string[] = [];
  private readonly ruleNumbers = new Map<string, number>();
  private readonly whole = new Map<number, Finding>();
  /** Entries, dropped ones included. */
  private count = 0;
  private dropped = 0;
  private errorCount = 0;
  /** Entry numbers in reading order; null: the order they came in. */
  private order: Uint32Array | null = null;

  /** Findings held. */
  get length(): number {
    return this.count - this.dropped;
  }

  /** Bytes the entries take (typed arrays and texts; findings kept whole not counted). */
  get byteSize(): number {
    let n = 0;
    for (const c of this.chunks) n += c.line.byteLength + (c.seq?.byteLength ?? 0) + c.meta.byteLength + c.start.byteLength + c.idBytes.byteLength + c.messageBytes.byteLength + c.head.byteLength + c.tail.byteLength + c.text.length;
    return n;
  }

  /** Findings of severity error. */
  get errors(): number {
    return this.errorCount;
  }

  /** Adds a finding after the ones held (a later {@link sortByLine} orders them all again). */
  push(f: Finding): void {
    const k = this.count % CHUNK;
    if (k === 0) this.addChunk();
    const c = this.chunks[this.chunks.length - 1];
    if (f.severity === 'error') this.errorCount++;
    const shape = compactShape(f);
    const severity = SEVERITIES.indexOf(f.severity);
    if (shape < 0 || severity < 0) {
      this.whole.set(this.count, f);
      c.meta[k] = WHOLE;
      c.line[k] = f.line;
    } else {
      let rule = this.ruleNumbers.get(f.rule);
      if (rule === undefined) {
        rule = this.rules.length;
        this.rules.push(f.rule);
        this.ruleNumbers.set(f.rule, rule);
      }
      c.meta[k] = (rule << RULE_SHIFT) | (severity << SEVERITY_SHIFT) | shape;
      c.line[k] = f.line;
      if (shape & HAS_SEQ) (c.seq ??= new Float64Array(CHUNK))[k] = f.seq!;
      const id = shape & HAS_ID ? f.eventId! : '';
      // A rule's messages differ in a name or a number: only what differs from the chunk's first one is kept.
      let base = c.bases.get(rule);
      if (base === undefined) c.bases.set(rule, (base = f.message));
      const [head, tail] = shared(base, f.message);
      c.head[k] = head;
      c.tail[k] = tail;
      const middle = head + tail > 0 ? f.message.slice(head, f.message.length - tail) : f.message;
      const room = (id.length + middle.length) * 3;
      if (c.used + room > c.text.length) {
        const next = Buffer.allocUnsafe(Math.max(c.text.length * 2, c.used + room));
        c.text.copy(next, 0, 0, c.used);
        c.text = next;
      }
      c.start[k] = c.used;
      c.idBytes[k] = id.length > 0 ? c.text.write(id, c.used, 'utf8') : 0;
      c.used += c.idBytes[k];
      c.messageBytes[k] = middle.length > 0 ? c.text.write(middle, c.used, 'utf8') : 0;
      c.used += c.messageBytes[k];
    }
    this.count++;
    this.order = null;
  }

  /**
   * Orders the findings by line, then rule (`localeCompare`), the order they came in deciding the rest: what a
   * stable `sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule))` of them gives.
   */
  sortByLine(): void {
    const n = this.count;
    const rank = this.ruleRanks();
    const rankOf = (i: number): number => {
      const meta = this.chunks[(i / CHUNK) | 0].meta[i % CHUNK];
      return meta & WHOLE ? rank.get(this.whole.get(i)!.rule)! : rank.get(this.rules[meta >>> RULE_SHIFT])!;
    };
    const lineOf = (i: number): number => this.chunks[(i / CHUNK) | 0].line[i % CHUNK];
    // Most come in order (a file's findings by line): then nothing is allocated.
    let sorted = true;
    for (let i = 1; i < n && sorted; i++) sorted = (lineOf(i) - lineOf(i - 1) || rankOf(i) - rankOf(i - 1)) >= 0;
    if (sorted) return;
    const lines = new Float64Array(n);
    const ranks = new Uint32Array(n);
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      lines[i] = lineOf(i);
      ranks[i] = rankOf(i);
      order[i] = i;
    }
    order.sort((a, b) => lines[a] - lines[b] || ranks[a] - ranks[b] || a - b);
    this.order = order;
  }

  /** The findings, each made anew, in the order of the last {@link sortByLine} (or as they came). */
  *[Symbol.iterator](): Iterator<Finding> {
    for (let j = 0; j < this.count; j++) {
      const i = this.order ? this.order[j] : j;
      if (!(this.chunks[(i / CHUNK) | 0].meta[i % CHUNK] & DROPPED)) yield this.at(i);
    }
  }

  /**
   * The findings in the order they came, each chunk let go once read: handed from this log to another, the two never
   * hold them all at once. The log is empty afterwards.
   */
  *drain(): Generator<Finding> {
    const chunks = this.chunks;
    const n = this.count;
    this.chunks = [];
    this.count = 0;
    this.dropped = 0;
    this.errorCount = 0;
    this.order = null;
    const whole = new Map(this.whole);
    this.whole.clear();
    for (let c = 0; c < chunks.length; c++) {
      const chunk = chunks[c];
      const end = Math.min(n, (c + 1) * CHUNK);
      for (let i = c * CHUNK; i < end; i++) if (!(chunk.meta[i % CHUNK] & DROPPED)) yield entry(chunk, i % CHUNK, this.rules, () => whole.get(i)!);
      (chunks as (Chunk | null)[])[c] = null;
    }
  }

  /**
   * Keeps each finding as `decide` says from its rule and severity: dropped (null), or with the severity it gives.
   * Decided once per rule and severity, no finding made again: a million findings of one rule are one decision.
   */
  keepOnly(decide: (rule: string, severity: Severity) => Severity | null): void {
    const decided = new Map<number, number>();
    this.errorCount = 0;
    for (let i = 0; i < this.count; i++) {
      const c = this.chunks[(i / CHUNK) | 0];
      const k = i % CHUNK;
      const meta = c.meta[k];
      if (meta & DROPPED) continue;
      let severity: number;
      if (meta & WHOLE) {
        const f = this.whole.get(i)!;
        const s = decide(f.rule, f.severity);
        if (s !== null && s !== f.severity) this.whole.set(i, { ...f, severity: s });
        severity = s === null ? -1 : SEVERITIES.indexOf(s);
        if (s === 'error') this.errorCount++;
        if (s === null) c.meta[k] = meta | DROPPED;
      } else {
        const key = meta >>> SEVERITY_SHIFT;
        let s = decided.get(key);
        if (s === undefined) {
          const to = decide(this.rules[meta >>> RULE_SHIFT], SEVERITIES[(meta >>> SEVERITY_SHIFT) & 3]);
          s = to === null ? -1 : SEVERITIES.indexOf(to);
          decided.set(key, s);
        }
        severity = s;
        if (s < 0) c.meta[k] = meta | DROPPED;
        else c.meta[k] = (meta & ~(3 << SEVERITY_SHIFT)) | (s << SEVERITY_SHIFT);
      }
      if (severity < 0) this.dropped++;
      else if (!(meta & WHOLE) && severity === 0) this.errorCount++;
    }
    this.order = null;
  }

  /** Entry `i` (in the order it came) as a finding. */
  private at(i: number): Finding {
    return entry(this.chunks[(i / CHUNK) | 0], i % CHUNK, this.rules, () => this.whole.get(i)!);
  }

  /** Each rule's place among the rules held, by `localeCompare` (rules it finds equal share one). */
  private ruleRanks(): Map<string, number> {
    const names = [...new Set([...this.rules, ...[...this.whole.values()].map((f) => f.rule)])].sort((a, b) => a.localeCompare(b));
    const rank = new Map<string, number>();
    let r = 0;
    names.forEach((name, i) => {
      if (i > 0 && names[i - 1].localeCompare(name) !== 0) r++;
      rank.set(name, r);
    });
    return rank;
  }

  private addChunk(): void {
    const last = this.chunks[this.chunks.length - 1];
    // A full chunk keeps only the bytes it used, copied when it left more than an eighth unused.
    if (last && last.used < last.text.length - (last.text.length >> 3)) last.text = Buffer.from(last.text.subarray(0, last.used));
    // Texts as long as the last chunk's, and an eighth more: a buffer doubled while filling leaves its old copies
    // to the collector, outside the heap, a few megabytes a chunk.
    const room = last ? last.used + (last.used >> 3) + 1024 : 1 << 16;
    this.chunks.push({
      line: new Float64Array(CHUNK), seq: null, meta: new Uint32Array(CHUNK), start: new Uint32Array(CHUNK),
      idBytes: new Uint32Array(CHUNK), messageBytes: new Uint32Array(CHUNK), head: new Uint16Array(CHUNK), tail: new Uint16Array(CHUNK), bases: new Map(), text: Buffer.allocUnsafe(room), used: 0,
    });
  }
}

/** Entry `k` of a chunk as a finding; `whole`: the finding kept as it came. */
function entry(c: Chunk, k: number, rules: readonly string[], whole: () => Finding): Finding {
  const meta = c.meta[k];
  if (meta & WHOLE) return whole();
  const rule = rules[meta >>> RULE_SHIFT];
  const severity = SEVERITIES[(meta >>> SEVERITY_SHIFT) & 3];
  const line = c.line[k];
  const idEnd = c.start[k] + c.idBytes[k];
  const middle = c.text.toString('utf8', idEnd, idEnd + c.messageBytes[k]);
  const head = c.head[k];
  const tail = c.tail[k];
  let message = middle;
  if (head + tail > 0) {
    const base = c.bases.get(meta >>> RULE_SHIFT)!;
    message = base.slice(0, head) + middle + base.slice(base.length - tail);
  }
  if (!(meta & (HAS_SEQ | HAS_ID))) return { rule, severity, line, message };
  const eventId = c.text.toString('utf8', c.start[k], idEnd);
  if (!(meta & HAS_ID)) return { rule, severity, line, seq: c.seq![k], message };
  if (!(meta & HAS_SEQ)) return { rule, severity, line, eventId, message };
  return meta & ID_FIRST ? { rule, severity, line, eventId, seq: c.seq![k], message } : { rule, severity, line, seq: c.seq![k], eventId, message };
}

/**
 * How many UTF-16 units `text` shares with `base` at its start and at its end, not overlapping in either, never
 * splitting a surrogate pair, each at most 65,535 (or both 0).
 */
function shared(base: string, text: string): [number, number] {
  if (base === text) return text.length <= 0xffff ? [text.length, 0] : [0, 0];
  const most = Math.min(base.length, text.length);
  let head = 0;
  while (head < most && base.charCodeAt(head) === text.charCodeAt(head)) head++;
  let tail = 0;
  while (tail < most - head && base.charCodeAt(base.length - 1 - tail) === text.charCodeAt(text.length - 1 - tail)) tail++;
  // Not between the halves of a pair: the part kept must be well-formed to go through UTF-8.
  if (head > 0 && isHighSurrogate(text.charCodeAt(head - 1))) head--;
  if (tail > 0 && isLowSurrogate(text.charCodeAt(text.length - tail))) tail--;
  return head <= 0xffff && tail <= 0xffff ? [head, tail] : [0, 0];
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** A lone surrogate (not well-formed UTF-16), which UTF-8 cannot keep. */
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * The compact flags of a finding whose own keys are `rule`, `severity`, `line`, then `seq` and `eventId` (either
 * order, either left out or undefined), then `message`, with those types and well-formed texts; -1 for any other.
 */
function compactShape(f: Finding): number {
  let flags = 0;
  let k = 0;
  for (const key in f) {
    if (!Object.prototype.hasOwnProperty.call(f, key)) return -1;
    const v = (f as unknown as Record<string, unknown>)[key];
    const want = k === 0 ? 'rule' : k === 1 ? 'severity' : k === 2 ? 'line' : null;
    k++;
    if (want !== null) {
      if (key !== want) return -1;
      continue;
    }
    if (key === 'seq') {
      if (v === undefined) continue;
      if (typeof v !== 'number' || flags & HAS_SEQ) return -1;
      flags |= HAS_SEQ;
    } else if (key === 'eventId') {
      if (v === undefined) continue;
      if (typeof v !== 'string' || flags & HAS_ID || LONE_SURROGATE.test(v)) return -1;
      flags |= HAS_ID | (flags & HAS_SEQ ? 0 : ID_FIRST);
    } else if (key === 'message') {
      if (typeof v !== 'string' || LONE_SURROGATE.test(v)) return -1;
      k = -1;
    } else return -1;
  }
  if (k !== -1) return -1;
  if (typeof f.rule !== 'string' || typeof f.line !== 'number') return -1;
  return flags;
}
