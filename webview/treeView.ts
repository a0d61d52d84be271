/**
 * The event tree as a virtual list: a fixed pool of row elements positioned over a tall spacer, filled from
 * the row cache and refilled on scroll. Very long lists are scaled (the spacer is capped and scroll
 * positions map proportionally to rows) so a million rows stay within the browser's element height limit.
 */
import type { RowData } from '../src/protocol';
import { clear, el } from './dom';
import { keyTarget } from './listNav';
import { RowCache } from './rowCache';
import { fillRow, makeRowElement } from './rowView';

export const ROW_HEIGHT = 22;
/** Pause after the last arrow key before the detail of the focused row is asked for. */
const SELECT_DEBOUNCE_MS = 120;
const MAX_SCROLL_PX = 8_000_000;

/** What the list asks of the app. */
export interface TreeCallbacks {
  requestRows(start: number, count: number): void;
  toggle(node: number, expand?: boolean, recursive?: boolean): void;
  select(node: number): void;
  /** Focus (and maybe select) a node whose row is not loaded: the host reveals it. */
  revealNode(node: number, select: boolean): void;
  /** The first row in view changed. */
  viewport(topLine: number | null): void;
  /** Makes an element an id link (hover card, click jumps to the event the id names). */
  idLink?: (a: HTMLElement, id: string) => HTMLElement;
}

/** See the file comment. */
export class TreeView {
  readonly element: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly pool: HTMLElement[] = [];
  readonly cache = new RowCache();
  /**
   * After a live append: the rows of the version before, drawn where the new version's rows have not arrived yet,
   * until every row on screen has (the tree never flashes to rows of "…" while an agent writes).
   */
  private held: RowCache | null = null;
  private focusRow = 0;
  selectedNode: number | null = null;
  findQuery = '';
  private frame = 0;
  private viewportTimer = 0;
  private selectTimer = 0;
  /** The focus moved onto a row whose data has not arrived: select it when it does. */
  private selectWhenLoaded = false;
  /** After a new model: move the focus to the selected row once its page arrives. */
  private focusSelectedWhenLoaded = false;
  private lastTopLine: number | null = null;
  /** First row of the last render: the scroll's step between frames. */
  private lastFirst = 0;

  constructor(private readonly cb: TreeCallbacks) {
    this.spacer = el('div', { class: 'tree-spacer' });
    this.element = el('div', { class: 'tree-scroll', attrs: { tabindex: '0', role: 'tree', 'aria-label': 'Events', 'aria-multiselectable': 'false' } }, this.spacer);
    this.element.addEventListener('scroll', () => this.schedule());
    this.element.addEventListener('keydown', (e) => this.onKey(e));
    this.element.addEventListener('focus', () => this.schedule());
    this.element.addEventListener('blur', () => this.schedule());
    new ResizeObserver(() => this.schedule()).observe(this.element);
  }

  get total(): number {
    return this.cache.total;
  }
  get focusedRow(): number {
    return this.focusRow;
  }

  /**
   * A new projection version: drop cached rows (the scroll position stays). `keepShown` (a live append): the rows
   * on screen stay drawn until the new ones for the screen arrive.
   */
  reset(version: number, total: number, keepShown = false): void {
    if (version === this.cache.version && total === this.cache.total) return;
    this.held = keepShown && this.cache.version >= 0 ? this.cache.snapshot() : null;
    this.cache.reset(version, total);
    this.focusRow = Math.min(this.focusRow, Math.max(0, total - 1));
    this.updateSpacer();
    this.schedule();
  }

  /** Rows from the host; true when some are on screen and were drawn now (false: dropped as stale, or off screen). */
  put(version: number, start: number, rows: RowData[]): boolean {
    if (!this.cache.put(version, start, rows)) return false;
    if (this.focusSelectedWhenLoaded && this.selectedNode !== null) {
      const k = rows.findIndex((r) => r.node === this.selectedNode);
      if (k >= 0) {
        this.focusRow = start + k;
        this.focusSelectedWhenLoaded = false;
      }
    }
    if (this.selectWhenLoaded && this.cache.get(this.focusRow)) this.selectFocused();
    // Rows for the screen are drawn as they arrive, not a frame later: a scrollbar drag shows rows, not placeholders.
    const { first, count } = this.visibleRange();
    if (start < first + count && start + rows.length > first) {
      this.renderNow();
      return true;
    }
    this.schedule();
    return false;
  }

