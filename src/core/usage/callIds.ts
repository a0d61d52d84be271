import { IdHashIndex } from '../idHashIndex';
import { MentionColumns } from '../mentionColumns';
import { grown } from '../stringColumn';
import { Interner } from '../tableColumns';
import { keepShape } from '../keepShape';

/** Keys under which formats record the id pairing a tool result with its call (Claude Code, Codex, OTLP, murmur). */
export const CALL_ID_KEYS: readonly string[] = ['call_id', 'tool_use_id', 'tool_call_id', 'callId', 'toolUseId', 'toolCallId'];

/**
 * The ids tool calls mention, read from the table's mention entries (their bytes, not strings): the first event
 * to mention each id, for a later result that records it as its call id.
 *
 * Only an id some later call looks up needs remembering: {@link expect} is told, before the walk, every call id
 * the calls will look up (their hashes, counted per bucket); as the walk passes a call its own lookups are taken
 * off, and an id whose bucket no call ahead still looks up is not stored. Most ids are never looked up (murmur's
 * task ids, Claude Code's message ids, OTLP trace ids): storing each one, and growing the index for them, was
 * most of the pairing's time. A skipped id could only have been found by a lookup with the same hash ahead, so
 * the pairs are those of storing every id.
 */
export class CallIds {
  /** Entry → the first entry that holds its id (the entry of the event that mentioned it first). */
  private readonly first: IdHashIndex<number>;
  /** Per field number: 1 a call-id field, 0 not, undefined not asked yet. */
  private readonly isCallField: (0 | 1 | undefined)[] = [];
  /**
   * The entries of the calls, read once by `expect` in walk order: each entry, its id's hash, and its flags
   * (CALL: a call-id field; EMPTY: an empty id). `ends[c]`: where call c's entries end.
   */
  private keys = new Int32Array(1024);
  private hashes = new Uint32Array(1024);
  private flags = new Uint8Array(1024);
  private entries = 0;
  private ends = new Int32Array(1024);
  private calls = 0;
  /** Walk position: calls and entries passed; lookups still ahead. */
  private walked = 0;
  private taken = 0;
  private pending = 0;
  /** Per bucket of hashes (their low bits): how many lookups ahead fall in it. */
  private ahead = new Uint32Array(0);
  private mask = 0;

  constructor(private readonly m: MentionColumns) {
    this.first = new IdHashIndex<number>((a, b) => m.sameIdAt(a, b), (k) => k, (k) => m.idHashAt(k));
  }

  /** Event i will be walked as a call (in this order): notes its entries and the call ids it will look up. */
  expect(i: number): void {
    const m = this.m;
    for (let k = m.firstEntry(i), end = m.endOf(i); k < end;) {
      const next = m.readEntry(k);
      const n = this.entries++;
      if (n === this.keys.length) this.grow();
      const h = m.entryHash;
      this.keys[n] = k;
      this.hashes[n] = h < 0 ? 0 : h;
      this.flags[n] = (this.callField(m.entryField, k) ? CALL : 0) | (h < 0 ? EMPTY : 0);
      if (this.flags[n] === CALL) this.pending++;
      k = next;
    }
    if (this.calls === this.ends.length) this.ends = grown(this.ends, this.calls + 1);
    this.ends[this.calls++] = this.entries;
  }

  /**
   * Every call has been expected: the walk may start. A lookup whose hash no earlier call's entry has can find
   * nothing, so it is dropped (murmur's calls each look up their own new `tool_call_id`); buckets for the rest,
   * about four per lookup.
   */
  expectDone(): void {
    this.dropHopelessLookups();
    let size = 64;
    while (size < this.pending * 4 && size < 1 << 22) size *= 2;
    this.ahead = new Uint32Array(size);
    this.mask = size - 1;
    for (let n = 0; n < this.entries; n++) if (this.flags[n] === CALL) this.ahead[this.hashes[n] & this.mask]++;
  }

