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
const usd = (v: number | null): string => (v === null ? 'unpriced' : `$${v < 0.01 ? v.toFixed(4) : v.toFixed(2)}`);

/** See the file comment. */
export class StatisticsView {
  readonly element = el('div', { class: 'statistics-view', attrs: { tabindex: '-1' } });
  private modelVersion = -1;
  private asked = -1;
  private shown = false;

  constructor(private readonly host: StatisticsHost) {}

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
    clear(this.element);
    this.element.append(
      el('p', { class: 'statistics-note', text: `${num(s.errors)} error${s.errors === 1 ? '' : 's'} · ${num(s.warnings)} warning${s.warnings === 1 ? '' : 's'}` }),
      this.table('Models', ['Model', 'Calls', 'Input', 'Output', 'Cost'], s.byModel.map((r) => ({ node: r.first, cells: [r.model, num(r.calls), num(r.inputTokens), num(r.outputTokens), usd(r.costUsd)] }))),
      this.table('Tools', ['Tool', 'Calls', 'Errors', 'Total time'], s.byTool.map((r) => ({ node: r.first, cells: [r.tool, num(r.calls), num(r.errors), ms(r.durationMs)] }))),
      this.table('Slowest tool calls', ['Tool', 'Duration', 'Line'], s.slowestToolCalls.map((r) => ({ node: r.index, cells: [r.name, ms(r.durationMs), r.line] }))),
      this.table('Most expensive model calls', ['Model', 'Tokens', 'Cost', 'Line'], s.mostExpensiveCalls.map((r) => ({ node: r.index, cells: [r.name, num(r.tokens), usd(r.costUsd), r.line] }))),
      this.table('Latency by tool', ['Tool', 'Calls', 'p50', 'p95', 'Max'], s.latencyByTool.map((r) => ({ node: -1, cells: [r.name, r.count, ms(r.p50Ms), ms(r.p95Ms), ms(r.maxMs)] }))),
      this.table('Latency by model', ['Model', 'Calls', 'p50', 'p95', 'Max'], s.latencyByModel.map((r) => ({ node: -1, cells: [r.name, r.count, ms(r.p50Ms), ms(r.p95Ms), ms(r.maxMs)] }))),
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
