/**
 * The Timeline tab (issue 16 item 1): a waterfall of the events that have a time, one row per bar in tree
 * order, drawn on a canvas against a shared time axis. The host sends compact slices of the bars (never the
 * whole run); this view caches them, draws only the rows on screen, and mirrors those rows in a visually hidden
 * list (textContent only) for screen readers. Ctrl+wheel, +/− and Fit zoom; drag, Shift+wheel and ←/→ pan;
 * the wheel and ↑/↓ move through the rows; Enter (or a click) selects the event in the tree and detail pane.
 */
import type { TimelineMessage } from '../src/protocol';
import { clear, el, setText } from './dom';
import type { PendingRequest } from './requests';
import { Bar, drawTimeline, fmtMs, TimelineState, xOf } from './timelineDraw';

const ROW = 20;
const AXIS = 18;
const PAGE = 500;
const DENSITY = 400;

/** What the view asks of the app. */
export interface TimelineHost {
  /** Asks the host for bars [start, start + count) (or the page of `node`'s bar); the slice comes to `onReply`. */
  request(start: number, count: number, node: number | null, density: number | null, onReply: (m: TimelineMessage) => void): PendingRequest;
  /** Selects and reveals the event (tree, detail pane). */
  reveal(node: number): void;
}

/** See the file comment. */
export class TimelineView {
  readonly element = el('div', { class: 'timeline-view' });
  private readonly canvas = el('canvas', { class: 'timeline-canvas', attrs: { tabindex: '0', role: 'application', 'aria-label': 'Timeline: arrows move between bars, Enter selects, + and − zoom' } }) as HTMLCanvasElement;
  private readonly minimap = el('canvas', { class: 'timeline-minimap', attrs: { 'aria-hidden': 'true' } }) as HTMLCanvasElement;
  private readonly spanText = el('span', { class: 'timeline-span' });
  private readonly list = el('ul', { class: 'timeline-a11y', attrs: { 'aria-label': 'Visible timeline bars' } });
  private readonly bars = new Map<number, Bar>();
  private readonly pending = new Set<PendingRequest>();
  private modelVersion = -1;
  private total = -1;
  private span = 0;
  private density: number[] = [];
  private viewStart = 0;
  private viewEnd = 1;
  private top = 0;
  private focusBar = 0;
  private selectedNode: number | null = null;
  private shown = false;
  private drag: { x: number; start: number; moved: boolean } | null = null;
  private frameQueued = false;
  private listKey = '';

  constructor(private readonly host: TimelineHost) {
    const button = (text: string, title: string, act: () => void): HTMLElement => el('button', { class: 'timeline-button', text, title, attrs: { 'aria-label': title }, onClick: act });
    const tools = el('div', { class: 'timeline-tools' }, button('−', 'Zoom out', () => this.zoom(2)), button('+', 'Zoom in', () => this.zoom(0.5)), button('Fit', 'Fit the whole run', () => this.fit()), this.spanText);
    this.element.append(tools, this.minimap, this.canvas, this.list);
    this.canvas.addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
    this.canvas.addEventListener('mousedown', (e) => (this.drag = { x: e.clientX, start: this.viewStart, moved: false }));
    window.addEventListener('mousemove', (e) => this.onDrag(e));
    window.addEventListener('mouseup', (e) => this.onUp(e));
    this.canvas.addEventListener('keydown', (e) => this.onKey(e));
    this.minimap.addEventListener('click', (e) => this.onMinimap(e));
    new ResizeObserver(() => this.draw()).observe(this.canvas);
  }

  /** A new model: the cached bars belong to the old one. */
  reset(modelVersion: number): void {
    this.modelVersion = modelVersion;
    this.bars.clear();
    for (const p of this.pending) p.cancel();
    this.pending.clear();
    this.total = -1;
    this.top = 0;
    this.focusBar = 0;
    if (this.shown) this.ensure();
  }

  onShow(): void {
    this.shown = true;
    // A selection made while hidden: fetch the page around it so its bar is on screen.
    if (this.total >= 0 && this.selectedNode !== null && this.barOfNode(this.selectedNode) === null && this.pending.size === 0) this.ask(0, PAGE, this.selectedNode);
    this.ensure();
    this.draw();
  }

  onHide(): void {
    this.shown = false;
  }

