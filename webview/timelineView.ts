/**
 * The Timeline tab (issue 16 item 1; a waterfall since issue 40): one row per call or step in tree order, a fixed
 * name column on the left (indented as the tree, subtrees collapsible, resizable with its splitter, hidden with
 * Names) and the bars on a shared time axis right of it, drawn on a canvas. The host sends compact slices of the rows
 * (never the whole run) with the viewer's filter applied; this view caches them, draws only the rows on screen, and
 * mirrors those rows in a visually hidden list (textContent only) for screen readers. Hovering a row (or moving the
 * keyboard focus to it) shows a tooltip with its facts. Ctrl+wheel, +/−, 0 and Fit zoom; drag, Shift+wheel and
 * Shift+←/→ pan; the wheel and ↑/↓ move through the rows; ←/→ collapse and expand; Enter (or a click) selects the
 * event in the tree and detail pane.
 */
import type { TimelineMessage } from '../src/protocol';
import { el } from './dom';
import type { PendingRequest } from './requests';
import { Bar, drawTimeline, fmtMs, indentOf, timeArea, TimelineState, xOf } from './timelineDraw';
import { markOnScreen, rebuildRowList, renderSummary, RunFacts } from './timelineText';
import { onTimelineKey } from './timelineKeys';
import { NameColumn } from './timelineNames';
import { TimelineTip } from './timelineTip';

const ROW = 20;
const AXIS = 18;
const PAGE = 500;
const DENSITY = 400;

/** What the view asks of the app. */
export interface TimelineHost {
  /** Asks the host for rows [start, start + count) (or the page of `node`'s row); the slice comes to `onReply`. */
  request(start: number, count: number, node: number | null, density: number | null, collapsed: number[], onReply: (m: TimelineMessage) => void): PendingRequest;
  /** Selects and reveals the event (tree, detail pane). */
  reveal(node: number): void;
}

/** See the file comment. */
export class TimelineView {
  readonly element = el('div', { class: 'timeline-view' });
  private readonly canvas = el('canvas', { class: 'timeline-canvas', attrs: { tabindex: '0', role: 'application', 'aria-label': 'Timeline: ↑ and ↓ move between bars, Enter selects, ← and → collapse and expand, + and − zoom, 0 fits the run' } }) as HTMLCanvasElement;
  private readonly minimap = el('canvas', { class: 'timeline-minimap', attrs: { 'aria-hidden': 'true' } }) as HTMLCanvasElement;
  private readonly tip = new TimelineTip();
  private readonly body = el('div', { class: 'timeline-body' });
  private readonly spanText = el('span', { class: 'timeline-span' });
  private readonly summary = el('div', { class: 'timeline-summary' });
  private readonly nameColumn = new NameColumn(this.canvas, () => this.draw());
  private readonly list = el('ul', { class: 'timeline-a11y', attrs: { 'aria-label': 'Visible timeline bars' } });
  private readonly bars = new Map<number, Bar>();
  private readonly pending = new Set<PendingRequest>();
  private readonly collapsed = new Set<number>();
  private modelVersion = -1;
  private total = -1;
  private span = 0;
  private density: number[] = [];
  private facts: RunFacts = { hidden: 0, bookkeeping: [], folded: 0, anyCritical: false };
  private viewStart = 0;
  private viewEnd = 1;
  private fitted = false;
  private top = 0;
  private focusBar = 0;
  private selectedNode: number | null = null;
  private shown = false;
  private drag: { x: number; start: number; moved: boolean } | null = null;
  /** The row under the mouse (its tooltip shows), or the focused row after a key; -1: none. */
  private tipRow = -1;
  private tipAt: { x: number; y: number } | null = null;
  private frameQueued = false;
  private listKey = '';

  constructor(private readonly host: TimelineHost) {
    const button = (text: string, title: string, act: () => void): HTMLElement => el('button', { class: 'timeline-button', text, title, attrs: { 'aria-label': title }, onClick: act });
    const tools = el('div', { class: 'timeline-tools' }, button('−', 'Zoom out', () => this.zoom(2)), button('+', 'Zoom in', () => this.zoom(0.5)), button('Fit', 'Fit the whole run', () => this.fit()), this.nameColumn.button, this.spanText);
    this.body.append(this.canvas, this.nameColumn.splitter, this.tip.element);
    this.element.append(tools, this.summary, this.minimap, this.body, this.list);
    this.canvas.setAttribute('aria-describedby', 'timeline-tooltip');
    this.canvas.addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
    this.canvas.addEventListener('mousedown', (e) => (this.drag = { x: e.clientX, start: this.viewStart, moved: false }));
    this.canvas.addEventListener('mousemove', (e) => this.onHover(e));
    this.canvas.addEventListener('mouseleave', () => this.hideTip());
    this.canvas.addEventListener('blur', () => this.hideTip());
    window.addEventListener('mousemove', (e) => this.onDrag(e));
    window.addEventListener('mouseup', (e) => this.onUp(e));
    this.canvas.addEventListener('keydown', (e) => onTimelineKey(e, {
      rows: () => this.rows(), total: () => this.total, focusBar: () => this.focusBar, bar: (row) => this.bars.get(row),
      focusOn: (row) => this.focusOn(row), reveal: (node) => this.host.reveal(node), zoom: (f) => this.zoom(f), fit: () => this.fit(),
      pan: (fraction) => this.panTo(this.viewStart + fraction * (this.viewEnd - this.viewStart)), toggle: (row, to) => this.toggle(row, to),
      hideTip: () => this.hideTip(), drawFocused: () => this.draw(true),
    }));
    this.minimap.addEventListener('click', (e) => this.onMinimap(e));
    new ResizeObserver(() => this.draw()).observe(this.canvas);
  }

