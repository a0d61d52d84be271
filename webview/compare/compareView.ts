/**
 * The compare view: two trees side by side, aligned row for row (a row is one op of the diff), with a change
 * marker per row, an overview gutter of where the changes are, F7 / Shift+F7 to the next / previous change,
 * and a detail pane. Rows are virtual: only those in view exist in the DOM.
 */
import type { CompareHostMessage, CompareRow, CompareSide, CompareViewMessage } from '../../src/protocolCompare';
import type { DiffSummary } from '../../src/core/diff/diffTypes';
import { clear, el, icon } from '../dom';
import { formatDuration } from '../format';
import { CATEGORY_ICONS } from '../rowView';
import { renderCompareDetail } from './compareDetailPane';
import { hunkStarts, nextHunk } from './compareNav';

const ROW_PX = 22;
const MARGIN_ROWS = 20;
const INDENT_PX = 14;
const MARKS: Record<CompareRow['op'], string> = { equal: '', insert: '+', delete: '−', change: '~' };
const MAX_GUTTER_MARKS = 2000;

function signed(n: number | null, fmt: (x: number) => string = String): string {
  if (n === null) return '?';
  return n === 0 ? '0' : `${n > 0 ? '+' : '-'}${fmt(Math.abs(n))}`;
}

function summaryText(s: DiffSummary): string {
  return `${s.equal} equal · ${s.inserted} inserted · ${s.deleted} deleted · ${s.changed} changed · duration ${signed(s.durationDeltaMs, formatDuration)} · tokens ${signed(s.tokensDelta)} · cost ${s.costDeltaUsd === null ? '?' : signed(s.costDeltaUsd, (x) => `$${x.toFixed(4)}`)}`;
}

/** The compare view over one root element; `post` sends to the host. */
export class CompareView {
  private rows: CompareRow[] = [];
  private hunks: number[] = [];
  private selected = -1;
  private readonly header = el('div', { class: 'compare-header' });
  private readonly columns = el('div', { class: 'compare-columns' });
  private readonly scroll = el('div', { class: 'compare-scroll', attrs: { tabindex: '0', role: 'grid', 'aria-label': 'Aligned events of A and B' } });
  private readonly spacer = el('div', { class: 'compare-spacer' });
  private readonly gutter = el('div', { class: 'compare-gutter', attrs: { 'aria-hidden': 'true' } });
  private readonly detail = el('div', { class: 'compare-detail', attrs: { role: 'region', 'aria-label': 'Differences of the selected row' } });
  private volatile = false;

  constructor(private readonly root: HTMLElement, private readonly post: (m: CompareViewMessage) => void) {
    this.scroll.append(this.spacer);
    const list = el('div', { class: 'compare-list' }, this.columns, el('div', { class: 'compare-body' }, this.scroll, this.gutter));
    root.append(this.header, el('div', { class: 'compare-main' }, list, this.detail));
    this.header.append(el('span', { class: 'compare-note', text: 'Comparing…' }));
    this.scroll.addEventListener('scroll', () => this.draw());
    this.scroll.addEventListener('keydown', (e) => this.onKey(e));
    window.addEventListener('keydown', (e) => {
      if (e.key === 'F7') this.onKey(e);
    });
    new ResizeObserver(() => this.draw()).observe(this.scroll);
  }

  /** Handles one message from the host. */
  receive(m: CompareHostMessage): void {
    switch (m.type) {
      case 'compareInit':
        this.rows = m.rows;
        this.hunks = hunkStarts(m.rows);
        this.volatile = m.includeVolatile;
        this.renderHeader(m);
        this.spacer.style.height = `${this.rows.length * ROW_PX}px`;
        this.renderGutter();
        this.selected = -1;
        this.draw(true);
        this.select(m.firstDivergence >= 0 ? m.firstDivergence : 0);
        return;
      case 'compareDetail':
        if (m.detail.row === this.selected) renderCompareDetail(this.detail, m.detail);
        return;
      case 'compareError':
        clear(this.header);
        this.header.append(el('div', { class: 'banner banner-unreadable', attrs: { role: 'alert' }, text: `Could not compare: ${m.message}` }));
        return;
      default:
        return assertNever(m);
    }
  }

