// The Agent Usage view's webview entry (dist/usage.js): tokens and cost over time as a chart.js chart, with the same
// numbers in a table beside it. Every figure comes from the host (core/sessions/usageOverTime.ts); this page only draws.
import {
  BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip,
} from 'chart.js';
import type { UsageBucket } from '../../src/core/sessions/usageBuckets';
import type { UsageHostMessage, UsageQuery, UsageViewMessage } from '../../src/protocol/usage';
import { el } from '../dom';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Tooltip, Legend);

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(s: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** What the token bars measure. */
const MEASURES = {
  io: { label: 'Input + output', of: (b: UsageBucket) => (b.inputTokens === null && b.outputTokens === null ? null : (b.inputTokens ?? 0) + (b.outputTokens ?? 0)) },
  input: { label: 'Input', of: (b: UsageBucket) => b.inputTokens },
  output: { label: 'Output', of: (b: UsageBucket) => b.outputTokens },
  cacheRead: { label: 'Cache read', of: (b: UsageBucket) => b.cacheReadTokens },
  cacheWrite: { label: 'Cache write', of: (b: UsageBucket) => b.cacheWriteTokens },
} as const;
type Measure = keyof typeof MEASURES;

/** Series drawn apart in the chart; the rest are summed as one (the table lists every one). */
const MAX_SERIES = 6;
const OTHER = 'other';
/** The period bucket of the sessions that record no time (core/sessions/usageOverTime.ts), and its name here. */
const NO_PERIOD = '(none)';
const NO_DATE = 'no date';
const periodLabel = (key: string): string => (key === NO_PERIOD ? NO_DATE : key);
/** The periods in time order, the sessions with no date after them (not first, as `(none)` sorts). */
const inTimeOrder = (buckets: readonly UsageBucket[]): UsageBucket[] => [...buckets.filter((b) => b.key !== NO_PERIOD), ...buckets.filter((b) => b.key === NO_PERIOD)];

interface Saved {
  query: UsageQuery;
  measure: Measure;
}

/** Never a blank panel: an unexpected script error is shown as text at the top. */
function showCrash(message: string): void {
  document.body.prepend(el('div', { class: 'usage-crash', attrs: { role: 'alert' }, text: `The usage view hit an error: ${message}.` }));
}
window.addEventListener('error', (e) => showCrash(e.message));
window.addEventListener('unhandledrejection', (e) => showCrash(String(e.reason)));

const tokens = (n: number | null): string => (n === null ? '—' : n.toLocaleString('en-US'));
const usd = (n: number | null): string => (n === null ? '—' : `$${n.toFixed(n < 1 ? 4 : 2)}`);
const baseName = (p: string): string => p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);

/** The theme's colours, read from VS Code's variables each time the theme changes. */
function themeColours(): { series: string[]; fg: string; muted: string; grid: string; bg: string; cost: string; hc: boolean; border: string } {
  const css = getComputedStyle(document.body);
  const v = (name: string, fallback: string) => css.getPropertyValue(`--vscode-${name}`).trim() || fallback;
  const fg = v('charts-foreground', v('foreground', '#cccccc'));
  const hc = document.body.classList.contains('vscode-high-contrast') || document.body.classList.contains('vscode-high-contrast-light');
  return {
    series: [v('charts-blue', '#3794ff'), v('charts-orange', '#d18616'), v('charts-green', '#89d185'), v('charts-purple', '#b180d7'), v('charts-red', '#f14c4c'), v('charts-yellow', '#cca700')],
    fg,
    muted: v('descriptionForeground', fg),
    grid: v('charts-lines', v('widget-border', v('panel-border', '#80808059'))),
    bg: v('editor-background', '#1f1f1f'),
    cost: fg,
    hc,
    border: hc ? v('contrastBorder', fg) : v('editor-background', '#1f1f1f'),
  };
}

class UsageView {
  private query: UsageQuery;
  private measure: Measure;
  private data: Extract<UsageHostMessage, { type: 'usageData' }> | null = null;
  private chart: Chart | null = null;
  private readonly status = el('div', { class: 'usage-status', attrs: { role: 'status', 'aria-live': 'polite' } });
  private readonly body = el('div', { class: 'usage-body' });
  private readonly canvas = el('canvas', { attrs: { role: 'img' } });
  private readonly tableWrap = el('section', { class: 'usage-table-wrap', attrs: { 'aria-label': 'Usage table' } });
  private readonly missing = el('section', { class: 'usage-missing', attrs: { 'aria-label': 'Sessions whose cost is not known' } });
  private readonly exportButton: HTMLButtonElement;
  private readonly selects: Record<'by' | 'split' | 'since' | 'measure', HTMLSelectElement>;

