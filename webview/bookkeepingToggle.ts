/**
 * The toolbar's toggle of the writer's bookkeeping lines (Claude Code's `attachment`, `progress`…, Codex's echoed
 * items and token reports, Gemini CLI's `$set`): folded out of the tree by default, shown as rows when pressed. Its
 * title says how many there are, so a folded tree never hides that they exist.
 */
import type { BookkeepingState } from '../src/protocol';
import { toolbarButton } from './dom';

/** See the file comment. */
export class BookkeepingToggle {
  private state: BookkeepingState = { count: 0, shown: false };
  readonly element: HTMLElement & { toggleable?: boolean; checked?: boolean };

  constructor(changed: (shown: boolean) => void) {
    this.element = toolbarButton('eye', 'Show Bookkeeping Lines', () => {
      this.show({ ...this.state, shown: !this.state.shown });
      changed(this.state.shown);
    });
    this.element.toggleable = true;
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
  }
}