  private renderHeader(m: Extract<CompareHostMessage, { type: 'compareInit' }>): void {
    clear(this.header);
    const toggle = el('input', { attrs: { type: 'checkbox', id: 'compare-volatile' } });
    toggle.checked = this.volatile;
    toggle.addEventListener('change', () => this.post({ type: 'compareToggleVolatile', include: toggle.checked }));
    const first = m.firstDivergence < 0 ? 'equivalent: no differences' : `${this.hunks.length} change${this.hunks.length === 1 ? '' : 's'}`;
    this.header.append(
      el('div', { class: 'compare-files' },
        el('span', { class: 'file-name', text: `A: ${m.a.name}`, title: `${m.a.path} (${m.a.format}, ${m.a.events} events)` }),
        el('span', { class: 'compare-arrow', text: '↔' }),
        el('span', { class: 'file-name', text: `B: ${m.b.name}`, title: `${m.b.path} (${m.b.format}, ${m.b.events} events)` })),
      el('div', { class: 'compare-summary', text: `${first} · ${summaryText(m.summary)}` }),
      el('div', { class: 'compare-tools' },
        el('button', { class: 'icon-button', title: 'Previous change (Shift+F7)', attrs: { type: 'button', 'aria-label': 'Previous change' }, onClick: () => this.jump(true) }, icon('arrow-up')),
        el('button', { class: 'icon-button', title: 'Next change (F7)', attrs: { type: 'button', 'aria-label': 'Next change' }, onClick: () => this.jump(false) }, icon('arrow-down')),
        el('label', { class: 'compare-toggle' }, toggle, ' Compare ids, times and hashes')),
    );
    clear(this.columns);
    this.columns.append(el('span', { class: 'compare-mark-col' }), el('span', { class: 'compare-side-col', text: `A · ${m.a.format}` }), el('span', { class: 'compare-side-col', text: `B · ${m.b.format}` }));
  }

  /** Marks in the overview gutter: where the changes are in the whole list. */
  private renderGutter(): void {
    clear(this.gutter);
    const n = Math.max(1, this.rows.length);
    const step = Math.max(1, Math.ceil(this.hunks.length / MAX_GUTTER_MARKS));
    for (let k = 0; k < this.hunks.length; k += step) {
      const i = this.hunks[k];
      const mark = el('div', { class: `gutter-mark op-${this.rows[i].op}` });
      // Styles through the CSSOM: the page's CSP refuses style attributes.
      mark.style.top = `${(100 * i) / n}%`;
      this.gutter.append(mark);
    }
  }

  private sideCell(s: CompareSide | null, depth: number): HTMLElement {
    if (!s) return el('span', { class: 'compare-cell compare-empty' });
    const indent = el('span', { class: 'indent' });
    indent.style.width = `${depth * INDENT_PX}px`;
    return el('span', { class: `compare-cell status-${s.status}`, title: `${s.label}\n${s.kind} · line ${s.line}` },
      indent,
      icon(CATEGORY_ICONS[s.category] ?? 'circle-small', 'kind-icon'),
      el('span', { class: 'label', text: s.label }),
      el('span', { class: 'compare-line', text: String(s.line) }));
  }

  /** The rows drawn: [from, to) of `rows`; redrawn only when the window moves, so a click keeps its row. */
  private drawn: [number, number] = [0, 0];

  private draw(force = false): void {
    const top = this.scroll.scrollTop;
    const from = Math.max(0, Math.floor(top / ROW_PX) - MARGIN_ROWS);
    const to = Math.min(this.rows.length, Math.ceil((top + this.scroll.clientHeight) / ROW_PX) + MARGIN_ROWS);
    if (!force && from === this.drawn[0] && to === this.drawn[1]) return this.markSelected();
    this.drawn = [from, to];
    clear(this.spacer);
    for (let i = from; i < to; i++) this.spacer.append(this.rowElement(i));
  }

  private rowElement(i: number): HTMLElement {
    const r = this.rows[i];
    const row = el('div', {
      class: `compare-row op-${r.op}${i === this.selected ? ' selected' : ''}`,
      attrs: { role: 'row', 'data-row': String(i), 'aria-selected': String(i === this.selected) },
      onClick: () => this.select(i),
    }, el('span', { class: 'compare-mark', text: MARKS[r.op] }), this.sideCell(r.a, r.depth), this.sideCell(r.b, r.depth));
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
    if (i < 0 || i >= this.rows.length) return;
    this.selected = i;
    const top = i * ROW_PX;
    if (top < this.scroll.scrollTop || top + ROW_PX > this.scroll.scrollTop + this.scroll.clientHeight) {
      this.scroll.scrollTop = Math.max(0, top - this.scroll.clientHeight / 3);
    }
    this.draw();
    this.post({ type: 'compareSelect', row: i });
  }

  private jump(backwards: boolean): void {
    const to = nextHunk(this.hunks, this.selected, backwards);
    if (to >= 0) this.select(to);
  }

  private onKey(e: KeyboardEvent): void {
    if (e.key === 'F7') this.jump(e.shiftKey);
    else if (e.key === 'ArrowDown') this.select(this.selected + 1);
    else if (e.key === 'ArrowUp') this.select(this.selected - 1);
    else if (e.key === 'Home') this.select(0);
    else if (e.key === 'End') this.select(this.rows.length - 1);
    else return;
    e.preventDefault();
    e.stopPropagation();
  }
}

function assertNever(x: never): never {
  throw new Error(`unexpected message ${JSON.stringify(x)}`);
}