  constructor(root: HTMLElement, private readonly post: (m: UsageViewMessage) => void, private readonly api: VsCodeApi) {
    const saved = api.getState() as Saved | null;
    this.query = saved?.query ?? { by: 'day', split: 'model', since: '30d' };
    this.measure = saved?.measure && saved.measure in MEASURES ? saved.measure : 'io';
    const select = (id: string, label: string, options: [string, string][], value: string, onChange: (v: string) => void) => {
      const s = el('select', { attrs: { id } });
      for (const [v, text] of options) s.append(el('option', { attrs: { value: v }, text }));
      s.value = value;
      s.addEventListener('change', () => onChange(s.value));
      return { s, field: el('label', { class: 'usage-field', attrs: { for: id } }, el('span', { text: label }), s) };
    };
    const by = select('usage-by', 'Group by', [['day', 'Day'], ['week', 'Week'], ['month', 'Month']], this.query.by, (v) => this.ask({ ...this.query, by: v as UsageQuery['by'] }));
    const split = select('usage-split', 'Break down by', [['model', 'Model'], ['project', 'Project'], ['agent', 'Agent']], this.query.split, (v) => this.ask({ ...this.query, split: v as UsageQuery['split'] }));
    const since = select('usage-since', 'Range', [['7d', 'Last 7 days'], ['30d', 'Last 30 days'], ['90d', 'Last 90 days'], ['all', 'All time']], this.query.since, (v) => this.ask({ ...this.query, since: v as UsageQuery['since'] }));
    const measure = select('usage-measure', 'Tokens', Object.entries(MEASURES).map(([k, m]) => [k, m.label]), this.measure, (v) => {
      this.measure = v as Measure;
      this.save();
      this.render();
    });
    this.selects = { by: by.s, split: split.s, since: since.s, measure: measure.s };
    this.exportButton = el('button', { class: 'usage-button', text: 'Export CSV…', attrs: { type: 'button' }, onClick: () => this.post({ type: 'usageExportCsv', query: this.query }) });
    const refresh = el('button', { class: 'usage-button secondary', text: 'Refresh', attrs: { type: 'button', title: 'List the sessions again' }, onClick: () => this.post({ type: 'usageRefresh' }) });
    const bar = el('div', { class: 'usage-toolbar', attrs: { role: 'toolbar', 'aria-label': 'Usage options' } }, by.field, split.field, since.field, measure.field, el('span', { class: 'usage-spacer' }), refresh, this.exportButton);
    const chartBox = el('figure', { class: 'usage-chart' }, el('div', { class: 'usage-canvas' }, this.canvas));
    this.body.append(chartBox, el('div', { class: 'usage-side' }, this.tableWrap, this.missing));
    root.append(el('h1', { class: 'usage-title', text: 'Agent usage over time' }), bar, this.status, this.body);
    this.body.hidden = true;
    this.exportButton.disabled = true;
    // VS Code sets the theme's class on the body and its variables on the root: redraw in the new colours.
    const watch = new MutationObserver(() => this.render());
    watch.observe(document.body, { attributes: true, attributeFilter: ['class'] });
    watch.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
  }

  /** The query the view starts with (kept across reloads). */
  get initial(): UsageQuery {
    return this.query;
  }

  private save(): void {
    this.api.setState({ query: this.query, measure: this.measure } satisfies Saved);
  }

  private ask(query: UsageQuery): void {
    this.query = query;
    this.save();
    this.post({ type: 'usageQuery', query });
  }

  receive(m: UsageHostMessage): void {
    switch (m.type) {
      case 'usageListing':
        this.setStatus('Listing agent sessions…', true);
        return;
      case 'usageMessage':
        this.data = null;
        this.body.hidden = true;
        this.exportButton.disabled = true;
        this.setStatus(m.message, false, m.kind);
        return;
      case 'usageData':
        this.data = m;
        this.body.hidden = false;
        this.exportButton.disabled = false;
        this.setStatus(this.summary(m), false);
        this.render();
        return;
    }
  }

  private setStatus(text: string, busy: boolean, kind?: 'empty' | 'error'): void {
    this.status.replaceChildren(el('span', { text }), ...(busy ? [el('progress', { attrs: { 'aria-label': 'Listing agent sessions' } })] : []));
    this.status.className = `usage-status${kind ? ` usage-${kind}` : ''}`;
    this.status.setAttribute('aria-busy', String(busy));
  }