  /** The earlier call of the same tool whose id event i records as a call id; else i, whose ids are remembered. */
  pairedCall(names: ArrayLike<string | number | null>, i: number): number {
    const from = this.taken;
    const to = (this.taken = this.ends[this.walked++]);
    // This call's own lookups are no longer ahead (an empty id is never looked up: none is stored).
    for (let n = from; n < to; n++) if (this.flags[n] === CALL) this.ahead[this.hashes[n] & this.mask]--, this.pending--;
    if (this.first.size > 0) {
      for (let n = from; n < to; n++) {
        if (this.flags[n] !== CALL) continue;
        const e = this.first.getHashed(this.hashes[n], this.keys[n]);
        const j = e === undefined ? -1 : this.m.eventAt(e);
        if (j >= 0 && names[j] === names[i]) return j;
      }
    }
    if (this.pending === 0) return i;
    for (let n = from; n < to; n++) {
      // Insert keeps the first entry of an id (a later one is only noted as a duplicate).
      if ((this.flags[n] & EMPTY) === 0 && this.ahead[this.hashes[n] & this.mask] > 0) this.first.insertHashed(this.hashes[n], this.keys[n], this.keys[n]);
    }
    return i;
  }

  /** Clears the CALL flag of every lookup whose hash no entry of an earlier call has (see {@link expectDone}). */
  private dropHopelessLookups(): void {
    const seen = new HashSet32(this.entries);
    let from = 0;
    for (let c = 0; c < this.calls; c++) {
      const to = this.ends[c];
      // A call's lookups are made before its own entries are stored: test them against earlier calls only.
      for (let n = from; n < to; n++) {
        if (this.flags[n] === CALL && !seen.has(this.hashes[n])) {
          this.flags[n] = 0;
          this.pending--;
        }
      }
      for (let n = from; n < to; n++) if ((this.flags[n] & EMPTY) === 0) seen.add(this.hashes[n]);
      from = to;
    }
  }

  private grow(): void {
    this.keys = grown(this.keys, this.entries + 1);
    this.hashes = grown(this.hashes, this.entries + 1);
    const flags = new Uint8Array(this.keys.length);
    flags.set(this.flags);
    this.flags = flags;
  }

  /** Whether entry k, of field number `ref`, is in a call-id field (worked out once per field). */
  private callField(ref: number, k: number): boolean {
    let is = this.isCallField[ref];
    if (is === undefined) {
      const field = this.m.fieldAt(k);
      this.isCallField[ref] = is = CALL_ID_KEYS.includes(field.slice(field.lastIndexOf('.') + 1)) ? 1 : 0;
    }
    return is === 1;
  }
}

const CALL = 1;
const EMPTY = 2;

/**
 * A set of 32-bit hashes, open addressing with linear probing (sized for `n` values at most). A slot holding 0 is
 * empty, so hash 0 is kept as 1: a test may then say "seen" for a hash it was not given, which only keeps a
 * lookup that the pairing's index, comparing the ids themselves, then finds nothing for.
 */
class HashSet32 {
  private readonly keys: Uint32Array;
  private readonly mask: number;

  constructor(n: number) {
    let size = 16;
    while (size < n * 2) size *= 2;
    this.keys = new Uint32Array(size);
    this.mask = size - 1;
  }

  has(h: number): boolean {
    const key = h === 0 ? 1 : h;
    for (let s = Math.imul(key, 0x9e3779b1) & this.mask; this.keys[s] !== 0; s = (s + 1) & this.mask) if (this.keys[s] === key) return true;
    return false;
  }

  add(h: number): void {
    const key = h === 0 ? 1 : h;
    let s = Math.imul(key, 0x9e3779b1) & this.mask;
    for (; this.keys[s] !== 0; s = (s + 1) & this.mask) if (this.keys[s] === key) return;
    this.keys[s] = key;
  }
}

// Made for every tool-call pass: their maps are kept (see keepShape).
keepShape(new HashSet32(0));
keepShape(new CallIds(new MentionColumns(new Interner())));
