/** The file-state banner under the header (appended, rewritten, deleted, …) and the status views' buttons. */
import type { FileState } from '../src/protocol';
import { post } from './api';
import { clear, el, icon } from './dom';

const ICONS: Record<FileState, string> = { loading: 'sync', appended: 'arrow-down', rewritten: 'refresh', truncated: 'refresh', deleted: 'trash', unreadable: 'error', cancelled: 'warning', tooLarge: 'warning', ready: 'info' };

/** See the file comment. */
export class FileBanner {
  readonly element = el('div', { class: 'banner', attrs: { role: 'status', 'aria-live': 'polite' } });
  private timer = 0;

  /** Shows what happened to the file, or hides the banner when there is nothing to say. */
  set(state: FileState, message: string | null): void {
    const b = this.element;
    clear(b);
    b.className = `banner banner-${state}`;
    const text = message ?? (state === 'deleted' ? 'The file was deleted.' : null);
    b.hidden = text === null;
    clearTimeout(this.timer);
    if (text === null) return;
    // Appends of a running agent come often: say so briefly.
    if (state === 'appended') this.timer = window.setTimeout(() => (b.hidden = true), 5000);
    b.append(icon(ICONS[state] ?? 'info'), el('span', { class: 'banner-text', text }));
    if (state === 'cancelled' || state === 'deleted' || state === 'unreadable') b.appendChild(actionButton('Reload', () => post({ type: 'reload' })));
    b.appendChild(actionButton('Dismiss', () => (b.hidden = true)));
  }
}

/** A vscode-button with a click action. */
export function actionButton(text: string, onClick: () => void, secondary = false): HTMLElement {
  const b = document.createElement('vscode-button');
  b.textContent = text;
  if (secondary) b.setAttribute('secondary', '');
  b.addEventListener('click', onClick);
  return b;
}