  /** Draws at once, dropping a frame already asked for. */
  private renderNow(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.render();
  }

  /** A new model was shown: the focus goes to the selected row (by node) when its row arrives. */
  focusSelection(): void {
    this.focusSelectedWhenLoaded = this.selectedNode !== null;
    if (this.selectedNode === null) this.focusRow = 0;
  }

  /** Scrolls a row into view (centred when it was off screen) and focuses it. */
  reveal(row: number, focus = true): void {
    if (focus) this.focusRow = row;
    const { first, count } = this.visibleRange();
    if (row < first || row >= first + count - 1) this.scrollToRow(Math.max(0, row - Math.floor(count / 2)));
    this.schedule();
  }

  /** Puts `row` at the top of the viewport. */
  scrollToRow(row: number): void {
    const scale = this.scale();
    this.element.scrollTop = (row * ROW_HEIGHT) / scale;
    this.schedule();
  }

  focus(): void {
    this.element.focus({ preventScroll: true });
  }

  /** The data of the focused row, if loaded. */
  focusedData(): RowData | undefined {
    return this.cache.get(this.focusRow);
  }

  private viewportHeight(): number {
    return this.element.clientHeight || 400;
  }
  private scale(): number {
    const real = this.cache.total * ROW_HEIGHT;
    const capped = Math.min(real, MAX_SCROLL_PX);
    const vh = this.viewportHeight();
    return capped < real && capped > vh ? (real - vh) / (capped - vh) : 1;
  }
  private updateSpacer(): void {
    this.spacer.style.height = `${Math.min(this.cache.total * ROW_HEIGHT, MAX_SCROLL_PX)}px`;
  }
  private visibleRange(): { first: number; count: number; offset: number } {
    const top = this.element.scrollTop * this.scale();
    const first = Math.floor(top / ROW_HEIGHT);
    return { first, count: Math.ceil(this.viewportHeight() / ROW_HEIGHT) + 1, offset: top - first * ROW_HEIGHT };
  }

  /** Renders on the next animation frame (coalescing scroll events). */
  schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  /** Fills the row pool for the current scroll position and asks for missing pages. */
  render(): void {
    const { first, count, offset } = this.visibleRange();
    const total = this.cache.total;
    while (this.pool.length < count) {
      const r = makeRowElement((e, part) => this.onRowClick(this.pool.indexOf(r), e, part));
      this.pool.push(r);
      this.spacer.appendChild(r);
    }
    const base = this.element.scrollTop - offset;
    const focused = document.activeElement === this.element;
    let missing = false;
    let active: string | null = null;
    for (let j = 0; j < this.pool.length; j++) {
      const r = this.pool[j];
      const row = first + j;
      if (j >= count || row >= total) {
        r.hidden = true;
        delete r.dataset.node;
        delete r.dataset.line;
        continue;
      }
      const fresh = this.cache.get(row);
      if (!fresh) missing = true;
      const data = fresh ?? this.held?.get(row);
      // A row the append added, whose data is on its way: left empty rather than drawn as "…".
      r.hidden = !data && this.held !== null;
      r.style.transform = `translateY(${base + j * ROW_HEIGHT}px)`;
      fillRow(r, row, data, { focused: row === this.focusRow, listFocused: focused, selected: data !== undefined && data.node === this.selectedNode, query: this.findQuery, idLink: this.cb.idLink });
      if (row === this.focusRow) active = r.id;
    }
    if (!missing) this.held = null;
    if (active) this.element.setAttribute('aria-activedescendant', active);
    else this.element.removeAttribute('aria-activedescendant');
    if (missing || total > 0) for (const p of this.cache.request(first, first + count)) this.cb.requestRows(p.start, p.count);
    this.prefetchAhead(first, count);
    this.reportViewport(first);
  }

