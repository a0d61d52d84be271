/**
 * The id links of a row's label: which ids known to the trace appear in it. Runs for every row of every page,
 * so it reads the compact columns without making event or mention objects and decodes each id once a page.
 */
import type { EventTable } from '../core/eventTable';
import type { IdSpan } from '../protocol';

/** Most id links one row label carries; labels are short, and each link costs the webview listeners. */
const MAX_ID_SPANS = 4;
/** Ids shorter than this ("1", "a") would match inside ordinary words. */
const MIN_ID_LENGTH = 3;
/** Slots of {@link PageIds} (a power of two, above a page's depth of ancestors). */
const SLOTS = 256;

/**
 * Event ids decoded while one page is built, by event index (direct-mapped): a row's parent id is the id its
 * parent's row, a few rows above, decoded already.
 */
export class PageIds {
  private readonly nodes = new Int32Array(SLOTS).fill(-1);
  private readonly ids: (string | null)[] = new Array<string | null>(SLOTS).fill(null);
  constructor(readonly table: EventTable) {}

  idOf(i: number): string | null {
    const s = i & (SLOTS - 1);
    if (this.nodes[s] === i) return this.ids[s];
    this.nodes[s] = i;
    return (this.ids[s] = this.table.id(i));
  }

  /** `table.parentId(i)`, the parent's id from this page's decodes when the link was resolved by it. */
  parentIdOf(i: number): string | null {
    return this.table.parentFromIdOf(i) ? this.idOf(this.table.linkOf(i)) : this.table.parentId(i);
  }
}

// Ids found in the label, reused from row to row (a page is built synchronously): most labels hold none.
const foundIds: string[] = [];
const foundStarts: number[] = [];

/**
 * The ids known to the trace (the event's own, its parent's, its mentions) that appear verbatim in its label,
 * first occurrence each, in label order, non-overlapping (a longer id wins over one it contains; of two ids of
 * one length, the one named first: own, parent, mentions in order).
 */
export function idSpansOf(ids: PageIds, i: number, label: string): IdSpan[] {
  foundIds.length = 0;
  foundStarts.length = 0;
  if (label.length < MIN_ID_LENGTH) return [];
  consider(ids.idOf(i), label);
  consider(ids.parentIdOf(i), label);
  const m = ids.table.mentions;
  for (let k = m.firstEntry(i), end = m.endOf(i); k < end; k = m.nextEntry(k)) consider(m.idAt(k), label);
  return foundIds.length === 0 ? [] : nonOverlapping();
}

function consider(id: string | null, label: string): void {
  if (id === null || id.length < MIN_ID_LENGTH || id.length > label.length) return;
  // An id named twice (own and mention) is one candidate, at its first place in the order.
  if (foundIds.includes(id)) return;
  const start = label.indexOf(id);
  if (start < 0) return;
  foundIds.push(id);
  foundStarts.push(start);
}

/** The found ids, longest first (ties in the order found), each kept unless it overlaps one kept before. */
function nonOverlapping(): IdSpan[] {
  const order = foundIds.map((_, k) => k).sort((a, b) => foundIds[b].length - foundIds[a].length || a - b);
  const kept: IdSpan[] = [];
  for (const k of order) {
    const start = foundStarts[k];
    const end = start + foundIds[k].length;
    if (!kept.some((s) => start < s.end && end > s.start)) kept.push({ start, end, id: foundIds[k] });
  }
  return kept.sort((a, b) => a.start - b.start).slice(0, MAX_ID_SPANS);
}
