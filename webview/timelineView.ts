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
import { clear, el, setText } from './dom';
import type { PendingRequest } from './requests';
import { Bar, drawTimeline, fmtMs, indentOf, timeArea, TimelineState, xOf } from './timelineDraw';

const ROW = 20;
const AXIS = 18;
const PAGE = 500;
const DENSITY = 400;
const MIN_NAMES = 80;

/** What the view asks of the app. */
export interface TimelineHost {
  /** Asks the host for rows [start, start + count) (or the page of `node`'s row); the slice comes to `onReply`. */
  request(start: number, count: number, node: number | null, density: number | null, collapsed: number[], onReply: (m: TimelineMessage) => void): PendingRequest;
  /** Selects and reveals the event (tree, detail pane). */
  reveal(node: number): void;
}

/** What the slice says of the run besides its rows: the summary line. */
interface RunFacts { hidden: number; bookkeeping: { kind: string; count: number }[]; folded: number; anyCritical: boolean }

/** See the file comment. */
export class TimelineView {
  readonly element = el('div', { class: 'timeline-view' });
  private readonly canvas = el('canvas', { class: 'timeline-canvas', attrs: { tabindex: '0', role: 'application', 'aria-label': 'Timeline: ↑ and ↓ move between bars, Enter selects, ← and → collapse and expand, + and − zoom, 0 fits the run' } }) as HTMLCanvasElement;
  private readonly minimap = el('canvas', { class: 'timeline-minimap', attrs: { 'aria-hidden': 'true' } }) as HTMLCanvasElement;
  private readonly splitter = el('div', { class: 'timeline-splitter', attrs: { role: 'separator', tabindex: '0', 'aria-orientation': 'vertical', 'aria-label': 'Name column width: ← and → resize' } });
  private readonly tooltip = el('div', { class: 'timeline-tooltip', attrs: { role: 'tooltip', id: 'timeline-tooltip' } });
  private readonly body = el('div', { class: 'timeline-body' });
  private readonly spanText = el('span', { class: 'timeline-span' });
  private readonly summary = el('div', { class: 'timeline-summary' });
  private readonly namesButton: HTMLElement;
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
  private resize: { x: number; width: number } | null = null;
  private nameWidth = 280;
  private namesShown = true;
  /** The row under the mouse (its tooltip shows), or the focused row after a key; -1: none. */
  private tipRow = -1;
  private tipAt: { x: number; y: number } | null = null;
  private frameQueued = false;
  private listKey = '';

  constructor(private readonly host: TimelineHost) {
    const button = (text: string, title: string, act: () => void): HTMLElement => el('button', { class: 'timeline-button', text, title, attrs: { 'aria-label': title }, onClick: act });
    this.namesButton = el('button', { class: 'timeline-button', text: 'Names', title: 'Show or hide the name column', attrs: { 'aria-pressed': 'true' }, onClick: () => this.toggleNames() });
    const tools = el('div', { class: 'timeline-tools' }, button('−', 'Zoom out', () => this.zoom(2)), button('+', 'Zoom in', () => this.zoom(0.5)), button('Fit', 'Fit the whole run', () => this.fit()), this.namesButton, this.spanText);
    this.body.append(this.canvas, this.splitter, this.tooltip);
    this.element.append(tools, this.summary, this.minimap, this.body, this.list);
    this.canvas.setAttribute('aria-describedby', 'timeline-tooltip');
    this.canvas.addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
    this.canvas.addEventListener('mousedown', (e) => (this.drag = { x: e.clientX, start: this.viewStart, moved: false }));
    this.canvas.addEventListener('mousemove', (e) => this.onHover(e));
    this.canvas.addEventListener('mouseleave', () => this.hideTip());
    this.canvas.addEventListener('blur', () => this.hideTip());
    window.addEventListener('mousemove', (e) => this.onDrag(e));
    window.addEventListener('mouseup', (e) => this.onUp(e));
    this.canvas.addEventListener('keydown', (e) => this.onKey(e));
    this.splitter.addEventListener('mousedown', (e) => {
      e.preventDefault();
      this.resize = { x: e.clientX, width: this.nameWidth };
    });
    this.splitter.addEventListener('dblclick', () => this.toggleNames());
    this.splitter.addEventListener('keydown', (e) => {
      if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
      e.preventDefault();
      this.setNameWidth(this.nameWidth + (e.key === 'ArrowLeft' ? -20 : 20));
    });
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
    if (!this.namesShown) return 0;
    return Math.max(MIN_NAMES, Math.min(this.nameWidth, Math.floor(this.canvas.clientWidth * 0.7)));
  }

