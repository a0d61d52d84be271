/**
 * The toggle of the writer's bookkeeping lines (Claude Code's `attachment`, `progress`…, Codex's echoed items and
 * token reports, Gemini CLI's `$set`): folded out of the tree by default. The tree's status line (`note`, under the
 * rows) says "18 bookkeeping lines hidden" with a Show button while they are folded, and "18 bookkeeping lines
 * shown" with a Hide button while they are rows, so a folded tree never hides that they exist. It lives under the
 * rows, not in the toolbar, which a narrow editor has no room for. A trace without bookkeeping lines has no note.
 */
import type { BookkeepingState } from '../src/protocol';
import { el, setText } from './dom';

/** See the file comment. */
export class BookkeepingToggle {
  private state: BookkeepingState = { count: 0, shown: false };
  /** The tree's status line: how many lines, and a button that shows or hides them (Tab reaches it). */
  readonly note: HTMLElement;
  private readonly noteText = el('span', { class: 'bookkeeping-note-text' });
  private readonly button = el('button', { class: 'link-button bookkeeping-show', text: 'Show', attrs: { type: 'button' } });

  constructor(changed: (shown: boolean) => void) {
    this.button.addEventListener('click', () => {
      this.show({ ...this.state, shown: !this.state.shown });
      changed(this.state.shown);
    });
    this.note = el('div', { class: 'bookkeeping-note', attrs: { role: 'status' } }, this.noteText, this.button);
    this.note.hidden = true;
  }

  /** Shows the state the host uses. */
  show(state: BookkeepingState): void {
    this.state = state;
    const lines = `${state.count.toLocaleString('en-US')} bookkeeping line${state.count === 1 ? '' : 's'}`;
    this.note.hidden = state.count === 0;
    setText(this.noteText, `${lines} ${state.shown ? 'shown' : 'hidden'}`);
    this.button.textContent = state.shown ? 'Hide' : 'Show';
    this.button.setAttribute('aria-pressed', String(state.shown));
    this.button.title = state.shown ? 'Fold the writer’s bookkeeping lines out of the tree again' : 'Show the writer’s bookkeeping lines as rows';
    this.note.title = 'The writer’s bookkeeping lines (Go to Line, find and the filter reach them while they are folded)';
  }
}
