/**
 * The toolbar's toggle of the writer's bookkeeping lines (Claude Code's `attachment`, `progress`…, Codex's echoed
 * items and token reports, Gemini CLI's `$set`): folded out of the tree by default, shown as rows when pressed. Its
 * title says how many there are, and the tree's status line (`note`, under the rows) says "18 bookkeeping lines
 * hidden" while they are folded, with a Show button, so a folded tree never hides that they exist.
 */
import type { BookkeepingState } from '../src/protocol';
import { el, setText, toolbarButton } from './dom';

/** See the file comment. */
export class BookkeepingToggle {
  private state: BookkeepingState = { count: 0, shown: false };
  readonly element: HTMLElement & { toggleable?: boolean; checked?: boolean };
  /** The tree's status line while lines are folded: how many, and a button that shows them (Tab reaches it). */
  readonly note: HTMLElement;
  private readonly noteText = el('span', { class: 'bookkeeping-note-text' });

  constructor(changed: (shown: boolean) => void) {
    const toggle = (): void => {
      this.show({ ...this.state, shown: !this.state.shown });
      changed(this.state.shown);
    };
    this.element = toolbarButton('eye', 'Show Bookkeeping Lines', toggle);
    this.element.toggleable = true;
    const show = el('button', { class: 'link-button bookkeeping-show', text: 'Show', attrs: { type: 'button' } });
    show.addEventListener('click', toggle);
    this.note = el('div', { class: 'bookkeeping-note', attrs: { role: 'status' } }, this.noteText, show);
    this.note.hidden = true;
  }

  /** Shows the state the host uses (a trace without bookkeeping lines has nothing to toggle). */
  show(state: BookkeepingState): void {
    this.state = state;
    const n = state.count.toLocaleString('en-US');
    const lines = `${n} bookkeeping line${state.count === 1 ? '' : 's'}`;
    this.element.checked = state.shown;
    this.element.setAttribute('aria-pressed', String(state.shown));
    this.element.hidden = state.count === 0;
    const title = state.shown ? `Show Bookkeeping Lines (on): ${lines} are rows` : `Show Bookkeeping Lines (off): ${lines} folded out of the tree (Go to Line, find and the filter still reach them)`;
    this.element.title = title;
    this.element.setAttribute('label', title);
    this.note.hidden = state.count === 0 || state.shown;
    setText(this.noteText, `${lines} hidden`);
    this.note.title = `The writer's bookkeeping lines are folded out of the tree (Go to Line, find and the filter still reach them)`;
  }
}
