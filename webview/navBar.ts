/**
 * The detail pane's navigation buttons: Back and Forward through the events looked at, Go to Parent and
 * Go to First Child. Each names its key in the tooltip; the keys themselves are handled by the app.
 */
import type { EventDetail } from '../src/protocol';
import { el, iconButton } from './dom';

/** What the buttons do. */
export interface NavBarHost {
  back(): void;
  forward(): void;
  parent(): void;
  firstChild(): void;
}

/** See the file comment. */
export class NavBar {
  readonly element = el('div', { class: 'nav-bar', attrs: { role: 'toolbar', 'aria-label': 'Navigation' } });
  private readonly backButton: HTMLButtonElement;
  private readonly forwardButton: HTMLButtonElement;
  private readonly parentButton: HTMLButtonElement;
  private readonly childButton: HTMLButtonElement;

  constructor(host: NavBarHost) {
    this.backButton = iconButton('arrow-left', 'Back (Alt+←)', () => host.back(), 'nav-back');
    this.forwardButton = iconButton('arrow-right', 'Forward (Alt+→)', () => host.forward(), 'nav-forward');
    this.parentButton = iconButton('arrow-up', 'Go to Parent (Alt+↑)', () => host.parent(), 'nav-parent');
    this.childButton = iconButton('arrow-down', 'Go to First Child (Alt+↓)', () => host.firstChild(), 'nav-child');
    this.element.append(this.backButton, this.forwardButton, el('span', { class: 'nav-sep', attrs: { 'aria-hidden': 'true' } }), this.parentButton, this.childButton);
    this.update(null, false, false);
  }

  /** Enables what applies to the event shown (none while nothing is selected). */
  update(d: EventDetail | null, canBack: boolean, canForward: boolean): void {
    this.backButton.disabled = !canBack;
    this.forwardButton.disabled = !canForward;
    this.parentButton.disabled = !d?.parent;
    this.childButton.disabled = !d || d.childCount === 0;
  }
}
