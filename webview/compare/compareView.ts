/**
 * The compare view: two trees side by side, aligned row for row (a row is one op of the diff), with a change
 * marker per row, an overview gutter of where the changes are, F7 / Shift+F7 to the next / previous change,
 * a timeline of both runs on one axis, and a detail pane. Rows come from the host in pages as they scroll into
 * view (two 100,000-event runs are never one message) and only those in view exist in the DOM.
 */
import type { CompareHostMessage, CompareHunk, CompareInit, CompareRow, CompareSide, CompareViewMessage } from '../../src/protocol/compare';
import { clear, el, icon } from '../dom';
import { CATEGORY_ICONS } from '../rowView';
import { RowCache } from '../rowCache';
import { renderCompareDetail } from './compareDetailPane';
import { CompareMode, renderCompareHeader } from './compareHeader';
import { nextHunk } from './compareNav';
import { CompareTimeline } from './compareTimeline';

const ROW_PX = 22;
const MARGIN_ROWS = 20;
const INDENT_PX = 14;
const LANE_INDENT_PX = 6;
const MAX_LANE_DEPTH = 8;
const MARKS: Record<CompareRow['op'], string> = { equal: '', insert: '+', delete: '−', change: '~' };
const MAX_GUTTER_MARKS = 2000;
/** Share of a timeline row the event's label takes; the lane with both runs' bars has the rest. */
const LABEL_SHARE = 0.35;

/** The compare view over one root element; `post` sends to the host. */
export class CompareView {
  private readonly cache = new RowCache<CompareRow>();
  private hunks: CompareHunk[] = [];
  private starts: number[] = [];
  private rowCount = 0;
  private selected = -1;
  private mode: CompareMode = 'trees';
  private init: CompareInit | null = null;
  private zoomGroup: HTMLElement | null = null;
  private readonly header = el('div', { class: 'compare-header' });
  private readonly columns = el('div', { class: 'compare-columns' });
  private readonly scroll = el('div', { class: 'compare-scroll', attrs: { tabindex: '0', role: 'grid', 'aria-label': 'Aligned events of A and B' } });
  private readonly spacer = el('div', { class: 'compare-spacer' });
  private readonly gutter = el('div', { class: 'compare-gutter', attrs: { 'aria-hidden': 'true' } });
  // Focusable, so the keyboard can scroll a long field diff or event JSON.
  private readonly detail = el('div', { class: 'compare-detail', attrs: { role: 'region', 'aria-label': 'Differences of the selected row', tabindex: '0' } });
  private readonly axis = el('canvas', { class: 'compare-axis', attrs: { 'aria-hidden': 'true' } });
  private readonly lanes = el('canvas', { class: 'compare-lanes', attrs: { 'aria-hidden': 'true' } });
  private readonly timeline = new CompareTimeline(this.axis, this.lanes);
  private readonly labelCol = el('span', { class: 'compare-label-col', text: 'Event · A above, B below' });

  constructor(private readonly root: HTMLElement, private readonly post: (m: CompareViewMessage) => void) {
    this.scroll.append(this.spacer);
    const list = el('div', { class: 'compare-list' }, this.columns, el('div', { class: 'compare-body' }, this.scroll, this.lanes, this.gutter));
    root.append(this.header, el('div', { class: 'compare-main' }, list, this.detail));
    this.header.append(el('span', { class: 'compare-note', text: 'Comparing…' }));
    this.scroll.addEventListener('scroll', () => this.draw());
    this.scroll.addEventListener('keydown', (e) => this.onKey(e));
    window.addEventListener('keydown', (e) => {
      if (e.key === 'F7') this.onKey(e);
    });
    new ResizeObserver(() => this.draw(true)).observe(this.scroll);
  }

  /** Handles one message from the host. */
  receive(m: CompareHostMessage): void {
    switch (m.type) {
      case 'compareInit':
        return this.start(m);
      case 'compareRows':
        // A page of the drawn window redraws it; a page of an earlier diff is dropped by the cache.
        if (this.cache.put(m.generation, m.from, m.rows) && m.from < this.drawn[1] && m.from + m.rows.length > this.drawn[0]) this.draw(true);
        return;
      case 'compareDetail':
        if (m.detail.row !== this.selected) return;
        renderCompareDetail(this.detail, m.detail);
        this.detail.classList.remove('compare-stale');
        this.detail.setAttribute('aria-busy', 'false');
        return;
      case 'compareError':
        clear(this.header);
        this.header.append(el('div', { class: 'banner banner-unreadable', attrs: { role: 'alert' }, text: `Could not compare: ${m.message}` }));
        return;
      default:
        return assertNever(m);
    }
  }

