import { TREE_CATALOG } from '../catalog/genericCatalog';
import type { Finding, FindingSink } from '../model';
import { NumberColumn } from '../numberColumn';
import { growingInt32 } from './growing';
import { IdStore } from './idStore';

/**
 * The tree's facts of a streamed read, in typed arrays: each event's id and named parent id as numbers of one
 * {@link IdStore} and its structural parent as a distance back (in {@link NumberColumn}s: nothing for a format
 * without ids, a byte or two for parents a few events back), and the first event of each id. `findings` then
 * makes the tree builder's findings (tree.ts `buildTree`: duplicate ids, dangling parents, cycles) from them, in
 * its order and with its messages, without the viewer's id map and children lists.
 */
export class TreeLinks {
  private readonly store = new IdStore();
  /** Id numbers; null: none. */
  private readonly idRef = new NumberColumn();
  private readonly parentRef = new NumberColumn();
  /** Event index minus the structural parent's index; null: none (-2). */
  private readonly structural = new NumberColumn();
  /** Id number → index of the first event with that id, -1 for a parent id no event has (yet). */
  private readonly firstEvent = growingInt32();
  private readonly duplicates: Finding[] = [];
  private parents: Int32Array | null = null;

  constructor(private readonly lineOf: (i: number) => number) {}

  /** Room for about `n` events, and for ids in the same share of them as so far (none for a format without ids). */
  reserve(n: number, eventsSoFar: number): void {
    this.idRef.reserve(n);
    this.parentRef.reserve(n);
    this.structural.reserve(n);
    if (eventsSoFar > 0 && this.store.size > 0) this.store.reserve(Math.ceil((n * this.store.size) / eventsSoFar));
  }

  /** Records event `i`'s links; a repeated id is reported here, as the tree builder's first pass does. */
  add(i: number, id: string | null | undefined, parentId: string | null | undefined, parentIndex: number | null | undefined): void {
    this.structural.set(i, parentIndex == null ? null : i - parentIndex);
    this.parentRef.set(i, parentId == null ? null : this.ref(parentId));
    if (id == null) return this.idRef.set(i, null);
    const r = this.ref(id);
    this.idRef.set(i, r);
    const first = this.firstEvent.at(r);
    if (first < 0) return this.firstEvent.push(r, i);
    this.duplicates.push({
      rule: 'tree/duplicate-id', severity: TREE_CATALOG.severityOf('tree/duplicate-id'), line: this.lineOf(i), eventId: id,
      message: `Event id ${id} is already used by the event on line ${this.lineOf(first)}.`,
    });
  }

  id(i: number): string | null {
    const r = this.idRef.get(i);
    return r === null ? null : this.store.get(r);
  }

  /** The parent id event `i` names, or null. */
  parentId(i: number): string | null {
    const r = this.parentRef.get(i);
    return r === null ? null : this.store.get(r);
  }

  /** The resolved parent of event `i` after {@link findings} (-1: a root). */
  parent(i: number): number {
    return this.parents ? this.parents[i] : -1;
  }

  /** Bytes of the per-event columns (the parents resolved by {@link findings} included). */
  get byteSize(): number {
    return this.idRef.byteSize + this.parentRef.byteSize + this.structural.byteSize + (this.parents?.byteLength ?? 0);
  }

  /** Whether some event has this id. */
  hasId(id: string): boolean {
    const r = this.store.find(id);
    return r >= 0 && this.firstEvent.at(r) >= 0;
  }

  /**
   * Resolves the parents of `n` events and hands the tree builder's findings to `out`, in its order, one at a time:
   * a million dangling parents are never a million findings at once.
   */
  findings(n: number, out: FindingSink): void {
    for (const d of this.duplicates) out.push(d);
    const parents = new Int32Array(n).fill(-1);
    this.parents = parents;
    for (let i = 0; i < n; i++) {
      const back = this.structural.get(i);
      const s = back === null ? -2 : i - back;
      if (s >= 0 && s < n && s !== i) {
        parents[i] = s;
        continue;
      }
      const pr = this.parentRef.get(i);
      if (pr === null) continue;
      const p = this.firstEvent.at(pr);
      const pid = this.store.get(pr);
      if (p < 0) out.push(this.finding('tree/dangling-parent', i, `Parent ${pid} is not in this trace; the event is shown as a root.`));
      else if (p === i) out.push(this.finding('tree/cycle', i, `Event ${pid} names itself as its parent.`));
      else parents[i] = p;
    }
    this.breakCycles(parents, out);
  }

  /** tree.ts `breakCycles` over the parent array: each cycle cut at its member last in the file. */
  private breakCycles(parents: Int32Array, out: FindingSink): void {
    const n = parents.length;
    // Parents that all come before their children (most traces) cannot form a cycle: no marks needed.
    let forward = false;
    for (let i = 0; i < n && !forward; i++) forward = parents[i] >= i;
    if (!forward) return;
    const mark = new Int32Array(n).fill(-1);
    for (let start = 0; start < n; start++) {
      if (mark[start] !== -1) continue;
      let i = start;
      while (i >= 0 && mark[i] === -1) {
        mark[i] = start;
        i = parents[i];
      }
      if (i >= 0 && mark[i] === start) {
        let cut = i;
        for (let j = parents[i]; j !== i; j = parents[j]) if (j > cut) cut = j;
        out.push(this.finding('tree/cycle', cut, `Parent links form a cycle through line ${this.lineOf(cut)} (parent ${this.parentId(cut) ?? '?'}); the event is shown as a root.`));
        parents[cut] = -1;
      }
      for (let k = start; k >= 0 && mark[k] === start; k = parents[k]) mark[k] = n;
    }
  }

  private finding(rule: 'tree/dangling-parent' | 'tree/cycle', i: number, message: string): Finding {
    return { rule, severity: TREE_CATALOG.severityOf(rule), line: this.lineOf(i), eventId: this.id(i) ?? undefined, message };
  }

  private ref(s: string): number {
    const { ref, added } = this.store.intern(s);
    if (added) this.firstEvent.push(ref, -1);
    return ref;
  }
}
