// The panel shown in place of (or beside) the tree while a trace opens, when it holds nothing, or when it
// cannot be shown: a progress bar, a sentence, and for errors the actions that can help. Never a blank panel.
import { post } from './api';
import { actionButton } from './banner';
import { clear, el, icon } from './dom';

/** What the host offers when a trace cannot be shown. */
export type StatusAction = 'reload' | 'openAsText' | 'openAnyway';

export class StatusView {
  readonly element = el('div', { class: 'status-view' });

  /** Progress (`loading`, with a bar, determinate when `fraction` is known) or a plain sentence (`empty`). */
  show(kind: 'loading' | 'empty', text: string, fraction?: number): void {
    this.element.hidden = false;
    clear(this.element);
    if (kind === 'loading') {
      const bar = document.createElement('vscode-progress-bar') as HTMLElement & { value?: number; max: number };
      if (fraction !== undefined) (bar.value = Math.round(fraction * 1000)), (bar.max = 1000);
      this.element.appendChild(bar);
    }
    this.element.appendChild(el('p', { class: 'status-text', text }));
  }

  /** A fatal problem, with its actions as buttons. */
  showError(message: string, actions: StatusAction[]): void {
    this.element.hidden = false;
    clear(this.element);
    const buttons = el('div', { class: 'status-actions' });
    for (const a of actions) {
      if (a === 'reload') buttons.appendChild(actionButton('Try Again', () => post({ type: 'reload' })));
      if (a === 'openAnyway') buttons.appendChild(actionButton('Open Anyway', () => post({ type: 'reload', ignoreSizeLimit: true })));
      if (a === 'openAsText') buttons.appendChild(actionButton('Open as Text', () => post({ type: 'openAsText' }), true));
    }
    this.element.append(el('div', { class: 'error-view' }, icon('error'), el('p', { class: 'status-text', text: message })), buttons);
  }

  hide(): void {
    this.element.hidden = true;
  }
}