  /** A new model: the cached rows and collapsed bars belong to the old one. */
  reset(modelVersion: number): void {
    this.modelVersion = modelVersion;
    this.collapsed.clear();
    this.fitted = false;
    this.top = 0;
    this.focusBar = 0;
    this.refresh();
  }

  /** The rows changed (the filter, a collapse): ask for them again, keeping the zoom and the selection. */
  refresh(): void {
    this.bars.clear();
    for (const p of this.pending) p.cancel();
    this.pending.clear();
    this.total = -1;
    this.hideTip();
    if (this.shown) {
      if (this.selectedNode !== null) this.ask(0, PAGE, this.selectedNode);
      else this.ensure();
    }
  }

  onShow(): void {
    this.shown = true;
    // A selection made while hidden: fetch the page around it so its bar is on screen.
    if (this.total >= 0 && this.selectedNode !== null && this.rowOfNode(this.selectedNode) === null && this.pending.size === 0) this.ask(0, PAGE, this.selectedNode);
    this.ensure();
    this.draw();
  }

  onHide(): void {
    this.shown = false;
    this.hideTip();
  }

  /** The selection changed elsewhere: highlight its row, fetching the page around it if need be. */
  onSelect(node: number): void {
    this.selectedNode = node;
    const row = this.rowOfNode(node);
    if (row !== null) this.focusOn(row);
    else if (this.shown) this.ask(0, PAGE, node);
    this.draw();
  }

  /** A slice from the host. */
  private put(m: TimelineMessage): void {
    if (m.modelVersion !== this.modelVersion) return;
    const s = m.slice;
    this.total = s.total;
    this.span = s.span;
    this.facts = { hidden: s.hidden, bookkeeping: s.bookkeeping, folded: s.folded, anyCritical: s.anyCritical };
    if (m.density) this.density = m.density;
    // Keep memory bounded on huge runs: drop cached pages once far more than a screenful is held.
    if (this.bars.size > 50 * PAGE) this.bars.clear();
    for (let k = 0; k < s.nodes.length; k++) {
      this.bars.set(s.start + k, {
        node: s.nodes[k], start: s.starts[k], dur: s.durations[k], depth: s.depths[k], status: s.status[k], critical: s.critical[k] === 1, label: s.labels[k],
        open: s.open[k] === 1, kind: s.kinds[k], lane: s.lanes[k], size: s.sizes[k], collapsed: s.collapsed[k] === 1, facts: s.facts[k],
      });
    }
    if (!this.fitted) (this.fitted = true), this.fit();
    if (m.focus !== null) this.focusOn(m.focus);
    else if (this.focusBar >= this.total) this.focusBar = Math.max(0, this.total - 1);
    this.renderSummary();
    this.draw();
  }

  private ask(start: number, count: number, node: number | null): void {
    const request: PendingRequest = this.host.request(start, count, node, this.density.length === 0 ? DENSITY : null, [...this.collapsed], (m) => {
      this.pending.delete(request);
      this.put(m);
    });
    this.pending.add(request);
  }

  /** Requests the page(s) of the rows on screen that are not cached yet. */
  private ensure(): void {
    if (this.pending.size > 0) return;
    if (this.total < 0) return this.ask(0, PAGE, this.selectedNode);
    const last = Math.min(this.total, this.top + this.rows() + 1);
    for (let b = this.top; b < last; b++) {
      if (!this.bars.has(b)) return this.ask(Math.floor(b / PAGE) * PAGE, PAGE * 2, null);
    }
  }

  private rowOfNode(node: number): number | null {
    for (const [b, bar] of this.bars) if (bar.node === node) return b;
    return null;
  }

  private rows(): number {
    return Math.max(1, Math.floor((this.canvas.clientHeight - AXIS) / ROW));
  }