  /**
   * A scrollbar drag moves by more than a screen between frames, past any margin: the pages where the same
   * motion lands next are asked for now, so they are here when it gets there (rows, not placeholders).
   */
  private prefetchAhead(first: number, count: number): void {
    const step = first - this.lastFirst;
    this.lastFirst = first;
    if (Math.abs(step) <= count || this.cache.total === 0) return;
    for (const p of this.cache.prefetch(first + step, first + step + count)) this.cb.requestRows(p.start, p.count);
  }

  private reportViewport(first: number): void {
    // A subagent's row read with the session reports its place (its file and line), as the host finds it again.
    const top = this.cache.get(first);
    const line = top ? top.place ?? top.line : null;
    if (line === null || line === this.lastTopLine) return;
    this.lastTopLine = line;
    clearTimeout(this.viewportTimer);
    this.viewportTimer = window.setTimeout(() => this.cb.viewport(line), 250);
  }

  private onRowClick(j: number, e: MouseEvent, part: 'twistie' | 'row'): void {
    const { first } = this.visibleRange();
    const row = first + j;
    const data = this.cache.get(row);
    this.focusRow = row;
    this.focus();
    if (!data) return this.schedule();
    if (part === 'twistie' || e.detail === 2) {
      if (data.hasChildren) this.cb.toggle(data.node, !data.expanded, e.altKey);
    }
    if (part === 'row') {
      this.selectedNode = data.node;
      this.cb.select(data.node);
    }
    this.schedule();
  }

  private onKey(e: KeyboardEvent): void {
    // Modified keys are the app's (Alt+arrows navigate history and parents, Ctrl+F finds).
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const data = this.focusedData();
    const page = Math.max(1, Math.floor(this.viewportHeight() / ROW_HEIGHT) - 1);
    const t = keyTarget(e.key, this.focusRow, this.cache.total, page, data ?? null, this.selectedNode !== null);
    if (t === null) return;
    e.preventDefault();
    e.stopPropagation();
    switch (t.action) {
      case 'move':
        this.focusRow = t.row;
        this.reveal(t.row);
        return this.selectFocused();
      case 'toggle':
        if (data) this.cb.toggle(data.node, t.expand);
        return;
      case 'parent':
        return this.focusParent(data!);
      case 'select':
        if (data) {
          this.selectedNode = data.node;
          this.cb.select(data.node);
          this.schedule();
        }
        return;
    }
  }

  /** Moves focus to the parent row: found among loaded rows above, or revealed by the host. */
  private focusParent(data: RowData): void {
    for (let r = this.focusRow - 1; r >= 0 && r > this.focusRow - 5000; r--) {
      const d = this.cache.get(r);
      if (d?.node === data.parent) {
        this.focusRow = r;
        this.reveal(r);
        return this.selectFocused();
      }
      if (!d) break;
    }
    this.selectedNode = data.parent;
    this.cb.revealNode(data.parent, true);
  }

  /**
   * The selection follows the keyboard focus (as in VS Code's trees): the row is marked at once and the
   * detail asked for after a short pause, so holding an arrow key does not ask for every event passed.
   */
  private selectFocused(): void {
    const data = this.cache.get(this.focusRow);
    this.selectWhenLoaded = data === undefined;
    if (!data) return;
    this.selectedNode = data.node;
    this.schedule();
    clearTimeout(this.selectTimer);
    const node = data.node;
    this.selectTimer = window.setTimeout(() => {
      if (this.selectedNode === node) this.cb.select(node);
    }, SELECT_DEBOUNCE_MS);
  }

  /** Empties the list (error or loading views). */
  clear(): void {
    this.cache.reset(-1, 0);
    this.held = null;
    for (const r of this.pool) r.remove();
    this.pool.length = 0;
    clear(this.spacer);
    this.updateSpacer();
  }
}