  private summary(m: Extract<UsageHostMessage, { type: 'usageData' }>): string {
    const range = { '7d': 'the last 7 days', '30d': 'the last 30 days', '90d': 'the last 90 days', all: 'all time' }[m.query.since];
    const parts = [`${m.sessions} session${m.sessions === 1 ? '' : 's'} active in ${range}; each model call counts in the ${m.query.by} of its own time (UTC).`];
    if (m.undated > 0) {
      const n = `${m.undated} session${m.undated === 1 ? '' : 's'}`;
      parts.push(m.query.since === 'all' ? `${m.undated} of them record no time: counted under “${NO_DATE}”.` : `${n} that record no time ${m.undated === 1 ? 'is' : 'are'} in no range: All time counts ${m.undated === 1 ? 'it' : 'them'}.`);
    }
    if (m.unreadable > 0) parts.push(`${m.unreadable} file${m.unreadable === 1 ? '' : 's'} could not be read.`);
    if (m.sessions === 0) parts.push('No session in this range: choose a longer one.');
    return parts.join(' ');
  }

  /** The chart's series: the biggest by tokens, the rest as one. */
  private series(buckets: readonly UsageBucket[]): { keys: string[]; of: (part: string) => string } {
    const size = new Map<string, number>();
    for (const b of buckets) for (const p of b.parts ?? []) size.set(p.key, (size.get(p.key) ?? 0) + (MEASURES.io.of(p) ?? 0));
    const sorted = [...size.keys()].sort((a, b) => size.get(b)! - size.get(a)! || (a < b ? -1 : 1));
    if (sorted.length <= MAX_SERIES) return { keys: sorted, of: (k) => k };
    const kept = new Set(sorted.slice(0, MAX_SERIES - 1));
    return { keys: [...kept, OTHER], of: (k) => (kept.has(k) ? k : OTHER) };
  }