  private start(m: CompareInit): void {
    this.init = m;
    this.rowCount = m.rowCount;
    this.cache.reset(m.generation, m.rowCount);
    this.cache.put(m.generation, m.page.from, m.page.rows);
    this.hunks = m.hunks;
    this.starts = m.hunks.map((h) => h.row);
    this.timeline.reset(m.spanMs.a, m.spanMs.b);
    this.renderHeader();
    this.spacer.style.height = `${this.rowCount * ROW_PX}px`;
    this.renderGutter();
    this.selected = -1;
    this.draw(true);
    this.select(m.firstDivergence >= 0 ? m.firstDivergence : 0);
  }

  private renderHeader(): void {
    if (!this.init) return;
    this.zoomGroup = renderCompareHeader(this.header, this.init, this.mode, {
      jump: (back) => this.jump(back),
      setMode: (mode) => this.setMode(mode),
      zoom: (how) => this.zoom(how),
      toggleVolatile: (include) => this.post({ type: 'compareToggleVolatile', include }),
      showBookkeeping: (show) => this.post({ type: 'compareShowBookkeeping', show }),
      openLine: (side, line) => this.post({ type: 'compareOpen', side, line }),
    });
    clear(this.columns);
    const m = this.init;
    if (this.mode === 'timeline') this.columns.append(el('span', { class: 'compare-mark-col' }), this.labelCol, this.axis);
    else this.columns.append(el('span', { class: 'compare-mark-col' }), el('span', { class: 'compare-side-col', text: `A · ${m.a.format}` }), el('span', { class: 'compare-side-col', text: `B · ${m.b.format}` }));
  }

  private setMode(mode: CompareMode): void {
    if (mode === this.mode) return;
    this.mode = mode;
    this.root.classList.toggle('compare-mode-timeline', mode === 'timeline');
    this.renderHeader();
    this.draw(true);
    this.header.querySelector<HTMLElement>(`.compare-mode[data-mode="${mode}"]`)?.focus();
  }

  private zoom(how: 'in' | 'out' | 'all'): void {
    const r = this.cache.get(this.selected);
    const s = r?.b ?? r?.a;
    const [from, to] = this.timeline.view;
    const centre = s?.startMs ?? (from + to) / 2;
    if (how === 'in') this.timeline.zoomIn(centre);
    else if (how === 'out') this.timeline.zoomOut(centre);
    else this.timeline.zoom(0, 0);
    this.draw(true);
  }

  /** Marks in the overview gutter: where the changes are in the whole list. */
  private renderGutter(): void {
    clear(this.gutter);
    const n = Math.max(1, this.rowCount);
    const step = Math.max(1, Math.ceil(this.hunks.length / MAX_GUTTER_MARKS));
    for (let k = 0; k < this.hunks.length; k += step) {
      const h = this.hunks[k];
      const mark = el('div', { class: `gutter-mark op-${h.op}` });
      // Styles through the CSSOM: the page's CSP refuses style attributes.
      mark.style.top = `${(100 * h.row) / n}%`;
      this.gutter.append(mark);
    }
  }

  private sideCell(s: CompareSide | null, depth: number, extra = ''): HTMLElement {
    if (!s) return el('span', { class: `compare-cell compare-empty${extra}` });
    const indent = el('span', { class: 'indent' });
    // The timeline's label column is narrow: a shallower, capped indent keeps deep labels readable.
    indent.style.width = this.mode === 'timeline' ? `${Math.min(depth, MAX_LANE_DEPTH) * LANE_INDENT_PX}px` : `${depth * INDENT_PX}px`;
    return el('span', { class: `compare-cell status-${s.status}${extra}`, title: `${s.label}\n${s.kind} · line ${s.line}` },
      indent,
      icon(CATEGORY_ICONS[s.category] ?? 'circle-small', 'kind-icon'),
      el('span', { class: 'label', text: s.label }),
      el('span', { class: 'compare-line', text: String(s.line) }));
  }

  /** The rows drawn: [from, to); redrawn only when the window moves or a page of it arrives, so a click keeps its row. */
  private drawn: [number, number] = [0, 0];

  private draw(force = false): void {
    const top = this.scroll.scrollTop;
    const from = Math.max(0, Math.floor(top / ROW_PX) - MARGIN_ROWS);
    const to = Math.min(this.rowCount, Math.ceil((top + this.scroll.clientHeight) / ROW_PX) + MARGIN_ROWS);
    for (const p of this.cache.request(from, to - 1)) this.post({ type: 'compareRows', generation: this.cache.version, from: p.start, count: p.count });
    if (force || from !== this.drawn[0] || to !== this.drawn[1]) {
      this.drawn = [from, to];
      clear(this.spacer);
      for (let i = from; i < to; i++) this.spacer.append(this.rowElement(i));
    } else this.markSelected();
    if (this.mode === 'timeline') this.drawLanes(top);
  }

