/** The filter bar: event kinds and status (all, warnings and errors, errors only), and the filter expression box. */
import type { RowFilter } from '../src/protocol';
import { clear, el, toolbarButton, visibleText } from './dom';
import { FilterBox } from './filterBox';

const STATUS: [RowFilter['status'], string][] = [
  ['all', 'All statuses'],
  ['problems', 'Warnings and errors'],
  ['errors', 'Errors only'],
];

/** See the file comment. */
export class FilterBar {
  readonly element = el('div', { class: 'filter-bar', attrs: { role: 'group', 'aria-label': 'Filter events' } });
  private readonly status = document.createElement('vscode-single-select') as HTMLElement & { value: string };
  private readonly kinds = document.createElement('vscode-multi-select') as HTMLElement & { value: string[] };
  private filter: RowFilter = { kinds: [], status: 'all' };
  private kindList: string[] = [];
  private values: Record<string, string[]> = {};
  readonly box = new FilterBox(() => this.emit());

  constructor(private readonly onChange: (f: RowFilter) => void) {
    this.element.hidden = true;
    this.status.setAttribute('aria-label', 'Status');
    this.status.classList.add('status-select');
    for (const [value, label] of STATUS) this.status.appendChild(option(value, label));
    this.kinds.setAttribute('aria-label', 'Event kinds');
    this.kinds.setAttribute('placeholder', 'All kinds');
    this.kinds.classList.add('kinds-select');
    this.status.addEventListener('change', () => this.emit());
    this.kinds.addEventListener('change', () => this.emit());
    this.element.append(
      el('span', { class: 'codicon codicon-filter', attrs: { 'aria-hidden': 'true' } }),
      el('label', { class: 'filter-label', text: 'Show' }),
      this.status,
      el('label', { class: 'filter-label', text: 'of kinds' }),
      this.kinds,
      this.box.element,
      toolbarButton('clear-all', 'Clear Filter', () => this.set({ kinds: [], status: 'all' }, true)),
    );
  }

  get active(): boolean {
    return this.filter.kinds.length > 0 || this.filter.status !== 'all' || (this.filter.expr ?? '') !== '';
  }
  get value(): RowFilter {
    return this.filter;
  }

  setKinds(kinds: string[]): void {
    if (kinds.join('\u0000') === this.kindList.join('\u0000')) return;
    this.kindList = kinds;
    this.box.setValues({ ...this.values, kind: kinds });
    clear(this.kinds);
    for (const k of kinds) this.kinds.appendChild(option(k, k));
    this.kinds.value = this.filter.kinds.filter((k) => kinds.includes(k));
  }

  /** The trace's tools, models, categories and groups, offered by the expression box. */
  setValues(values: Record<string, string[]>): void {
    this.values = values;
    this.box.setValues({ ...values, kind: this.kindList });
  }

  /** Shows a filter (from the host or restored state); `notify` sends it. */
  set(f: RowFilter, notify = false): void {
    this.filter = f;
    this.status.value = f.status;
    this.kinds.value = f.kinds;
    this.box.set(f.expr ?? '');
    if (notify) this.onChange(f);
  }

  private emit(): void {
    const status = (STATUS.find(([v]) => v === this.status.value)?.[0] ?? 'all') as RowFilter['status'];
    const kinds = Array.isArray(this.kinds.value) ? this.kinds.value.filter((k) => this.kindList.includes(k)) : [];
    const expr = this.box.value.trim();
    this.filter = expr !== '' ? { kinds, status, expr } : { kinds, status };
    this.onChange(this.filter);
  }
}

function option(value: string, label: string): HTMLElement {
  const o = document.createElement('vscode-option') as HTMLElement & { value: string };
  o.setAttribute('value', value);
  // The option's text is shown in the list and in the select's face, which hold no markup: bidi and control
  // characters as `[U+202E]` (the value stays the kind itself).
  o.textContent = visibleText(label);
  return o;
}