  private render(): void {
    const d = this.data;
    if (!d) return;
    const buckets = inTimeOrder(d.usage.buckets);
    const colours = themeColours();
    const measure = MEASURES[this.measure];
    const { keys, of } = this.series(buckets);
    const label = (k: string) => (k === OTHER ? `${keys.length - 1 === MAX_SERIES - 1 ? 'Others' : 'Other'}` : this.seriesLabel(k));
    const datasets = keys.map((key, i) => ({
      type: 'bar' as const,
      label: label(key),
      data: buckets.map((b) => {
        let sum: number | null = null;
        for (const p of b.parts ?? []) if (of(p.key) === key) { const v = measure.of(p); if (v !== null) sum = (sum ?? 0) + v; }
        return sum;
      }),
      backgroundColor: key === OTHER ? colours.muted : colours.series[i % colours.series.length],
      borderColor: colours.border,
      borderWidth: colours.hc ? 1 : 0,
      stack: 'tokens',
      yAxisID: 'y',
      order: 2,
    }));
    const cost = {
      type: 'line' as const,
      label: 'Cost (USD)',
      data: buckets.map((b) => b.costUsd),
      borderColor: colours.cost,
      backgroundColor: colours.cost,
      borderWidth: 2,
      borderDash: [6, 3],
      pointRadius: 3,
      pointStyle: 'rectRot' as const,
      yAxisID: 'cost',
      order: 1,
      spanGaps: false,
    };
    this.canvas.setAttribute('aria-label', `${measure.label} tokens per ${d.query.by}, stacked by ${d.query.split}, with the cost as a line; the table beside it holds the same numbers.`);
    const scaleColours = { ticks: { color: colours.fg }, grid: { color: colours.grid }, border: { color: colours.grid } };
    if (this.chart) this.chart.destroy();
    this.chart = new Chart(this.canvas, {
      type: 'bar',
      data: { labels: buckets.map((b) => periodLabel(b.key)), datasets: [...datasets, cost] as never },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        color: colours.fg,
        font: { family: getComputedStyle(document.body).fontFamily },
        interaction: { mode: 'index', intersect: false },
        plugins: {
          legend: { labels: { color: colours.fg, boxWidth: 12 } },
          tooltip: { backgroundColor: colours.bg, titleColor: colours.fg, bodyColor: colours.fg, borderColor: colours.grid, borderWidth: 1 },
        },
        scales: {
          x: { stacked: true, ...scaleColours },
          y: { stacked: true, beginAtZero: true, title: { display: true, text: `${measure.label} tokens`, color: colours.fg }, ...scaleColours },
          cost: { position: 'right', beginAtZero: true, title: { display: true, text: 'Cost (USD)', color: colours.fg }, ticks: { color: colours.fg }, grid: { drawOnChartArea: false, color: colours.grid }, border: { color: colours.grid } },
        },
      },
    });
    this.renderTable(d);
  }

  private seriesLabel(key: string): string {
    return this.data?.query.split === 'project' ? baseName(key) || key : key;
  }

  private renderTable(d: Extract<UsageHostMessage, { type: 'usageData' }>): void {
    const split = d.query.split;
    const head = ['Period', split[0].toUpperCase() + split.slice(1), 'Sessions', 'Input', 'Output', 'Cache read', 'Cache write', 'Cost'];
    const short = (b: Omit<UsageBucket, 'key'>) => b.sessionsWithoutCost.length + b.sessionsPartlyPriced.length;
    const costCell = (b: Omit<UsageBucket, 'key'>) => {
      const n = short(b);
      const td = el('td', { class: 'num', text: usd(b.costUsd) + (n > 0 ? ' +?' : '') });
      if (n > 0) td.title = `${b.sessionsWithoutCost.length} session(s) without cost, ${b.sessionsPartlyPriced.length} partly priced: the cost is short`;
      td.dataset.cost = b.costUsd === null ? '' : String(b.costUsd);
      return td;
    };
    const row = (cls: string, period: HTMLElement, part: string, b: Omit<UsageBucket, 'key'>) => el('tr', { class: cls },
      period, el('td', { text: part, title: part }), el('td', { class: 'num', text: String(b.sessions) }),
      el('td', { class: 'num', text: tokens(b.inputTokens) }), el('td', { class: 'num', text: tokens(b.outputTokens) }),
      el('td', { class: 'num', text: tokens(b.cacheReadTokens) }), el('td', { class: 'num', text: tokens(b.cacheWriteTokens) }), costCell(b));
    const body = el('tbody');
    let undated: UsageBucket | null = null;
    for (const b of inTimeOrder(d.usage.buckets)) {
      const parts = b.parts ?? [];
      const period = periodLabel(b.key);
      if (b.key === NO_PERIOD) undated = b;
      parts.forEach((p, i) => {
        const tr = row('usage-part', el('th', { attrs: { scope: 'row' }, text: i === 0 ? period : '', class: i === 0 ? '' : 'repeat' }), this.seriesLabel(p.key), p);
        tr.dataset.period = period;
        if (split === 'project') tr.cells[1].title = p.key;
        body.append(tr);
      });
      if (parts.length !== 1) {
        const sub = row('usage-subtotal', el('th', { attrs: { scope: 'row' }, text: parts.length === 0 ? period : '' }), `all (${period})`, b);
        sub.dataset.period = period;
        body.append(sub);
      }
    }
    const foot = el('tfoot', {}, row('usage-total', el('th', { attrs: { scope: 'row' }, text: 'Total' }), '', d.usage.total));
    const table = el('table', { class: 'usage-table' },
      el('caption', { text: `Tokens and cost per ${d.query.by} and ${split} (UTC; — is not known, never 0)` }),
      el('thead', {}, el('tr', {}, ...head.map((h, i) => el('th', { attrs: { scope: 'col' }, class: i >= 2 ? 'num' : '', text: h })))),
      body, foot);
    // What "no date" holds: sessions whose trace records no time (so no day, week or month), still in the total.
    const noDate = undated === null ? null : el('p', {
      class: 'usage-note usage-no-date',
      text: `${NO_DATE}: ${undated.sessions} session${undated.sessions === 1 ? ' records' : 's record'} no time (their traces carry no timestamps), so they belong to no ${d.query.by}; they are counted in the total.`,
    });
    this.tableWrap.replaceChildren(table, ...(noDate ? [noDate] : []));
    // The sessions whose cost is missing, counted and listed as such (never as 0).
    const without = d.usage.total.sessionsWithoutCost;
    const partly = d.usage.total.sessionsPartlyPriced;
    const list = (title: string, files: readonly string[], cls: string) => files.length === 0 ? null : el('details', { class: cls },
      el('summary', { text: `${title}: ${files.length}` }),
      el('ul', {}, ...files.map((f) => el('li', { text: baseName(f), title: f }))));
    const none = without.length + partly.length === 0;
    this.missing.replaceChildren(
      ...(none ? [el('p', { class: 'usage-note', text: 'Every session with tokens has a cost.' })] : [
        el('p', { class: 'usage-note', text: 'A cost that is not known is not counted as 0: the totals above are short by these sessions.' }),
      ]),
      ...[list('Sessions without a cost (unpriced models)', without, 'usage-without-cost'), list('Sessions only partly priced', partly, 'usage-partly-priced')].filter((x): x is HTMLDetailsElement => x !== null),
    );
  }
}

const api = acquireVsCodeApi();
const root = document.getElementById('app');
if (root) {
  root.classList.add('usage-app');
  const post = (m: UsageViewMessage): void => api.postMessage(m);
  const view = new UsageView(root, post, api);
  window.addEventListener('message', (e: MessageEvent) => {
    const m = e.data as UsageHostMessage;
    if (m && typeof m === 'object' && typeof m.type === 'string' && m.type.startsWith('usage')) view.receive(m);
  });
  post({ type: 'usageReady', query: view.initial });
}
