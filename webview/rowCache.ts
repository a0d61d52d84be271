/**
 * The webview's cache of row pages for one version of the row projection. Pages are aligned blocks of
 * rows (the tree's, or the compare view's aligned rows); the cache says which pages a viewport needs that are neither loaded nor on their way, and forgets
 * pages far from the viewport so memory stays flat on a million rows. Pure (unit-tested in Node).
 */
import type { RowData } from '../src/protocol';

export const PAGE_ROWS = 200;
const MAX_PAGES = 40;
/**
 * Pages asked for and not yet answered, at most. A scrollbar drag passes a new position every frame; asking for
 * each (and its margins) queued work on the host for places the drag had left, and the rows for where it is came
 * last. With a bound, the next request goes when an answer comes, for where the view is then. Four: a view that
 * straddles two pages, and as many where a drag lands next.
 */
export const MAX_IN_FLIGHT = 4;

/** See the file comment. */
export class RowCache<T = RowData> {
  version = -1;
  total = 0;
  private pages = new Map<number, T[]>();
  private requested = new Set<number>();
  private around = 0;

  /** Starts over for a new projection version. */
  reset(version: number, total: number): void {
    this.version = version;
    this.total = total;
    this.pages.clear();
    this.requested.clear();
  }

  /** A copy of the pages loaded now (kept on screen while a new version's rows are on their way). */
  snapshot(): RowCache<T> {
    const copy = new RowCache<T>();
    copy.version = this.version;
    copy.total = this.total;
    copy.pages = new Map(this.pages);
    return copy;
  }

  /** Stores rows from the host; false when they belong to another version. */
  put(version: number, start: number, rows: T[]): boolean {
    if (version !== this.version) return false;
    // An answer with fewer rows than asked (the end of the list) still answers its first page.
    this.requested.delete(Math.floor(start / PAGE_ROWS));
    for (let k = 0; k < rows.length; k += PAGE_ROWS) {
      const page = Math.floor((start + k) / PAGE_ROWS);
      if ((start + k) % PAGE_ROWS !== 0) continue;
      this.pages.set(page, rows.slice(k, k + PAGE_ROWS));
      this.requested.delete(page);
    }
    this.evict(this.around);
    return true;
  }

  get(row: number): T | undefined {
    return this.pages.get(Math.floor(row / PAGE_ROWS))?.[row % PAGE_ROWS];
  }

  /** Loaded rows in [from, to), for scanning (e.g. to find a parent's row). */
  *loaded(from: number, to: number): Generator<[number, T]> {
    for (let r = Math.max(0, from); r < Math.min(to, this.total); r++) {
      const d = this.get(r);
      if (d) yield [r, d];
    }
  }

  /**
   * Requests [start, count] for the pages of rows [first, last] not loaded nor on their way, and once those are
   * loaded, a page of margin on each side; marks them requested. No more than {@link MAX_IN_FLIGHT} pages are
   * on their way at once: the host builds (and the list draws) what is on screen before what may be scrolled to.
   */
  request(first: number, last: number): { start: number; count: number }[] {
    this.around = first;
    if (this.total === 0) return [];
    const lastPage = Math.floor((this.total - 1) / PAGE_ROWS);
    const lo = Math.min(lastPage, Math.floor(Math.max(0, first) / PAGE_ROWS));
    const hi = Math.min(lastPage, Math.floor(Math.max(first, last) / PAGE_ROWS));
    const out: { start: number; count: number }[] = [];
    this.want(lo, hi, out);
    // Each call merges only its own pages: a margin page never joins the pages in view.
    if (this.has(lo, hi)) {
      this.want(lo - 1, lo - 1, out);
      this.want(hi + 1, Math.min(lastPage, hi + 1), out);
    }
    this.evict(first);
    return out;
  }

  /** Whether pages [lo, hi] are all loaded. */
  private has(lo: number, hi: number): boolean {
    for (let p = lo; p <= hi; p++) if (!this.pages.has(p)) return false;
    return true;
  }

  /**
   * Requests the pages of rows [first, last] ahead of the viewport (where a scroll in progress will be next),
   * without a margin and without moving what the cache keeps pages around: the viewport's pages stay.
   */
  prefetch(first: number, last: number): { start: number; count: number }[] {
    if (this.total === 0 || last < 0 || first >= this.total) return [];
    const lastPage = Math.floor((this.total - 1) / PAGE_ROWS);
    const out: { start: number; count: number }[] = [];
    this.want(Math.floor(Math.max(0, first) / PAGE_ROWS), Math.min(lastPage, Math.floor(Math.min(last, this.total - 1) / PAGE_ROWS)), out);
    return out;
  }

  /** Adds pages [lo, hi] that are neither loaded nor requested to `out`, merging neighbours, within the in-flight bound. */
  private want(lo: number, hi: number, out: { start: number; count: number }[]): void {
    const from = out.length;
    for (let p = Math.max(0, lo); p <= hi && this.requested.size < MAX_IN_FLIGHT; p++) {
      if (this.pages.has(p) || this.requested.has(p)) continue;
      this.requested.add(p);
      const prev = out.length > from ? out[out.length - 1] : undefined;
      if (prev && prev.start + prev.count === p * PAGE_ROWS) prev.count += PAGE_ROWS;
      else out.push({ start: p * PAGE_ROWS, count: PAGE_ROWS });
    }
  }

  /** Drops the pages farthest from `row` beyond the budget. */
  private evict(row: number): void {
    if (this.pages.size <= MAX_PAGES) return;
    const here = Math.floor(row / PAGE_ROWS);
    const byDistance = [...this.pages.keys()].sort((a, b) => Math.abs(b - here) - Math.abs(a - here));
    for (const p of byDistance.slice(0, this.pages.size - MAX_PAGES)) this.pages.delete(p);
  }

  /** Pages held (for tests and the memory figures). */
  get pageCount(): number {
    return this.pages.size;
  }
}
