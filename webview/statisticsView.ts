/**
 * The Statistics tab (issue 16 item 4): totals by model and tool, slowest tool calls, most expensive model
 * calls, latency p50/p95 per tool and model, error counts and the duration histogram, asked of the host once
 * per model when the tab is first shown. Per model (issue 37): new input, cache read, cache write (5-minute and
 * 1-hour apart when the trace records them), output, reasoning, the cost and where it came from, the rates used
 * with the price's source and date, a hint naming the pricing setting on every unpriced model. Every row with an event jumps to it (tree and detail pane). All trace
 * text (tool and model names) goes in as text nodes.
 */
import type { StatisticsMessage } from '../src/protocol';
import { clear, el, icon } from './dom';
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
const percent = (v: number): string => `${v > 0 && v < 0.001 ? '<0.1' : Math.round(v * 1000) / 10}%`;
const rate = (v: number | null): string => (v === null ? '—' : `$${Number(v.toPrecision(6))}`);
const capital = (t: string): string => t.charAt(0).toUpperCase() + t.slice(1);
const UNKNOWN = '(unknown model)';
const COST_FROM: Record<string, string> = { trace: 'recorded by the trace', table: 'computed from prices', mixed: 'recorded and computed', none: '—' };

/** Input neither read from nor written to the cache (the report's input includes both). */
function newInput(r: Stats['byModel'][number]): number | null {
  if (r.inputTokens === null) return null;
  return Math.max(0, r.inputTokens - (r.cacheReadTokens ?? 0) - (r.cacheWriteTokens ?? 0));
}

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
      ...(s.session ? [this.sessionFiles(s.session)] : []),
      this.models(s),
      this.rates(s),
      this.table('Tools', ['Tool', 'Calls', 'Errors', 'Retries', 'Total time'], s.byTool.map((r) => ({ node: r.first, cells: [r.tool, num(r.calls), num(r.errors), num(r.retries), ms(r.durationMs)] }))),
      this.table('Slowest tool calls', ['Tool', 'Duration', 'Line'], s.slowestToolCalls.map((r) => ({ node: r.index, cells: [r.name, ms(r.durationMs), r.line] }))),
      this.table('Most expensive model calls', ['Model', 'Tokens', 'Cost', 'Line'], s.mostExpensiveCalls.map((r) => ({ node: r.index, cells: [r.name, num(r.tokens), usd(r.costUsd), r.line] }))),
      this.table('Latency by tool', ['Tool', 'Calls', 'p50', 'p95', 'Max'], s.latencyByTool.map((r) => ({ node: toolFirst.get(r.name) ?? -1, cells: [r.name, r.count, ms(r.p50Ms), ms(r.p95Ms), ms(r.maxMs)] }))),
      this.table('Latency by model', ['Model', 'Calls', 'p50', 'p95', 'Max'], s.latencyByModel.map((r) => ({ node: modelFirst.get(r.name) ?? -1, cells: [r.name, r.count, ms(r.p50Ms), ms(r.p95Ms), ms(r.maxMs)] }))),
      this.histogram(s.histogram),
      this.context(s.context),
    );
  }

  /**
   * Tokens and cost per model (issue 37): new input, cache read, cache write (5-minute and 1-hour apart when the trace
   * records the 1-hour part), output, reasoning, the cost and whether the trace recorded it or it was computed; a hint
   * on every model left unpriced, and the unpriced share of the run's tokens.
   */
  private models(s: Stats): HTMLElement {
    const oneHour = s.byModel.some((r) => r.cacheWrite1hTokens !== null);
    const head = ['Model', 'Calls', 'Input', 'Cache read', ...(oneHour ? ['Cache write 5 min', 'Cache write 1 h'] : ['Cache write']), 'Output', 'Reasoning', 'Cost', 'Cost from', 'Retries'];
    const section = this.table('Models', head, s.byModel.map((r) => {
      const write1h = r.cacheWrite1hTokens;
      const writes = oneHour ? [num(r.cacheWriteTokens === null ? null : r.cacheWriteTokens - (write1h ?? 0)), num(write1h)] : [num(r.cacheWriteTokens)];
      return { node: r.first, cells: [r.model, num(r.calls), num(newInput(r)), num(r.cacheReadTokens), ...writes, num(r.outputTokens), num(r.reasoningTokens), usd(r.costUsd), COST_FROM[r.costSource ?? 'none'], num(r.retries)] };
    }));
    section.querySelector('th:nth-child(3)')?.setAttribute('title', 'Input tokens neither read from nor written to the prompt cache');
    section.append(el('p', { class: 'statistics-note', text: 'Input is the new input: the model read input + cache read + cache write. Reasoning is a part of output, except where the trace counts it apart (Gemini).' }));
    const unpriced = s.byModel.filter((r) => r.unpricedReason !== null);
    for (const r of unpriced) {
      const share = r.unpricedShare !== null && r.unpricedShare < 1 ? ` (${percent(r.unpricedShare)} of its tokens)` : '';
      const hint = r.price === null && r.model !== UNKNOWN
        ? [el('span', { text: `No price for ${r.model}${share}: add it in ` }), el('code', { text: s.pricingSetting }), el('span', { text: `. ${capital(r.unpricedReason!)}.` })]
        : [el('span', { text: `${r.model}${share} is unpriced: ${r.unpricedReason}.` })];
      section.append(el('p', { class: 'statistics-unpriced', attrs: { role: 'note', 'data-model': r.model } }, icon('warning'), ...hint));
    }
    if (s.priced !== null && s.priced < 1) section.append(el('p', { class: 'statistics-note statistics-unpriced-share', text: `${percent(1 - s.priced)} of the run's tokens are unpriced: the cost shown leaves them out.` }));
    return section;
  }

  /** A session counted with its other files (subagents): what each file adds, and where the cost comes from. */
  private sessionFiles(session: NonNullable<Stats['session']>): HTMLElement {
    const section = this.table('Session files', ['File', 'Name', 'Calls', 'Input', 'Output', 'Cost'], session.files.map((f) => ({
      node: -1,
      cells: [
        f.role === 'session' ? 'this file' : `${f.role}${f.title ? `: ${f.title}` : ''}`, f.name, num(f.records), num(f.inputTokens), num(f.outputTokens),
        f.error ? `not read: ${f.error}` : `${usd(f.costUsd)}${f.costCoversSession ? ' (the session\'s)' : ''}`,
      ],
    })));
    section.append(el('p', { class: 'statistics-note', text: `The models and tools below are the session's: these files, each response counted once. Cost: ${session.cost}.` }));
    for (const note of session.notes) section.append(el('p', { class: 'statistics-note', attrs: { role: 'note' }, text: note }));
    return section;
  }

  /** The rates each model's cost used, per million tokens, with the price's source and date. */
  private rates(s: Stats): HTMLElement {
    const src = s.priceSource;
    const section = this.table('Rates used', ['Model', 'Price from', 'Input', 'Cache read', 'Cache write 5 min', 'Cache write 1 h', 'Output', 'Reasoning'], s.byModel.map((r) => {
      const p = r.price;
      if (!p) return { node: -1, cells: [r.model, r.costSource === 'trace' ? 'the trace records its cost' : 'no price', '—', '—', '—', '—', '—', '—'] };
      const from = p.from === 'user' ? `${s.pricingSetting} “${p.entry}”` : `${src.name} ${p.entry}`;
      const note = [p.rates.tiered ? 'tiered by prompt size: at its last call' : '', p.rates.periods > 1 ? 'changed over time: at its last call' : ''].filter((x) => x).join('; ');
      const x = p.rates;
      return { node: -1, cells: [r.model, note ? `${from} (${note})` : from, rate(x.input), rate(x.cacheRead), rate(x.cacheWrite), rate(x.cacheWrite1h), rate(x.output), rate(x.reasoning)] };
    }));
    section.querySelector('h3')!.textContent = 'Rates used (US$ per million tokens)';
    section.append(el('p', { class: 'statistics-note statistics-price-source', text: `Bundled prices: ${src.name} ${src.version}, published ${src.date}. Prices in ${s.pricingSetting} come first; a cost the trace records wins over both. A cache rate the price leaves out is billed as input, a reasoning rate as output; a dash is a rate it does not know, and calls that need it stay unpriced.` }));
    return section;
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

  /**
   * What the model saw over a run: each thread's context per call as a sparkline (compactions as ticks), with the
   * same facts as text beside it and as the image's text alternative. A row jumps to the thread's largest call.
   */
  private context(series: Stats['context']): HTMLElement {
    const section = el('section', { class: 'statistics-section', attrs: { 'data-section': 'Context' } }, el('h3', { text: 'Context per model call' }));
    if (series.length === 0) {
      section.appendChild(el('p', { class: 'statistics-note', text: 'No model call in this trace records its input.' }));
      return section;
    }
    const rows = series.map((c) => {
      const name = c.via >= 0 ? 'subagent' : 'main';
      const facts = `${plural(c.calls, 'call')}: first ${num(c.first)}, last ${num(c.last)}, largest ${num(c.peak.total)} tokens at line ${num(c.peak.line)}${c.compactions.length ? `; ${plural(c.compactions.length, 'compaction')}` : ''}`;
      const tr = el('tr', { class: 'statistics-row jump', attrs: { 'data-node': String(c.peak.index) } },
        el('td', { text: name }), el('td', {}, sparkline(c, `Context of the ${name} thread per call, ${facts}`)), el('td', { text: facts }));
      tr.tabIndex = 0;
      tr.title = 'Go to the largest call';
      tr.addEventListener('click', () => this.host.reveal(c.peak.index));
      tr.addEventListener('keydown', (e) => e.key === 'Enter' && this.host.reveal(c.peak.index));
      return tr;
    });
    section.appendChild(el('table', { class: 'statistics-table' }, el('thead', {}, el('tr', {}, el('th', { text: 'Thread' }), el('th', { text: 'Context over its calls' }), el('th', { text: 'Calls and tokens' }))), el('tbody', {}, ...rows)));
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

const SVG = 'http://www.w3.org/2000/svg';

/** A sparkline of one thread's context per call (an image whose text alternative is `alt`); compactions as ticks. */
function sparkline(c: Stats['context'][number], alt: string): SVGSVGElement {
  const w = 160, h = 24;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', 'context-spark');
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  svg.setAttribute('width', String(w));
  svg.setAttribute('height', String(h));
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', alt);
  const title = document.createElementNS(SVG, 'title');
  title.textContent = alt;
  svg.appendChild(title);
  // From the smallest context to the largest (the text says both): a flat line sits in the middle.
  const max = Math.max(...c.points);
  const min = Math.min(...c.points);
  const x = (k: number): number => (c.points.length === 1 ? w / 2 : (k / (c.points.length - 1)) * (w - 2) + 1);
  const y = (v: number): number => (max === min ? h / 2 : h - 2 - ((v - min) / (max - min)) * (h - 4));
  for (const k of c.compactions) {
    const tick = document.createElementNS(SVG, 'line');
    tick.setAttribute('class', 'context-spark-compaction');
    tick.setAttribute('x1', String(x(k)));
    tick.setAttribute('x2', String(x(k)));
    tick.setAttribute('y1', '0');
    tick.setAttribute('y2', String(h));
    svg.appendChild(tick);
  }
  const line = document.createElementNS(SVG, c.points.length === 1 ? 'circle' : 'polyline');
  if (c.points.length === 1) {
    line.setAttribute('cx', String(x(0)));
    line.setAttribute('cy', String(y(c.points[0])));
    line.setAttribute('r', '2');
  } else line.setAttribute('points', c.points.map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(' '));
  line.setAttribute('class', 'context-spark-line');
  svg.appendChild(line);
  return svg;
}