  /** The name column's width as drawn (0: hidden). */
  private names(): number {
    return this.nameColumn.drawn();
  }

  private focusOn(row: number): void {
    this.focusBar = Math.max(0, Math.min(row, Math.max(0, this.total - 1)));
    const rows = this.rows();
    if (this.focusBar < this.top) this.top = this.focusBar;
    else if (this.focusBar >= this.top + rows) this.top = this.focusBar - rows + 1;
    this.keepInView(this.bars.get(this.focusBar));
    this.ensure();
  }

  /** Brings a bar outside the visible span into view, keeping the zoom. */
  private keepInView(b: Bar | undefined): void {
    if (!b) return;
    const width = this.viewEnd - this.viewStart;
    const end = b.start + Math.max(0, b.open ? 0 : b.dur);
    if (b.start >= this.viewStart && b.start <= this.viewEnd) return;
    if (b.start < this.viewStart && end > this.viewStart) return;
    this.panTo(b.start - width * 0.1);
  }

  /** The run's real span: from its first start to its last end. */
  private fit(): void {
    this.viewStart = 0;
    this.viewEnd = this.span > 0 ? this.span : 1;
    this.draw();
  }

  /**
   * Zooms by `factor` (< 1 is in) around the time at `at` (0..1 across the time axis; by default the focused bar's
   * start when it is in view, else the middle), then keeps the focused bar in view.
   */
  private zoom(factor: number, at?: number): void {
    const width = this.viewEnd - this.viewStart;
    const focus = this.bars.get(this.focusBar);
    let pivotAt = at ?? 0.5;
    if (at === undefined && focus && focus.start >= this.viewStart && focus.start <= this.viewEnd) pivotAt = (focus.start - this.viewStart) / width;
    const pivot = this.viewStart + width * pivotAt;
    const next = Math.max(0.01, Math.min(width * factor, Math.max(1, this.span) * 4));
    this.viewStart = pivot - next * pivotAt;
    this.viewEnd = this.viewStart + next;
    this.keepInView(focus);
    this.draw();
  }

