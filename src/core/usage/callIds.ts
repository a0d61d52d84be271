import { IdHashIndex } from '../idHashIndex';
import type { MentionColumns } from '../mentionColumns';
import { grown } from '../stringColumn';

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
  /** The call-id hashes of the calls ahead (filled by `expect`, in walk order), and how many are taken. */
  private hashes = new Uint32Array(1024);
  private expected = 0;
  private taken = 0;
  /** Per call in walk order: where its hashes end in `hashes`; how many calls there are, how many were walked. */
  private ends = new Int32Array(1024);
  private calls = 0;
  private walked = 0;
  /** Per bucket of hashes (its low bits): how many lookups ahead fall in it. */
  private ahead = new Uint32Array(0);
  private mask = 0;

  constructor(private readonly m: MentionColumns) {
    this.first = new IdHashIndex<number>((a, b) => m.sameIdAt(a, b), (k) => k, (k) => m.idHashAt(k));
  }

  /** Event i will be walked as a call (in this order): notes the call ids it will look up. */
  expect(i: number): void {
    const m = this.m;
    for (let k = m.firstEntry(i), end = m.endOf(i); k < end; k = m.nextEntry(k)) {
      if (!this.callField(k)) continue;
      if (this.expected === this.hashes.length) this.hashes = grown(this.hashes, this.expected + 1);
      this.hashes[this.expected++] = m.idHashAt(k);
    }
    if (this.calls === this.ends.length) this.ends = grown(this.ends, this.calls + 1);
    this.ends[this.calls++] = this.expected;
  }

  /** The earlier call of the same tool whose id event i records as a call id; else i, whose ids are remembered. */
  pairedCall(names: readonly (string | null)[], i: number): number {
    const m = this.m;
    const start = m.firstEntry(i);
    const end = m.endOf(i);
    // This call's own lookups are no longer ahead.
    const from = this.taken;
    this.taken = this.ends[this.walked++];
    for (let h = from; h < this.taken; h++) this.ahead[this.hashes[h] & this.mask]--;
    if (this.first.size > 0) {
      for (let k = start, h = from; k < end; k = m.nextEntry(k)) {
        if (!this.callField(k)) continue;
        const e = this.first.getHashed(this.hashes[h++], k);
        const j = e === undefined ? -1 : m.eventAt(e);
        if (j >= 0 && names[j] === names[i]) return j;
      }
    }
    if (this.taken === this.expected) return i;
    for (let k = start, h = from; k < end; k = m.nextEntry(k)) {
      // A call id's hash is the one noted for its lookup; an empty id is not remembered.
      const hash = this.callField(k) ? this.hashes[h++] : m.idHashAt(k);
      if (this.ahead[hash & this.mask] > 0 && !m.emptyAt(k)) this.first.insertHashed(hash, k, k);
    }
    return i;
  }

  /** Every call has been expected: the walk may start. Buckets for the expected lookups, about four per lookup. */
  expectDone(): void {
    let size = 64;
    while (size < this.expected * 4 && size < 1 << 22) size *= 2;
    this.ahead = new Uint32Array(size);
    this.mask = size - 1;
    for (let k = 0; k < this.expected; k++) this.ahead[this.hashes[k] & this.mask]++;
  }

  /** Whether entry k's field is a call-id field (worked out once per field). */
  private callField(k: number): boolean {
    const ref = this.m.fieldRefAt(k);
    let is = this.isCallField[ref];
    if (is === undefined) {
      const field = this.m.fieldAt(k);
      this.isCallField[ref] = is = CALL_ID_KEYS.includes(field.slice(field.lastIndexOf('.') + 1)) ? 1 : 0;
    }
    return is === 1;
  }
}
