import type { IdMention } from './model';
import { Column, Interner } from './tableColumns';
import { StringColumn } from './stringColumn';

/**
 * The ids events mention (besides their own and their parent's), in flat columns: event i owns the entries
 * [startOf(i), startOf(i) + countOf(i)), each a field (interned) and an id (UTF-8 bytes). A pass over many
 * events reads entries one at a time (`fieldAt`, `idHashAt`, `sameIdAt`) instead of making an object and a
 * string per mention.
 */
export class MentionColumns {
  private readonly start = new Column(new Uint32Array(1024), (n) => new Uint32Array(n));
  private readonly count = new Column(new Uint8Array(1024), (n) => new Uint8Array(n));
  private readonly field = new Column(new Uint32Array(1024), (n) => new Uint32Array(n));
  private readonly ids = new StringColumn();
  private events = 0;

  constructor(private readonly strings: Interner) {}

  /** Records event i's mentions (at most 255 are kept). */
  set(i: number, mentions: readonly IdMention[] | undefined): void {
    this.events = Math.max(this.events, i + 1);
    this.start.set(i, this.ids.size);
    const n = mentions ? Math.min(255, mentions.length) : 0;
    this.count.set(i, n);
    for (let k = 0; k < n; k++) {
      this.field.set(this.ids.size, this.strings.id(mentions![k].field));
      this.ids.push(mentions![k].id);
    }
  }

  /** Event i's mentions as objects. */
  of(i: number): IdMention[] {
    const out: IdMention[] = [];
    for (let k = this.startOf(i), end = k + this.countOf(i); k < end; k++) out.push({ field: this.fieldAt(k), id: this.ids.get(k) ?? '' });
    return out;
  }

  /** Event i's first entry. */
  startOf(i: number): number {
    return this.start.data[i];
  }
  /** How many entries event i has. */
  countOf(i: number): number {
    return this.count.data[i];
  }
  /** Entry k's field (an interned string: the same object for every entry of that field). */
  fieldAt(k: number): string {
    return this.strings.value(this.field.data[k]) ?? '';
  }
  /** The event that owns entry k (a binary search: entries are in event order). */
  eventAt(k: number): number {
    let lo = 0;
    let hi = this.events - 1;
    // The last event that starts at or before k: every later one starts past k, and an event without entries
    // starts where the next one does, so the last is the owner.
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.start.data[mid] <= k) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
  /** Whether entry k's id is empty. */
  emptyAt(k: number): boolean {
    return this.ids.byteLength(k) === 0;
  }
  /** A 32-bit hash of entry k's id, from its bytes. */
  idHashAt(k: number): number {
    return this.ids.hashAt(k);
  }
  /** Whether entries a and b hold the same id, from their bytes. */
  sameIdAt(a: number, b: number): boolean {
    return this.ids.sameAt(a, b);
  }
}
