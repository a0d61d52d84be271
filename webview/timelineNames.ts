/**
 * The timeline's name column (issue 40): its width, kept while zooming, changed by dragging or with ← and → on its
 * splitter, and shown or hidden with the Names button or a double click on the splitter. The column never takes
 * more than 70% of the canvas nor less than 80 px.
 */
import { el } from './dom';

const MIN_NAMES = 80;

/** See the file comment. `changed` is called after every change, to redraw. */
export class NameColumn {
  readonly splitter = el('div', { class: 'timeline-splitter', attrs: { role: 'separator', tabindex: '0', 'aria-orientation': 'vertical', 'aria-label': 'Name column width: ← and → resize' } });
  readonly button: HTMLElement;
  private width = 280;
  private shown = true;
  private drag: { x: number; width: number } | null = null;

  constructor(private readonly canvas: HTMLElement, private readonly changed: () => void) {
    this.button = el('button', { class: 'timeline-button', text: 'Names', title: 'Show or hide the name column', attrs: { 'aria-pressed': 'true' }, onClick: () => this.toggle() });
    this.splitter.addEventListener('mousedown', (e) => {
      e.preventDefault();
      this.drag = { x: e.clientX, width: this.width };
    });
    this.splitter.addEventListener('dblclick', () => this.toggle());
    this.splitter.addEventListener('keydown', (e) => {
      if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
      e.preventDefault();
      this.setWidth(this.width + (e.key === 'ArrowLeft' ? -20 : 20));
    });
  }

  /** The column's width as drawn (0: hidden). */
  drawn(): number {
    if (!this.shown) return 0;
    return Math.max(MIN_NAMES, Math.min(this.width, Math.floor(this.canvas.clientWidth * 0.7)));
  }

  /** True while the splitter is dragged. */
  get resizing(): boolean {
    return this.drag !== null;
  }

  /** A mouse move anywhere: resizes while the splitter is dragged; false when no drag is on. */
  onMove(e: MouseEvent): boolean {
    if (!this.drag) return false;
    this.setWidth(this.drag.width + e.clientX - this.drag.x);
    return true;
  }

  /** A mouse button released anywhere: ends a drag; false when no drag was on. */
  onUp(): boolean {
    if (!this.drag) return false;
    this.drag = null;
    return true;
  }

  /** Places the splitter at the column's edge (after a draw). */
  place(): void {
    const left = this.drawn();
    this.splitter.style.left = `${Math.max(0, left - 3)}px`;
    this.splitter.hidden = left === 0;
    this.splitter.setAttribute('aria-valuenow', String(left));
  }

  private setWidth(width: number): void {
    this.width = Math.max(MIN_NAMES, Math.min(width, Math.max(MIN_NAMES, Math.floor(this.canvas.clientWidth * 0.7))));
    this.changed();
  }

  private toggle(): void {
    this.shown = !this.shown;
    this.button.setAttribute('aria-pressed', String(this.shown));
    this.changed();
  }
}
