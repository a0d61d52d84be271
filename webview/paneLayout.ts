/**
 * The tree | detail split and the Event column, both resizable by drag or keyboard (splitter.ts) and kept in
 * the webview state, which VS Code restores on reload. The tree pane's width is a percentage (it follows the
 * window); the Event column is pixels, or "auto": it takes what the other columns leave.
 */
import { el } from './dom';
import { makeSplitter } from './splitter';

const DEFAULT_SPLIT = 55;
const MIN_TREE_PX = 180;
const MIN_DETAIL_PX = 200;
const MIN_EVENT_PX = 120;

/** Sizes as persisted. */
export interface PaneSizes {
  splitPosition: string | null;
  eventColumnWidth: number | null;
}

/** See the file comment. */
export class PaneLayout {
  readonly element = el('div', { class: 'split' });
  readonly treePane: HTMLElement;
  private readonly detailSlot: HTMLElement;

  constructor(columnsHeader: HTMLElement, treeParts: HTMLElement[], detailParts: HTMLElement[], sizes: PaneSizes, private readonly changed: (patch: Partial<PaneSizes>) => void) {
    // A columns header already placed (inside the Tree of the main-view tab strip) stays where it is.
    this.treePane = el('div', { class: 'tree-pane' }, columnsHeader.parentElement ? null : columnsHeader, ...treeParts);
    this.detailSlot = el('div', { class: 'detail-slot' }, ...detailParts);
    const split = makeSplitter({
      label: 'Resize the event tree and the detail pane',
      get: () => this.treePane.getBoundingClientRect().width,
      set: (px) => this.setTreeWidth(`${((px / Math.max(1, this.element.getBoundingClientRect().width)) * 100).toFixed(1)}%`),
      min: () => MIN_TREE_PX,
      max: () => Math.max(MIN_TREE_PX, this.element.getBoundingClientRect().width - MIN_DETAIL_PX),
      commit: () => this.changed({ splitPosition: this.treePane.style.flexBasis || null }),
      reset: () => this.setTreeWidth(`${DEFAULT_SPLIT}%`),
    }, 'split-handle');
    const eventHead = columnsHeader.querySelector<HTMLElement>('.col-event')!;
    const column = makeSplitter({
      label: 'Resize the Event column',
      get: () => this.eventWidth() ?? eventHead.getBoundingClientRect().right - this.treePane.getBoundingClientRect().left,
      set: (px) => this.setEventWidth(px),
      min: () => MIN_EVENT_PX,
      max: () => Math.max(MIN_EVENT_PX, this.treePane.getBoundingClientRect().width - this.metricColumnsWidth()),
      commit: (px) => this.changed({ eventColumnWidth: px }),
      reset: () => this.setEventWidth(null),
    }, 'column-handle');
    eventHead.after(column);
    this.element.append(this.treePane, split, this.detailSlot);
    this.apply(sizes);
  }

  /** Applies sizes (persisted, or the workspace's last ones). */
  apply(sizes: PaneSizes): void {
    this.setTreeWidth(sizes.splitPosition ?? `${DEFAULT_SPLIT}%`);
    this.setEventWidth(sizes.eventColumnWidth);
  }

  /** Hides the metric columns no event fills, so the Event column gets their room. */
  showColumns(c: { duration: boolean; tokens: boolean; time: boolean }): void {
    this.treePane.classList.toggle('no-col-duration', !c.duration);
    this.treePane.classList.toggle('no-col-tokens', !c.tokens);
    this.treePane.classList.toggle('no-col-offset', !c.time);
  }

  /** The sizes now. */
  sizes(): PaneSizes {
    return { splitPosition: this.treePane.style.flexBasis || null, eventColumnWidth: this.eventWidth() };
  }

  /** The Event column's width in pixels, or null when it takes the space left. */
  eventWidth(): number | null {
    const v = this.treePane.style.getPropertyValue('--event-width');
    return v ? Number.parseFloat(v) : null;
  }

  private metricColumnsWidth(): number {
    let w = 8;
    for (const c of this.treePane.querySelectorAll<HTMLElement>('.tree-columns .col')) w += c.getBoundingClientRect().width;
    return w;
  }

  private setTreeWidth(pct: string): void {
    // Only a percentage: a persisted value from an older version might be anything.
    this.treePane.style.flexBasis = /^\d{1,3}(\.\d)?%$/.test(pct) ? pct : `${DEFAULT_SPLIT}%`;
  }

  private setEventWidth(px: number | null): void {
    if (px === null || !Number.isFinite(px)) this.treePane.style.removeProperty('--event-width');
    else this.treePane.style.setProperty('--event-width', `${Math.round(px)}px`);
    this.treePane.classList.toggle('event-sized', px !== null);
  }
}