  private panTo(start: number): void {
    const width = this.viewEnd - this.viewStart;
    this.viewStart = start;
    this.viewEnd = start + width;
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    const rect = this.canvas.getBoundingClientRect();
    const left = this.names();
    if (e.ctrlKey || e.metaKey) return this.zoom(e.deltaY > 0 ? 1.25 : 0.8, Math.max(0, Math.min(1, (e.clientX - rect.left - left) / Math.max(1, rect.width - left))));
    if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
      this.panTo(this.viewStart + ((e.shiftKey ? e.deltaY : e.deltaX) / Math.max(1, rect.width - left)) * (this.viewEnd - this.viewStart));
      return this.draw();
    }
    this.scrollRows(Math.sign(e.deltaY) * 3);
  }

  private scrollRows(by: number): void {
    this.top = Math.max(0, Math.min(this.top + by, Math.max(0, this.total - this.rows())));
    this.hideTip();
    this.ensure();
    this.draw();
  }

  private onDrag(e: MouseEvent): void {
    if (this.nameColumn.onMove(e)) return;
    if (!this.drag) return;
    const dx = e.clientX - this.drag.x;
    if (Math.abs(dx) > 3) this.drag.moved = true;
    if (!this.drag.moved) return;
    this.panTo(this.drag.start - (dx / Math.max(1, this.canvas.clientWidth - this.names())) * (this.viewEnd - this.viewStart));
    this.draw();
  }

  /** The row at a mouse event's y, or -1. */
  private rowAt(e: MouseEvent): number {
    const y = e.clientY - this.canvas.getBoundingClientRect().top - AXIS;
    if (y < 0) return -1;
    const row = this.top + Math.floor(y / ROW);
    return this.bars.has(row) ? row : -1;
  }

  private onUp(e: MouseEvent): void {
    if (this.nameColumn.onUp()) return;
    const d = this.drag;
    this.drag = null;
    if (!d || d.moved || e.target !== this.canvas) return;
    const row = this.rowAt(e);
    const bar = this.bars.get(row);
    if (row < 0 || !bar) return;
    const x = e.clientX - this.canvas.getBoundingClientRect().left;
    const indent = indentOf(bar.depth, this.names());
    // The triangle in the name column collapses or expands; anywhere else selects.
    if (this.names() > 0 && (bar.size ?? 0) > 0 && x >= indent - 4 && x <= indent + 10) return this.toggle(row);
    this.focusBar = row;
    this.host.reveal(bar.node);
    this.draw();
  }

  /** Collapses or expands a row's subtree (`to`: the state wanted; by default the other one). */
  private toggle(row: number, to?: boolean): void {
    const bar = this.bars.get(row);
    if (!bar || !bar.size) return;
    const collapse = to ?? !this.collapsed.has(bar.node);
    if (collapse === this.collapsed.has(bar.node)) return;
    if (collapse) this.collapsed.add(bar.node);
    else this.collapsed.delete(bar.node);
    this.focusBar = row;
    this.refresh();
    // Ask for the page from the row up, focused on the toggled bar.
    for (const p of this.pending) p.cancel();
    this.pending.clear();
    this.ask(0, PAGE, bar.node);
  }

  private onHover(e: MouseEvent): void {
    if (this.drag?.moved || this.nameColumn.resizing) return this.hideTip();
    const row = this.rowAt(e);
    if (row < 0) return this.hideTip();
    const rect = this.body.getBoundingClientRect();
    this.tipRow = row;
    this.tipAt = { x: e.clientX - rect.left, y: e.clientY - rect.top };
    this.showTip();
  }

  private hideTip(): void {
    this.tipRow = -1;
    this.tip.hide();
  }

  /** The tooltip of `tipRow`, at `tipAt`. */
  private showTip(): void {
    const bar = this.bars.get(this.tipRow);
    if (!bar || !this.tipAt) return this.hideTip();
    this.tip.show(bar, this.tipAt, this.body);
  }

  /** The keyboard focus moved: the focused row's tooltip, at its bar (or its name when the bar is off screen). */
  private tipAtFocus(): void {
    const bar = this.bars.get(this.focusBar);
    if (!bar) return this.hideTip();
    const w = this.canvas.clientWidth;
    const x = Math.max(this.names(), Math.min(w - 40, xOf(this.state(), w, bar.start)));
    this.tipRow = this.focusBar;
    this.tipAt = { x, y: AXIS + (this.focusBar - this.top) * ROW + ROW / 2 };
    this.showTip();
  }

  private onMinimap(e: MouseEvent): void {
    const rect = this.minimap.getBoundingClientRect();
    const t = ((e.clientX - rect.left) / Math.max(1, rect.width)) * Math.max(1, this.span);
    this.panTo(t - (this.viewEnd - this.viewStart) / 2);
    this.draw();
  }

  /**
   * Draws on the next animation frame, once however many events asked for it in between: a mouse sends
   * several moves and wheel events a frame, and drawing for each made panning drop frames. `tip`: the keyboard
   * moved the focus, so the tooltip follows it.
   */
  private tipOnDraw = false;
  private draw(tip = false): void {
    if (tip) this.tipOnDraw = true;
    if (!this.shown || this.frameQueued) return;
    this.frameQueued = true;
    requestAnimationFrame(() => {
      this.frameQueued = false;
      if (!this.shown) return;
      this.nameColumn.place();
      drawTimeline(this.canvas, this.minimap, this.state());
      this.describe();
      if (this.tipOnDraw) (this.tipOnDraw = false), this.tipAtFocus();
      else if (this.tipRow >= 0) this.showTip();
    });
  }

  private state(): TimelineState {
    return { bars: this.bars, top: this.top, rows: this.rows(), total: this.total, span: this.span, density: this.density, viewStart: this.viewStart, viewEnd: this.viewEnd, focusBar: this.focusBar, selectedNode: this.selectedNode, nameWidth: this.names() };
  }

  private renderSummary(): void {
    renderSummary(this.summary, this.facts);
  }

  /** The hidden list of the rows on screen, and the numbers tests and scripts read. */
  private describe(): void {
    const s = this.state();
    const width = this.canvas.clientWidth;
    const last = Math.min(this.total, this.top + s.rows);
    let loaded = 0;
    for (let b = this.top; b < last; b++) if (this.bars.has(b)) loaded++;
    // The list's text changes with the rows, not with a pan or zoom: rebuild it only when they change.
    const key = `${this.modelVersion}:${this.top}:${last}:${loaded}:${this.selectedNode}:${this.total}:${this.bars.get(this.top)?.node}`;
    if (key !== this.listKey) rebuildRowList(this.list, this.bars, s, last);
    this.listKey = key;
    const drawn = markOnScreen(this.list, this.bars, s, width);
    this.element.dataset.viewStart = String(this.viewStart);
    this.element.dataset.viewEnd = String(this.viewEnd);
    this.element.dataset.bars = String(loaded);
    this.element.dataset.drawn = String(drawn);
    this.element.dataset.total = String(this.total);
    this.element.dataset.span = String(this.span);
    this.element.dataset.nameWidth = String(s.nameWidth);
    [this.element.dataset.timeLeft, this.element.dataset.timeRight] = timeArea(s, width).map(String);
    this.element.dataset.hidden = String(this.facts.hidden);
    this.spanText.textContent = this.total < 0 ? '' : `${this.total.toLocaleString('en-US')} rows · showing ${fmtMs(this.viewEnd - this.viewStart)} of ${fmtMs(this.span)}`;
  }
}
