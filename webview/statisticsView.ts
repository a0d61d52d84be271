/**
 * The Statistics tab (issue 16 item 4): totals by model and tool, slowest tool calls, most expensive model
 * calls, latency p50/p95 per tool and model, error counts and the duration histogram, asked of the host once
 * per model when the tab is first shown. Every row with an event jumps to it (tree and detail pane). All trace
 * text (tool and model names) goes in as text nodes.
 */
import type { StatisticsMessage } from '../src/protocol';
import { clear, el } from './dom';
import { fmtMs } from './timelineDraw';

type Stats = StatisticsMessage['stats'];
type Cell = string | number | null;

/** What the view asks of the app. */
export interface StatisticsHost {
  request(): void;
  reveal(node: number): void;
}

const num = (v: number | null): string => (v === null ? '—' : v.toLocaleString('en-US'));
const ms = (v: number | null): string => (v === null ? '—' : fmtMs(v));
const plural = (n: number, one: string, many = `${one}s`): string => `${num(n)} ${n === 1 ? one : many}`;
const usd = (v: number | null): string => (v === null ? 'unpriced' : `$${v < 0.01 ? v.toFixed(4) : v.toFixed(2)}`);

/** See the file comment. */
export class StatisticsView {
  readonly element = el('div', { class: 'statistics-view', attrs: { tabindex: '-1' } });
  private modelVersion = -1;
  private asked = -1;
  private shown = false;

  constructor(private readonly host: StatisticsHost) {
    this.element.addEventListener('keydown', (e) => this.onKey(e));
  }

  /** ↑/↓ move between the rows that jump (across tables), Home/End to the first and last; Tab reaches each too. */
  private onKey(e: KeyboardEvent): void {
    if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(e.key)) return;
    const rows = [...this.element.querySelectorAll<HTMLElement>('.statistics-row.jump')];
    if (rows.length === 0) return;
    const at = rows.indexOf(document.activeElement as HTMLElement);
    const to = e.key === 'Home' ? 0 : e.key === 'End' ? rows.length - 1 : at < 0 ? 0 : Math.max(0, Math.min(rows.length - 1, at + (e.key === 'ArrowDown' ? 1 : -1)));
    e.preventDefault();
    rows[to].focus();
    rows[to].scrollIntoView({ block: 'nearest' });
  }

  /** A new model: the statistics shown are stale. */
  reset(modelVersion: number): void {
    this.modelVersion = modelVersion;
    if (this.shown) this.ask();
  }

  onShow(): void {
    this.shown = true;
    this.ask();
  }

  onHide(): void {
    this.shown = false;
  }

  private ask(): void {
    if (this.asked === this.modelVersion) return;
    this.asked = this.modelVersion;
    clear(this.element);
    this.element.appendChild(el('p', { class: 'statistics-note', text: 'Computing statistics…' }));
    this.host.request();
  }

  /** The host's answer. */
  put(m: StatisticsMessage): void {
    if (m.modelVersion !== this.modelVersion) return;
    const s = m.stats;
    const toolFirst = new Map(s.byTool.map((r) => [r.tool, r.first]));
    const modelFirst = new Map(s.byModel.map((r) => [r.model, r.first]));
    clear(this.element);
    this.element.append(
      el('p', { class: 'statistics-note', text: `${plural(s.errors, 'error')} · ${plural(s.warnings, 'warning')} · ${plural(s.retries.total, 'retry', 'retries')} (${s.retries.source === 'recorded' ? 'recorded by the trace' : 'inferred: a call after a failed call of the same tool or model'})` }),
      this.table('Models', ['Model', 'Calls', 'Input', 'Output', 'Cost', 'Retries'], s.byModel.map((r) => ({ node: r.first, cells: [r.model, num(r.calls), num(r.inputTokens), num(r.outputTokens), usd(r.costUsd), num(r.retries)] }))),
      this.table('Tools', ['Tool', 'Calls', 'Errors', 'Retries', 'Total time'], s.byTool.map((r) => ({ node: r.first, cells: [r.tool, num(r.calls), num(r.errors), num(r.retries), ms(r.durationMs)] }))),
      this.table('Slowest tool calls', ['Tool', 'Duration', 'Line'], s.slowestToolCalls.map((r) => ({ node: r.index, cells: [r.name, ms(r.durationMs), r.line] }))),
      this.table('Most expensive model calls', ['Model', 'Tokens', 'Cost', 'Line'], s.mostExpensiveCalls.map((r) => ({ node: r.index, cells: [r.name, num(r.tokens), usd(r.costUsd), r.line] }))),
      this.table('Latency by tool', ['Tool', 'Calls', 'p50', 'p95', 'Max'], s.latencyByTool.map((r) => ({ node: toolFirst.get(r.name) ?? -1, cells: [r.name, r.count, ms(r.p50Ms), ms(r.p95Ms), ms(r.maxMs)] }))),
      this.table('Latency by model', ['Model', 'Calls', 'p50', 'p95', 'Max'], s.latencyByModel.map((r) => ({ node: modelFirst.get(r.name) ?? -1, cells: [r.name, r.count, ms(r.p50Ms), ms(r.p95Ms), ms(r.maxMs)] }))),
      this.histogram(s.histogram),
    );
  }

  private table(title: string, head: string[], rows: { node: number; cells: Cell[] }[]): HTMLElement {
    const section = el('section', { class: 'statistics-section', attrs: { 'data-section': title } }, el('h3', { text: title }));
    if (rows.length === 0) {
      section.appendChild(el('p', { class: 'statistics-note', text: 'None in this trace.' }));
      return section;
    }
    const thead = el('tr', {}, ...head.map((h) => el('th', { text: h })));
    const body = rows.map((r) => {
      const tr = el('tr', { class: r.node >= 0 ? 'statistics-row jump' : 'statistics-row' }, ...r.cells.map((c) => el('td', { text: String(c ?? '—') })));
      if (r.node >= 0) {
        tr.dataset.node = String(r.node);
        tr.tabIndex = 0;
        tr.title = 'Go to the event';
        tr.addEventListener('click', () => this.host.reveal(r.node));
        tr.addEventListener('keydown', (e) => e.key === 'Enter' && this.host.reveal(r.node));
      }
      return tr;
    });
    section.appendChild(el('table', { class: 'statistics-table' }, el('thead', {}, thead), el('tbody', {}, ...body)));
    return section;
  }

  private histogram(bins: Stats['histogram']): HTMLElement {
    const section = el('section', { class: 'statistics-section', attrs: { 'data-section': 'Durations' } }, el('h3', { text: 'Durations of tool and model calls' }));
    const max = Math.max(1, ...bins.map((b) => b.count));
    for (const b of bins) {
      const bar = el('span', { class: 'statistics-bar' });
      bar.style.width = `${(b.count / max) * 100}%`;
      section.appendChild(el('div', { class: 'statistics-bin', attrs: { 'data-count': String(b.count) } }, el('span', { class: 'statistics-bin-label', text: `${ms(b.fromMs)} – ${ms(b.toMs)}` }), el('span', { class: 'statistics-bin-track' }, bar), el('span', { text: String(b.count) })));
    }
    if (bins.length === 0) section.appendChild(el('p', { class: 'statistics-note', text: 'No durations in this trace.' }));
    return section;
  }
}