  private setNameWidth(width: number): void {
    this.nameWidth = Math.max(MIN_NAMES, Math.min(width, Math.max(MIN_NAMES, Math.floor(this.canvas.clientWidth * 0.7))));
    this.draw();
  }

  private toggleNames(): void {
    this.namesShown = !this.namesShown;
    this.namesButton.setAttribute('aria-pressed', String(this.namesShown));
    this.draw();
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
    if (this.resize) return this.setNameWidth(this.resize.width + e.clientX - this.resize.x);
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
    if (this.resize) return void (this.resize = null);
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
    if (this.drag?.moved || this.resize) return this.hideTip();
    const row = this.rowAt(e);
    if (row < 0) return this.hideTip();
    const rect = this.body.getBoundingClientRect();
    this.tipRow = row;
    this.tipAt = { x: e.clientX - rect.left, y: e.clientY - rect.top };
    this.showTip();
  }

  private hideTip(): void {
    this.tipRow = -1;
    this.tooltip.classList.remove('shown');
  }

  /** The tooltip of `tipRow`: what the row is, when it ran, its facts and flags. */
  private showTip(): void {
    const bar = this.bars.get(this.tipRow);
    if (!bar || !this.tipAt) return this.hideTip();
    clear(this.tooltip);
    const line = (cls: string, text: string): HTMLElement => {
      const d = el('div', { class: cls });
      setText(d, text);
      return d;
    };
    this.tooltip.append(line('timeline-tip-title', bar.label));
    this.tooltip.append(line('timeline-tip-when', describeTime(bar)));
    if (bar.facts) this.tooltip.append(line('timeline-tip-facts', bar.facts));
    const flags = flagsOf(bar);
    if (flags) this.tooltip.append(line('timeline-tip-flags', flags));
    this.tooltip.classList.add('shown');
    const bw = this.body.clientWidth, bh = this.body.clientHeight;
    const tw = this.tooltip.offsetWidth, th = this.tooltip.offsetHeight;
    const x = Math.max(4, Math.min(this.tipAt.x + 14, bw - tw - 4));
    const below = this.tipAt.y + 18;
    const y = below + th > bh ? Math.max(4, this.tipAt.y - th - 8) : below;
    this.tooltip.style.left = `${x}px`;
    this.tooltip.style.top = `${y}px`;
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

  private onKey(e: KeyboardEvent): void {
    const rows = this.rows();
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: rows, PageUp: -rows, Home: -Infinity, End: Infinity };
    const width = this.viewEnd - this.viewStart;
    const bar = this.bars.get(this.focusBar);
    if (e.key in moves) this.focusOn(Math.max(0, Math.min(this.total - 1, this.focusBar + moves[e.key])));
    else if (e.key === 'Enter') {
      if (bar) this.host.reveal(bar.node);
    } else if (e.key === '+' || e.key === '=') return e.preventDefault(), this.zoom(0.5);
    else if (e.key === '-' || e.key === '_') return e.preventDefault(), this.zoom(2);
    else if (e.key === '0' || e.key === 'f') return e.preventDefault(), this.fit();
    else if ((e.key === 'ArrowLeft' || e.key === 'ArrowRight') && e.shiftKey) this.panTo(this.viewStart + (e.key === 'ArrowLeft' ? -0.2 : 0.2) * width);
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      e.preventDefault();
      const collapse = e.key === 'ArrowLeft';
      if (bar && (bar.size ?? 0) > 0 && collapse !== bar.collapsed) return this.toggle(this.focusBar, collapse);
      // ← on a leaf or a collapsed row goes to its parent row.
      if (collapse && bar) for (let r = this.focusBar - 1; r >= 0; r--) {
        const p = this.bars.get(r);
        if (p && p.depth < bar.depth) {
          this.focusOn(r);
          break;
        }
      }
    } else if (e.key === 'Escape') return this.hideTip();
    else return;
    e.preventDefault();
    this.draw(true);
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
      const left = this.names();
      this.splitter.style.left = `${Math.max(0, left - 3)}px`;
      this.splitter.hidden = left === 0;
      this.splitter.setAttribute('aria-valuenow', String(left));
      drawTimeline(this.canvas, this.minimap, this.state());
      this.describe();
      if (this.tipOnDraw) (this.tipOnDraw = false), this.tipAtFocus();
      else if (this.tipRow >= 0) this.showTip();
    });
  }

  private state(): TimelineState {
    return { bars: this.bars, top: this.top, rows: this.rows(), total: this.total, span: this.span, density: this.density, viewStart: this.viewStart, viewEnd: this.viewEnd, focusBar: this.focusBar, selectedNode: this.selectedNode, nameWidth: this.names() };
  }

  /** The line under the tools: what is not drawn as rows, and what the colours mean. */
  private renderSummary(): void {
    clear(this.summary);
    const parts: string[] = [];
    const books = this.facts.bookkeeping.reduce((n, k) => n + k.count, 0);
    if (books > 0) {
      const top = this.facts.bookkeeping.slice(0, 4).map((k) => `${k.count.toLocaleString('en-US')} ${k.kind}`).join(', ');
      parts.push(`${books.toLocaleString('en-US')} bookkeeping line${books === 1 ? '' : 's'} not drawn (${top}${this.facts.bookkeeping.length > 4 ? ', …' : ''})`);
    }
    if (this.facts.folded > 0) parts.push(`${this.facts.folded.toLocaleString('en-US')} result${this.facts.folded === 1 ? '' : 's'} drawn on their calls`);
    const text = el('span', { class: 'timeline-summary-text' });
    setText(text, parts.join(' · '));
    const hidden = el('span', { class: 'timeline-hidden' });
    if (this.facts.hidden > 0) setText(hidden, `${this.facts.hidden.toLocaleString('en-US')} hidden by filter`);
    const key = (cls: string, label: string): HTMLElement => el('span', { class: 'timeline-key' }, el('span', { class: `timeline-swatch ${cls}` }), label);
    const legend = el('span', { class: 'timeline-legend', attrs: { 'aria-label': 'Legend' } }, key('model', 'model call'), key('tool', 'tool call'), key('other', 'other'), key('error', 'error'));
    if (this.facts.anyCritical) legend.append(key('critical', 'critical path'));
    this.summary.append(legend, hidden, text);
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
    if (key !== this.listKey) this.rebuildList(s, last);
    this.listKey = key;
    let drawn = 0;
    for (const li of this.list.children as HTMLCollectionOf<HTMLElement>) {
      const bar = this.bars.get(Number(li.dataset.bar));
      if (!bar) continue;
      const x = xOf(s, width, bar.start);
      const end = bar.dur < 0 ? x : xOf(s, width, bar.start + bar.dur);
      li.dataset.x = String(Math.round(x));
      // On screen: some of it right of the name column and left of the edge.
      const on = end >= s.nameWidth! - 1 && x <= width + 1;
      li.dataset.onScreen = String(on);
      if (on) drawn++;
    }
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

  private rebuildList(s: TimelineState, last: number): void {
    clear(this.list);
    for (let b = this.top; b < last; b++) {
      const bar = this.bars.get(b);
      if (!bar) continue;
      const li = el('li', { attrs: { 'data-node': String(bar.node), 'data-bar': String(b), 'data-depth': String(bar.depth) } });
      const flags = [`level ${bar.depth + 1}`, flagsOf(bar), bar.node === s.selectedNode ? 'selected' : ''].filter(Boolean).join(', ');
      // Trace text only ever as text nodes, bidi and control characters as visible markers.
      setText(li, `${bar.label}, ${describeTime(bar)}${bar.facts ? `, ${bar.facts}` : ''}${flags ? `, ${flags}` : ''}`);
      this.list.appendChild(li);
    }
  }
}

/** When a bar ran, in words. */
function describeTime(bar: Bar): string {
  if (bar.open) return `from ${fmtMs(bar.start)}, no result in the trace`;
  return bar.dur < 0 ? `at ${fmtMs(bar.start)}` : `from ${fmtMs(bar.start)} for ${fmtMs(bar.dur)}`;
}

/** A bar's flags, in words. */
function flagsOf(bar: Bar): string {
  return [
    bar.status === 2 ? 'error' : bar.status === 1 ? 'warning' : '', bar.critical ? 'critical path' : '', bar.lane ? `subagent lane ${bar.lane}` : '',
    bar.collapsed ? `collapsed (${bar.size} below)` : '',
  ].filter(Boolean).join(', ');
}
