/**
 * The filter box: an expression in the filter language (src/core/filter) with completions of fields and the
 * trace's values, the expression's "and" parts as removable chips, and the column of a bad token. Trace values
 * (kinds, tools, models) reach the DOM only as text.
 */
import { compileFilter } from '../src/core/filter/filterCompile';
import { filterCompletions, type FilterCompletion, type FilterValues } from '../src/core/filter/filterComplete';
import { filterChips, removeChip } from '../src/core/filter/filterChips';
import { FilterError } from '../src/core/filter/filterSyntax';
import { el, setText } from './dom';

const DEBOUNCE_MS = 250;
const SHOWN = 12;

/** See the file comment. */
export class FilterBox {
  readonly element = el('div', { class: 'filter-box' });
  private readonly input = el('input', {
    class: 'filter-expr',
    attrs: { type: 'text', spellcheck: 'false', 'aria-label': 'Filter expression', 'aria-autocomplete': 'list', 'aria-controls': 'filter-completions', placeholder: 'kind:tool_call status:error duration>500ms text:"timeout"' },
  }) as HTMLInputElement;
  private readonly list = el('ul', { class: 'filter-completions', attrs: { role: 'listbox', id: 'filter-completions' } });
  private readonly chips = el('div', { class: 'filter-chips', attrs: { role: 'list', 'aria-label': 'Filter parts' } });
  private readonly error = el('div', { class: 'filter-error', attrs: { 'aria-live': 'polite' } });
  private values: FilterValues = {};
  private items: FilterCompletion[] = [];
  private range = { from: 0, to: 0 };
  private active = -1;
  private timer = 0;
  private sent = '';

  /** `onChange` gets each expression that reads (debounced; '' clears). */
  constructor(private readonly onChange: (expr: string) => void) {
    this.list.hidden = true;
    this.element.append(this.input, this.list, this.chips, this.error);
    this.input.addEventListener('input', () => {
      this.suggest();
      this.changed();
    });
    this.input.addEventListener('focus', () => this.suggest());
    this.input.addEventListener('blur', () => window.setTimeout(() => this.closeList(), 150));
    this.input.addEventListener('keydown', (e) => this.key(e));
  }

  /** Values for completions: kinds from the model, tools/models/categories/groups from the host. */
  setValues(values: FilterValues): void {
    this.values = values;
  }

  get value(): string {
    return this.input.value;
  }

  /** Shows an expression (restored state or a cleared filter) without sending it. */
  set(expr: string): void {
    if (this.input.value !== expr) this.input.value = expr;
    this.sent = expr;
    this.render();
  }

  private key(e: KeyboardEvent): void {
    if (e.key === ' ' && e.ctrlKey) {
      e.preventDefault();
      return this.suggest(true);
    }
    if (!this.list.hidden && this.items.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        this.highlight((this.active + (e.key === 'ArrowDown' ? 1 : -1) + this.items.length) % this.items.length);
        return;
      }
      if ((e.key === 'Enter' || e.key === 'Tab') && this.active >= 0) {
        e.preventDefault();
        return this.accept(this.items[this.active]);
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        return this.closeList();
      }
    }
    if (e.key === 'Enter') {
      e.preventDefault();
      clearTimeout(this.timer);
      this.commit();
    }
  }

  /** Puts the caret in the expression box (the Filter button opens the bar there). */
  focus(): void {
    this.input.focus();
  }

  private accept(item: FilterCompletion): void {
    const v = this.input.value;
    const insert = item.insert + (item.insert.endsWith(':') || item.insert.endsWith('>') ? '' : ' ');
    this.input.value = v.slice(0, this.range.from) + insert + v.slice(this.range.to);
    const at = this.range.from + insert.length;
    this.input.setSelectionRange(at, at);
    this.input.focus();
    this.suggest();
    this.changed();
  }

  /** Offers completions while a term is being typed (or on Ctrl+Space, `force`), not after a finished one. */
  private suggest(force = false): void {
    const v = this.input.value;
    const cursor = this.input.selectionStart ?? v.length;
    if (!force && v.trim() !== '' && (cursor === 0 || /\s/.test(v[cursor - 1]))) return this.closeList();
    const c = filterCompletions(v, cursor, this.values);
    this.range = { from: c.from, to: c.to };
    this.items = c.items.slice(0, SHOWN);
    this.list.textContent = '';
    this.items.forEach((item, k) => {
      const li = el('li', { class: 'filter-completion', attrs: { role: 'option', id: `filter-completion-${k}` } });
      li.append(el('span', { class: 'filter-completion-label' }), el('span', { class: 'filter-completion-detail' }));
      setText(li.firstChild as Element, item.label);
      setText(li.lastChild as Element, item.detail);
      li.addEventListener('mousedown', (e) => {
        e.preventDefault();
        this.accept(item);
      });
      this.list.appendChild(li);
    });
    this.list.hidden = this.items.length === 0 || document.activeElement !== this.input;
    this.highlight(this.items.length > 0 ? 0 : -1);
  }

  private highlight(k: number): void {
    this.active = k;
    this.list.querySelectorAll('li').forEach((li, i) => li.setAttribute('aria-selected', String(i === k)));
    if (k >= 0) this.input.setAttribute('aria-activedescendant', `filter-completion-${k}`);
    else this.input.removeAttribute('aria-activedescendant');
  }

  private closeList(): void {
    this.list.hidden = true;
  }

  private changed(): void {
    clearTimeout(this.timer);
    this.timer = window.setTimeout(() => this.commit(), DEBOUNCE_MS);
    this.render();
  }

  /** Sends the expression when it reads; otherwise the error (with its column) stays on screen. */
  private commit(): void {
    const expr = this.input.value;
    if (this.check(expr) && expr !== this.sent) {
      this.sent = expr;
      this.onChange(expr);
    }
  }

  private check(expr: string): boolean {
    try {
      compileFilter(expr);
      this.error.hidden = true;
      this.input.removeAttribute('aria-invalid');
      return true;
    } catch (err) {
      if (!(err instanceof FilterError)) throw err;
      setText(this.error, `Column ${err.column}: ${err.reason}`);
      this.error.hidden = false;
      this.input.setAttribute('aria-invalid', 'true');
      return false;
    }
  }

  private render(): void {
    const expr = this.input.value;
    this.check(expr);
    this.chips.textContent = '';
    for (const chip of filterChips(expr)) {
      const c = el('span', { class: 'filter-chip', attrs: { role: 'listitem' } });
      const label = el('span', { class: 'filter-chip-text' });
      setText(label, chip.text);
      const x = el('button', { class: 'filter-chip-remove codicon codicon-close', title: 'Remove', attrs: { 'aria-label': 'Remove this part' } });
      x.addEventListener('click', () => {
        this.input.value = removeChip(this.input.value, chip);
        this.render();
        this.commit();
      });
      c.append(label, x);
      this.chips.appendChild(c);
    }
  }
}
