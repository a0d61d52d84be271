/**
 * The compare view's timeline: both runs' waterfalls on one time axis, aligned by their run starts, one lane per
 * aligned row (A's bar in its upper half, B's in its lower half), so a row of the trees and its bars line up and
 * share the selection. Drawn on canvases over the rows (text as pixels, never markup) with the Timeline tab's
 * drawing helpers and theme colours.
 */
import type { CompareRow, CompareSide } from '../../src/protocol/compare';
import { colours, Colours, cssVar, drawAxis, niceStep, prepare, TimelineState, xOf } from '../timelineDraw';

const ROW_PX = 22;
/** Zoom factor of one step (a button or `+` / `-`). */
const ZOOM_STEP = 2;
/** Narrowest view in ms, so zooming in stops somewhere useful. */
const MIN_VIEW_MS = 1;

/** What one draw needs: the rows in view and which is selected. */
export interface LaneWindow {
  from: number;
  to: number;
  scrollTop: number;
  selected: number;
  row(i: number): CompareRow | undefined;
}

function sideColour(s: CompareSide, run: string, c: Colours): string {
  return s.status === 'error' ? c.error : s.status === 'warning' ? c.warning : run;
}

/** See the file comment. */
export class CompareTimeline {
  private span = 1;
  private viewStart = 0;
  private viewEnd = 1;

  constructor(readonly axis: HTMLCanvasElement, readonly lanes: HTMLCanvasElement) {}

  /** A new diff: the axis spans the longer run. */
  reset(spanA: number, spanB: number): void {
    this.span = Math.max(1, spanA, spanB);
    this.viewStart = 0;
    this.viewEnd = this.span;
  }

  /** The view's range in ms after both runs' starts (for tests and the title). */
  get view(): [number, number] {
    return [this.viewStart, this.viewEnd];
  }

  /** Zooms in (`factor` > 1) or out around `centreMs`, inside the runs' span; `0` shows the whole span. */
  zoom(factor: number, centreMs: number): void {
    if (factor === 0) {
      this.viewStart = 0;
      this.viewEnd = this.span;
      return;
    }
    const width = Math.min(this.span, Math.max(MIN_VIEW_MS, (this.viewEnd - this.viewStart) / factor));
    const start = Math.min(Math.max(0, centreMs - width / 2), this.span - width);
    this.viewStart = start;
    this.viewEnd = start + width;
  }

  /** Zoom in one step around `centreMs`. */
  zoomIn(centreMs: number): void {
    this.zoom(ZOOM_STEP, centreMs);
  }

  /** Zoom out one step around `centreMs`. */
  zoomOut(centreMs: number): void {
    this.zoom(1 / ZOOM_STEP, centreMs);
  }

  private state(): TimelineState {
    return { bars: new Map(), top: 0, rows: 0, total: 0, span: this.span, density: [], viewStart: this.viewStart, viewEnd: this.viewEnd, focusBar: -1, selectedNode: null };
  }

  /** Draws the axis and the lanes of rows [from, to). */
  draw(win: LaneWindow): void {
    const c = colours();
    const s = this.state();
    const ax = prepare(this.axis);
    if (ax) drawAxis(ax, this.axis.clientWidth, this.axis.clientHeight, s, c);
    const ctx = prepare(this.lanes);
    if (!ctx) return;
    const w = this.lanes.clientWidth;
    const h = this.lanes.clientHeight;
    ctx.fillStyle = c.idle;
    const step = niceStep((this.viewEnd - this.viewStart) / Math.max(1, w / 90));
    for (let t = Math.ceil(this.viewStart / step) * step; t <= this.viewEnd; t += step) ctx.fillRect(Math.round(xOf(s, w, t)), 0, 1, h);
    const runA = c.bar;
    const runB = cssVar('--vscode-charts-purple', '#b180d7');
    for (let i = win.from; i < win.to; i++) {
      const r = win.row(i);
      if (!r) continue;
      const y = i * ROW_PX - win.scrollTop;
      if (y + ROW_PX < 0 || y > h) continue;
      if (r.a) this.bar(ctx, s, w, r.a, y + 3, sideColour(r.a, runA, c));
      if (r.b) this.bar(ctx, s, w, r.b, y + 12, sideColour(r.b, runB, c));
      if (i === win.selected) {
        ctx.strokeStyle = c.focus;
        ctx.lineWidth = 1;
        ctx.strokeRect(0.5, y + 0.5, w - 1, ROW_PX - 1);
      }
    }
  }

  /** One side's bar, 7 px tall from `y` (a tick for an instant event); nothing for an event without a time. */
  private bar(ctx: CanvasRenderingContext2D, s: TimelineState, w: number, side: CompareSide, y: number, colour: string): void {
    if (side.startMs === null) return;
    const x = xOf(s, w, side.startMs);
    ctx.fillStyle = colour;
    if (side.durationMs === null) ctx.fillRect(x - 1, y, 2, 7);
    else ctx.fillRect(x, y, Math.max(1, xOf(s, w, side.startMs + side.durationMs) - x), 7);
  }
}