  private drawLanes(scrollTop: number): void {
    // Over the lane column of the rows (the scroll area's width, less the mark and label columns).
    const inner = this.scroll.clientWidth;
    const left = 18 + Math.round((inner - 18) * LABEL_SHARE);
    this.lanes.style.left = `${left}px`;
    this.lanes.style.width = `${Math.max(1, inner - left)}px`;
    this.lanes.style.height = `${this.scroll.clientHeight}px`;
    // The axis above lines up with the lanes below.
    this.labelCol.style.flex = `0 0 ${left - 18}px`;
    this.axis.style.flex = `0 0 ${Math.max(1, inner - left)}px`;
    this.timeline.draw({ from: this.drawn[0], to: this.drawn[1], scrollTop, selected: this.selected, row: (i) => this.cache.get(i) });
  }

  private rowElement(i: number): HTMLElement {
    const r = this.cache.get(i);
    const attrs = { role: 'row', 'data-row': String(i), 'aria-selected': String(i === this.selected) };
    if (!r) {
      const pending = el('div', { class: `compare-row compare-pending${i === this.selected ? ' selected' : ''}`, attrs }, el('span', { class: 'compare-mark' }), el('span', { class: 'compare-cell compare-note', text: '…' }));
      pending.style.top = `${i * ROW_PX}px`;
      return pending;
    }
    const cells = this.mode === 'timeline'
      ? [this.sideCell(r.b ?? r.a, r.depth, ' compare-label-cell'), el('span', { class: 'compare-cell compare-lane', title: laneTitle(r) })]
      : [this.sideCell(r.a, r.depth), this.sideCell(r.b, r.depth)];
    const row = el('div', { class: `compare-row op-${r.op}${i === this.selected ? ' selected' : ''}`, attrs, onClick: () => this.select(i) },
      el('span', { class: 'compare-mark', text: MARKS[r.op] }), ...cells);
    row.style.top = `${i * ROW_PX}px`;
    row.addEventListener('dblclick', () => {
      const s = r.b ?? r.a;
      if (s) this.post({ type: 'compareOpen', side: r.b ? 'b' : 'a', line: s.line });
    });
    return row;
  }

  private markSelected(): void {
    for (const row of this.spacer.children) {
      const on = Number(row.getAttribute('data-row')) === this.selected;
      row.classList.toggle('selected', on);
      row.setAttribute('aria-selected', String(on));
    }
  }

  private select(i: number): void {
    if (i < 0 || i >= this.rowCount) return;
    this.selected = i;
    const top = i * ROW_PX;
    if (top < this.scroll.scrollTop || top + ROW_PX > this.scroll.scrollTop + this.scroll.clientHeight) {
      this.scroll.scrollTop = Math.max(0, top - this.scroll.clientHeight / 3);
    }
    this.draw();
    // The pane shows the last row's detail, dimmed, until this row's arrives.
    this.detail.classList.add('compare-stale');
    this.detail.setAttribute('aria-busy', 'true');
    this.post({ type: 'compareSelect', row: i });
  }

  private jump(backwards: boolean): void {
    const to = nextHunk(this.starts, this.selected, backwards);
    if (to >= 0) this.select(to);
  }

  private onKey(e: KeyboardEvent): void {
    const page = Math.max(1, Math.floor(this.scroll.clientHeight / ROW_PX) - 1);
    if (e.key === 'F7') this.jump(e.shiftKey);
    else if (e.key === 'ArrowDown') this.select(this.selected + 1);
    else if (e.key === 'ArrowUp') this.select(this.selected - 1);
    else if (e.key === 'PageDown') this.select(Math.min(this.rowCount - 1, this.selected + page));
    else if (e.key === 'PageUp') this.select(Math.max(0, this.selected - page));
    else if (e.key === 'Home') this.select(0);
    else if (e.key === 'End') this.select(this.rowCount - 1);
    else if (e.key === 'Enter') this.open();
    else if (this.mode === 'timeline' && (e.key === '+' || e.key === '=')) this.zoom('in');
    else if (this.mode === 'timeline' && e.key === '-') this.zoom('out');
    else if (this.mode === 'timeline' && e.key === '0') this.zoom('all');
    else return;
    e.preventDefault();
    e.stopPropagation();
  }

  /** Enter: the selected event in the viewer, as a double click does. */
  private open(): void {
    const r = this.cache.get(this.selected);
    const s = r?.b ?? r?.a;
    if (r && s) this.post({ type: 'compareOpen', side: r.b ? 'b' : 'a', line: s.line });
  }
}

function timeText(s: CompareSide | null): string {
  if (!s) return 'no event';
  if (s.startMs === null) return 'no time';
  return `${s.durationMs === null ? 'instant' : `${Math.round(s.durationMs)} ms`} at +${Math.round(s.startMs)} ms`;
}

/** The lane's tooltip: both bars as text (the canvas is hidden from screen readers). */
function laneTitle(r: CompareRow): string {
  return `A: ${timeText(r.a)}\nB: ${timeText(r.b)}`;
}

function assertNever(x: never): never {
  throw new Error(`unexpected message ${JSON.stringify(x)}`);
}