  /** The selection changed elsewhere: highlight its bar, fetching the page around it if need be. */
  onSelect(node: number): void {
    this.selectedNode = node;
    const bar = this.barOfNode(node);
    if (bar !== null) this.focusOn(bar);
    else if (this.shown) this.ask(0, PAGE, node);
    this.draw();
  }

  /** A slice from the host. */
  private put(m: TimelineMessage): void {
    if (m.modelVersion !== this.modelVersion) return;
    const s = m.slice;
    const fresh = this.total < 0;
    this.total = s.total;
    this.span = s.span;
    if (m.density) this.density = m.density;
    // Keep memory bounded on huge runs: drop cached pages once far more than a screenful is held.
    if (this.bars.size > 50 * PAGE) this.bars.clear();
    for (let k = 0; k < s.nodes.length; k++) {
      this.bars.set(s.start + k, { node: s.nodes[k], start: s.starts[k], dur: s.durations[k], depth: s.depths[k], status: s.status[k], critical: s.critical[k] === 1, label: s.labels[k] });
    }
    if (fresh) this.fit();
    if (m.focus !== null) this.focusOn(m.focus);
    this.draw();
  }

  private ask(start: number, count: number, node: number | null): void {
    const request: PendingRequest = this.host.request(start, count, node, this.total < 0 ? DENSITY : null, (m) => {
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

  private barOfNode(node: number): number | null {
    for (const [b, bar] of this.bars) if (bar.node === node) return b;
    return null;
  }

  private rows(): number {
    return Math.max(1, Math.floor((this.canvas.clientHeight - AXIS) / ROW));
  }

  private focusOn(bar: number): void {
    this.focusBar = Math.max(0, Math.min(bar, Math.max(0, this.total - 1)));
    const rows = this.rows();
    if (this.focusBar < this.top) this.top = this.focusBar;
    else if (this.focusBar >= this.top + rows) this.top = this.focusBar - rows + 1;
    const b = this.bars.get(this.focusBar);
    // Bring a bar outside the visible span into view, keeping the zoom.
    if (b && (b.start > this.viewEnd || b.start + Math.max(0, b.dur) < this.viewStart)) this.panTo(b.start - (this.viewEnd - this.viewStart) * 0.1);
    this.ensure();
  }

  private fit(): void {
    const pad = this.span > 0 ? this.span * 0.02 : 1;
    this.viewStart = -pad;
    this.viewEnd = (this.span > 0 ? this.span : 1) + pad;
    this.draw();
  }

  /** Zooms by `factor` (< 1 is in) around the time at `at` (0..1 across the canvas). */
  private zoom(factor: number, at = 0.5): void {
    const width = this.viewEnd - this.viewStart;
    const pivot = this.viewStart + width * at;
    const next = Math.max(0.01, Math.min(width * factor, Math.max(1, this.span) * 4));
    this.viewStart = pivot - next * at;
    this.viewEnd = this.viewStart + next;
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
    if (e.ctrlKey || e.metaKey) return this.zoom(e.deltaY > 0 ? 1.25 : 0.8, (e.clientX - rect.left) / Math.max(1, rect.width));
    if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
      this.panTo(this.viewStart + ((e.shiftKey ? e.deltaY : e.deltaX) / Math.max(1, rect.width)) * (this.viewEnd - this.viewStart));
      return this.draw();
    }
    this.scrollRows(Math.sign(e.deltaY) * 3);
  }

  private scrollRows(by: number): void {
    this.top = Math.max(0, Math.min(this.top + by, Math.max(0, this.total - this.rows())));
    this.ensure();
    this.draw();
  }

  private onDrag(e: MouseEvent): void {
    if (!this.drag) return;
    const dx = e.clientX - this.drag.x;
    if (Math.abs(dx) > 3) this.drag.moved = true;
    if (!this.drag.moved) return;
    this.panTo(this.drag.start - (dx / Math.max(1, this.canvas.clientWidth)) * (this.viewEnd - this.viewStart));
    this.draw();
  }

  private onUp(e: MouseEvent): void {
    const d = this.drag;
    this.drag = null;
    if (!d || d.moved || e.target !== this.canvas) return;
    const y = e.clientY - this.canvas.getBoundingClientRect().top - AXIS;
    const bar = this.bars.get(this.top + Math.floor(y / ROW));
    if (y < 0 || !bar) return;
    this.focusBar = this.top + Math.floor(y / ROW);
    this.host.reveal(bar.node);
    this.draw();
  }

  private onKey(e: KeyboardEvent): void {
    const rows = this.rows();
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: rows, PageUp: -rows, Home: -Infinity, End: Infinity };
    const width = this.viewEnd - this.viewStart;
    if (e.key in moves) this.focusOn(Math.max(0, Math.min(this.total - 1, this.focusBar + moves[e.key])));
    else if (e.key === 'Enter') {
      const bar = this.bars.get(this.focusBar);
      if (bar) this.host.reveal(bar.node);
    } else if (e.key === '+' || e.key === '=') return e.preventDefault(), this.zoom(0.5);
    else if (e.key === '-' || e.key === '_') return e.preventDefault(), this.zoom(2);
    else if (e.key === '0' || e.key === 'f') return e.preventDefault(), this.fit();
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') this.panTo(this.viewStart + (e.key === 'ArrowLeft' ? -0.2 : 0.2) * width);
    else return;
    e.preventDefault();
    this.draw();
  }

  private onMinimap(e: MouseEvent): void {
    const rect = this.minimap.getBoundingClientRect();
    const t = ((e.clientX - rect.left) / Math.max(1, rect.width)) * Math.max(1, this.span);
    this.panTo(t - (this.viewEnd - this.viewStart) / 2);
    this.draw();
  }

  /**
   * Draws on the next animation frame, once however many events asked for it in between: a mouse sends
   * several moves and wheel events a frame, and drawing for each made panning drop frames.
   */
  private draw(): void {
    if (!this.shown || this.frameQueued) return;
    this.frameQueued = true;
    requestAnimationFrame(() => {
      this.frameQueued = false;
      if (!this.shown) return;
      drawTimeline(this.canvas, this.minimap, this.state());
      this.describe();
    });
  }

  private state(): TimelineState {
    return { bars: this.bars, top: this.top, rows: this.rows(), total: this.total, span: this.span, density: this.density, viewStart: this.viewStart, viewEnd: this.viewEnd, focusBar: this.focusBar, selectedNode: this.selectedNode };
  }

  /** The hidden list of the rows on screen, and the numbers tests and scripts read. */
  private describe(): void {
    const s = this.state();
    const width = this.canvas.clientWidth;
    const last = Math.min(this.total, this.top + s.rows);
    let loaded = 0;
    for (let b = this.top; b < last; b++) if (this.bars.has(b)) loaded++;
    // The list's text changes with the rows, not with a pan or zoom: rebuild it only when they change.
    const key = `${this.modelVersion}:${this.top}:${last}:${loaded}:${this.selectedNode}`;
    if (key !== this.listKey) this.rebuildList(s, last);
    this.listKey = key;
    for (const li of this.list.children as HTMLCollectionOf<HTMLElement>) {
      const bar = this.bars.get(Number(li.dataset.bar));
      if (bar) li.dataset.x = String(Math.round(xOf(s, width, bar.start)));
    }
    this.element.dataset.viewStart = String(this.viewStart);
    this.element.dataset.viewEnd = String(this.viewEnd);
    this.element.dataset.bars = String(loaded);
    this.element.dataset.total = String(this.total);
    this.spanText.textContent = this.total < 0 ? '' : `${this.total.toLocaleString('en-US')} bars · showing ${fmtMs(this.viewEnd - this.viewStart)} of ${fmtMs(this.span)}`;
  }

  private rebuildList(s: TimelineState, last: number): void {
    clear(this.list);
    for (let b = this.top; b < last; b++) {
      const bar = this.bars.get(b);
      if (!bar) continue;
      const where = bar.dur < 0 ? `at ${fmtMs(bar.start)}` : `from ${fmtMs(bar.start)} for ${fmtMs(bar.dur)}`;
      const flags = [`level ${bar.depth + 1}`, bar.status === 2 ? 'error' : bar.status === 1 ? 'warning' : '', bar.critical ? 'critical path' : '', bar.node === s.selectedNode ? 'selected' : ''].filter(Boolean).join(', ');
      const li = el('li', { attrs: { 'data-node': String(bar.node), 'data-bar': String(b) } });
      // Trace text only ever as text nodes, bidi and control characters as visible markers.
      setText(li, `${bar.label}, ${where}${flags ? `, ${flags}` : ''}`);
      this.list.appendChild(li);
    }
  }
}
