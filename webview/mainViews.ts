/**
 * The main-view tab strip of the left pane: "Tree | Transcript | …". Each view is one element; the strip shows
 * one at a time, remembers which in the webview state (through `changed`), and is an ARIA tablist: ←/→, Home and
 * End move between tabs (roving tabindex), Enter/Space or a click shows one.
 *
 * Views are added by id; an id shown before it is added (a persisted "timeline" restored before the Timeline
 * registers) is shown as soon as it is added, so views can register in any order.
 */
import { el } from './dom';

/** One main view. */
export interface MainView {
  /** Stable id, persisted (`tree`, `transcript`, `timeline`, …). */
  id: string;
  /** The tab's label. */
  title: string;
  /** The view's content; the strip wraps it in its tab panel and hides it when another view is shown. */
  element: HTMLElement;
  /** Called after the view is shown (render lazily here: a hidden view should do no work). */
  onShow?(): void;
  /** Called before another view is shown instead. */
  onHide?(): void;
  /** The selected event changed (in any view); called for every view, shown or not. */
  onSelect?(node: number): void;
}

interface Entry {
  view: MainView;
  tab: HTMLElement;
  panel: HTMLElement;
}

/** See the file comment. */
export class MainViews {
  readonly element = el('div', { class: 'main-views' });
  private readonly strip = el('div', { class: 'main-view-tabs', attrs: { role: 'tablist', 'aria-label': 'Main views' } });
  private readonly entries: Entry[] = [];
  private shown: Entry | null = null;

  /**
   * @param wanted the view to show first (the persisted one); the first view added is shown until it exists.
   * @param changed called with the id when the user (or {@link show}) changes the view.
   */
  constructor(private wanted: string | null, private readonly changed: (id: string) => void) {
    this.element.appendChild(this.strip);
    this.strip.addEventListener('keydown', (e) => this.onKey(e));
  }

  /** Adds a view (its tab at the end). */
  add(view: MainView): void {
    if (this.entries.some((e) => e.view.id === view.id)) throw new Error(`main view "${view.id}" added twice`);
    const tabId = `main-tab-${view.id}`;
    const panelId = `main-panel-${view.id}`;
    const tab = el('button', { class: 'main-view-tab', text: view.title, attrs: { role: 'tab', id: tabId, 'aria-controls': panelId, 'aria-selected': 'false', tabindex: '-1', 'data-view': view.id } });
    const panel = el('div', { class: 'main-view-panel', attrs: { role: 'tabpanel', id: panelId, 'aria-labelledby': tabId } }, view.element);
    panel.hidden = true;
    const entry = { view, tab, panel };
    tab.addEventListener('click', () => this.show(view.id));
    this.entries.push(entry);
    this.strip.appendChild(tab);
    this.element.appendChild(panel);
    if (this.shown === null || view.id === this.wanted) this.display(entry);
  }

  /** Shows a view by id; an id not added yet is shown when it is added. */
  show(id: string, focusTab = false): void {
    const entry = this.entries.find((e) => e.view.id === id);
    this.wanted = id;
    if (!entry) return;
    if (entry !== this.shown) {
      this.display(entry);
      this.changed(id);
    }
    if (focusTab) entry.tab.focus();
  }

  /** The id of the view shown, or null before any is added. */
  get current(): string | null {
    return this.shown?.view.id ?? null;
  }

  /** Tells every view the selected event changed. */
  select(node: number): void {
    for (const e of this.entries) e.view.onSelect?.(node);
  }

  private display(entry: Entry): void {
    if (this.shown && this.shown !== entry) this.shown.view.onHide?.();
    for (const e of this.entries) {
      const on = e === entry;
      e.panel.hidden = !on;
      e.tab.setAttribute('aria-selected', String(on));
      e.tab.tabIndex = on ? 0 : -1;
      e.tab.classList.toggle('active', on);
    }
    this.shown = entry;
    entry.view.onShow?.();
  }

  private onKey(e: KeyboardEvent): void {
    const at = this.entries.findIndex((x) => x.tab === document.activeElement);
    if (at < 0) return;
    const n = this.entries.length;
    const to = e.key === 'ArrowRight' ? (at + 1) % n : e.key === 'ArrowLeft' ? (at - 1 + n) % n : e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : -1;
    if (to < 0) return;
    e.preventDefault();
    // Automatic activation: the views are cheap to switch (each renders lazily), so moving shows.
    this.show(this.entries[to].view.id, true);
  }
}
