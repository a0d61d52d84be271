/** The toolbar's toggle of the compact view of linear chains: a message chain is one run of rows, not a staircase. */
import { toolbarButton } from './dom';

/** See the file comment. */
export class CompactToggle {
  private on = false;
  readonly element: HTMLElement & { toggleable?: boolean; checked?: boolean };

  constructor(changed: (compact: boolean) => void) {
    this.element = toolbarButton('list-flat', 'Compact Linear Chains', () => {
      this.show(!this.on);
      changed(this.on);
    });
    this.element.toggleable = true;
  }

  /** Shows the state the host uses. */
  show(on: boolean): void {
    this.on = on;
    this.element.checked = on;
    this.element.setAttribute('aria-pressed', String(on));
    this.element.title = on ? 'Compact Linear Chains (on): a chain of single replies is one run of rows' : 'Compact Linear Chains (off): every parent link is one level deeper';
  }
}
