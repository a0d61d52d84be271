/**
 * The find bar: query, case and regex toggles, "3 of 17" (with progress while blobs are read), previous/next,
 * and a result list (blob matches with the text around them); Enter steps, Escape closes.
 */
import type { FindResultsMessage } from '../src/protocol';
import { el, toolbarButton } from './dom';
import { formatInt } from './format';
import { renderFindResults } from './findResults';

/** What the find bar asks of the app. */
export interface FindHost {
  find(query: string, caseSensitive: boolean, regex: boolean): void;
  step(direction: 1 | -1): void;
  closed(): void;
  /** Reveals and selects a result's event. */
  reveal(node: number): void;
}

const DEBOUNCE_MS = 200;

/** See the file comment. */
export class FindBar {
  readonly element = el('div', { class: 'find-bar', attrs: { role: 'search', 'aria-label': 'Find in trace' } });
  private readonly input = document.createElement('vscode-textfield') as HTMLElement & { value: string };
  private readonly count = el('span', { class: 'find-count', attrs: { 'aria-live': 'polite' } });
  private readonly caseButton: HTMLElement;
  private readonly regexButton: HTMLElement;
  private readonly listButton: HTMLElement;
  /** The result list, placed by the app below the bar. */
  readonly results = el('div', { class: 'find-results', attrs: { role: 'listbox', 'aria-label': 'Find results' } });
  private showList = false;
  private last: FindResultsMessage | null = null;
  caseSensitive = false;
  regex = false;
  private timer = 0;
  query = '';

  constructor(private readonly host: FindHost) {
    this.element.hidden = true;
    this.input.setAttribute('placeholder', 'Find in labels and event text');
    this.input.setAttribute('aria-label', 'Find');
    this.input.classList.add('find-input');
    this.caseButton = toolbarButton('case-sensitive', 'Match Case', () => {
      this.caseSensitive = !this.caseSensitive;
      this.caseButton.toggleAttribute('checked', this.caseSensitive);
      this.run();
    });
    this.caseButton.setAttribute('toggleable', '');
    this.regexButton = toolbarButton('regex', 'Use Regular Expression', () => {
      this.regex = !this.regex;
      this.regexButton.toggleAttribute('checked', this.regex);
      this.run();
    });
    this.regexButton.setAttribute('toggleable', '');
    this.listButton = toolbarButton('list-flat', 'Show Result List', () => {
      this.showList = !this.showList;
      this.listButton.toggleAttribute('checked', this.showList);
      this.renderList();
    });
    this.listButton.setAttribute('toggleable', '');
    this.results.hidden = true;
    this.input.addEventListener('input', () => {
      clearTimeout(this.timer);
      this.timer = window.setTimeout(() => this.run(), DEBOUNCE_MS);
    });
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        clearTimeout(this.timer);
        if (this.input.value !== this.query) this.run();
        else this.host.step(e.shiftKey ? -1 : 1);
      } else if (e.key === 'Escape') {
        e.preventDefault();
        this.close();
      }
    });
    this.element.append(
      el('span', { class: 'codicon codicon-search find-icon', attrs: { 'aria-hidden': 'true' } }),
      this.input,
      this.caseButton,
      this.regexButton,
      this.count,
      toolbarButton('arrow-up', 'Previous Match (Shift+Enter)', () => this.host.step(-1)),
      toolbarButton('arrow-down', 'Next Match (Enter)', () => this.host.step(1)),
      this.listButton,
      toolbarButton('close', 'Close (Escape)', () => this.close()),
    );
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** Shows the bar and focuses the query, with `initial` when restoring. */
  open(initial?: string): void {
    this.element.hidden = false;
    if (initial !== undefined && initial !== this.input.value) {
      this.input.value = initial;
      this.query = initial;
    }
    requestAnimationFrame(() => this.input.focus());
  }

  close(): void {
    this.element.hidden = true;
    this.results.hidden = true;
    clearTimeout(this.timer);
    if (this.query !== '') {
      this.query = '';
      this.input.value = '';
      this.host.find('', this.caseSensitive, this.regex);
    }
    this.count.textContent = '';
    this.host.closed();
  }

  private run(): void {
    this.query = this.input.value;
    this.host.find(this.query, this.caseSensitive, this.regex);
  }

  private renderList(): void {
    const r = this.last;
    this.results.hidden = !this.showList || this.element.hidden || !r || r.query === '' || r.searching;
    if (!this.results.hidden && r) renderFindResults(this.results, r, (node) => this.host.reveal(node));
  }

  /** Shows the host's progress and result. */
  update(r: FindResultsMessage): void {
    if (r.query !== this.query) return;
    this.last = r;
    this.renderList();
    this.count.classList.toggle('no-results', r.query !== '' && !r.searching && r.total === 0);
    if (r.error) this.count.textContent = `Error: ${r.error}`;
    else if (r.query === '') this.count.textContent = '';
    else if (r.searching) this.count.textContent = `Searching… ${formatInt(r.total)}${r.progress !== undefined ? ` (blobs ${Math.floor(r.progress * 100)}%)` : ''}`;
    else if (r.total === 0) this.count.textContent = 'No results';
    else this.count.textContent = `${r.current !== null ? formatInt(r.current) : '?'} of ${formatInt(r.total)}${r.truncated ? '+' : ''}`;
  }
}
