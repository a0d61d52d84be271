import { IdHashIndex } from '../../idHashIndex';
import { NumberColumn } from '../../numberColumn';
import { StringColumn } from '../../stringColumn';
import { Interner } from '../../tableColumns';

/**
 * What murmur's cross-line rules keep of every event line, as columns: its line, type, event_id and parent_id,
 * and the index of the first event that has each id. A million events cost about 60 bytes each here, where an
 * object per event, a Map from id to it and the id strings cost several hundred in each rule that kept them.
 * Events are numbered in file order (0, 1, …) among the lines that are JSON objects.
 */
export class MurmurEventStore {
  private n = 0;
  private readonly lines = new NumberColumn();
  private readonly types = new Interner();
  private readonly typeCol = new NumberColumn();
  /** event_id of event k at entry 2k, parent_id (when a string) at 2k + 1: one column, so the two compare as bytes. */
  private readonly idsAndParents = new StringColumn();
  private readonly index = new IdHashIndex((e, id) => this.idsAndParents.equals(2 * e, id), (e) => this.idsAndParents.get(2 * e)!);
  /** The first event with event k's parent_id when it came before k (the usual case), else -1: found again by id. */
  private readonly parentIndex = new NumberColumn();

  get size(): number {
    return this.n;
  }

  /** Bytes of the id index's slots. */
  get indexBytes(): number {
    return this.index.byteSize;
  }

  /**
   * Room for about `n` events at once: the id index then never hashes its ids again to grow, and the columns are
   * made once (a buffer doubled near the end of a read holds its old and new copies at once, at the read's peak).
   */
  reserve(n: number): void {
    this.index.reserve(n);
    this.idsAndParents.reserve(2 * n);
    this.lines.reserve(n);
    this.typeCol.reserve(n);
    this.parentIndex.reserve(n);
  }

  /**
   * Adds the next event (its number is the size before) and returns the first event with its id: itself, an
   * earlier one, or undefined when it has none. `parentIndex`: `first(parent)` as the caller found it, or undefined.
   */
  add(line: number, type: string, id: string | null, parent: string | null, parentIndex: number | undefined): number | undefined {
    const k = this.n++;
    this.lines.set(k, line);
    this.parentIndex.set(k, parentIndex ?? -1);
    this.typeCol.set(k, this.types.id(type));
    this.idsAndParents.push(id);
    this.idsAndParents.push(parent);
    return id === null ? undefined : this.index.insert(k, id);
  }

  /** The first event with this id, or undefined. */
  first(id: string): number | undefined {
    return this.index.get(id);
  }

  /** The first event whose id is event k's parent_id, or undefined (no parent, or none has that id). */
  parentOf(k: number): number | undefined {
    const known = this.parentIndex.get(k) ?? -1;
    if (known >= 0) return known;
    const parent = this.parent(k);
    return parent === null ? undefined : this.index.get(parent);
  }

  line(k: number): number {
    return this.lines.get(k) ?? 0;
  }

  type(k: number): string {
    return this.types.value(this.typeCol.get(k) ?? 0) ?? '';
  }

  id(k: number): string | null {
    return this.idsAndParents.get(2 * k);
  }

  parent(k: number): string | null {
    return this.idsAndParents.get(2 * k + 1);
  }

  /** Event k's line and id: what a finding about it names. */
  at(k: number): { line: number; id: string | null } {
    return { line: this.line(k), id: this.id(k) };
  }

  /** Whether event k's parent_id is event e's event_id (both null counts as the same). */
  parentIsIdOf(k: number, e: number): boolean {
    return this.idsAndParents.sameAs(2 * k + 1, 2 * e);
  }
}
