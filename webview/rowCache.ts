/**
 * The webview's cache of row pages for one version of the row projection. Pages are aligned blocks of
 * rows; the cache says which pages a viewport needs that are neither loaded nor on their way, and forgets
 * pages far from the viewport so memory stays flat on a million rows. Pure (unit-tested in Node).
 */
import type { RowData } from '../src/protocol';

export const PAGE_ROWS = 200;
const MAX_PAGES = 40;

/** See the file comment. */
export class RowCache {
  version = -1;
  total = 0;
  private pages = new Map<number, RowData[]>();
  private requested = new Set<number>();
  private around = 0;

  /** Starts over for a new projection version. */
  reset(version: number, total: number): void {
    this.version = version;
    this.total = total;
    this.pages.clear();
    this.requested.clear();
  }

  /** Stores rows from the host; false when they belong to another version. */
  put(version: number, start: number, rows: RowData[]): boolean {
    if (version !== this.version) return false;
    for (let k = 0; k < rows.length; k += PAGE_ROWS) {
      const page = Math.floor((start + k) / PAGE_ROWS);
      if ((start + k) % PAGE_ROWS !== 0) continue;
      this.pages.set(page, rows.slice(k, k + PAGE_ROWS));
      this.requested.delete(page);
    }
    this.evict(this.around);
    return true;
  }

  get(row: number): RowData | undefined {
    return this.pages.get(Math.floor(row / PAGE_ROWS))?.[row % PAGE_ROWS];
  }

  /** Loaded rows in [from, to), for scanning (e.g. to find a parent's row). */
  *loaded(from: number, to: number): Generator<[number, RowData]> {
    for (let r = Math.max(0, from); r < Math.min(to, this.total); r++) {
      const d = this.get(r);
      if (d) yield [r, d];
    }
  }

  /** Pages [start, count] to request so rows [first, last] plus a page of margin are covered; marks them requested. */
  request(first: number, last: number): { start: number; count: number }[] {
    this.around = first;
    if (this.total === 0) return [];
    const lo = Math.max(0, Math.floor(first / PAGE_ROWS) - 1);
    const hi = Math.min(Math.floor((this.total - 1) / PAGE_ROWS), Math.floor(Math.max(first, last) / PAGE_ROWS) + 1);
    const out: { start: number; count: number }[] = [];
    for (let p = lo; p <= hi; p++) {
      if (this.pages.has(p) || this.requested.has(p)) continue;
      this.requested.add(p);
      const prev = out[out.length - 1];
      if (prev && prev.start + prev.count === p * PAGE_ROWS) prev.count += PAGE_ROWS;
      else out.push({ start: p * PAGE_ROWS, count: PAGE_ROWS });
    }
    this.evict(first);
    return out;
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
