/**
 * Canvas drawing of the Timeline tab: the time axis, idle gaps, bars (ticks for instant events), the critical
 * path, the focused and selected bar, and the minimap. Colours come from the theme's CSS variables, read per
 * draw so a theme change shows on the next frame. Canvas text is drawn as pixels, so labels cannot be markup.
 */
import { visibleText } from './dom';

const ROW = 20;
const AXIS = 18;

/** One bar as the webview caches it. */
export interface Bar { node: number; start: number; dur: number; depth: number; status: number; critical: boolean; label: string }

/** What the drawing needs. */
export interface TimelineState {
  bars: Map<number, Bar>;
  top: number;
  rows: number;
  total: number;
  span: number;
  density: number[];
  viewStart: number;
  viewEnd: number;
  focusBar: number;
  selectedNode: number | null;
}

/** x of a time in a canvas `width` pixels wide. */
export function xOf(s: TimelineState, width: number, ms: number): number {
  return ((ms - s.viewStart) / (s.viewEnd - s.viewStart)) * width;
}

/** ms as the viewer writes durations. */
export function fmtMs(ms: number): string {
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** The theme colours the timeline draws with (exported for the compare view's timeline of two runs). */
export interface Colours { fg: string; dim: string; bar: string; error: string; warning: string; critical: string; focus: string; idle: string; select: string }

/** A theme variable's value, else `fallback`. */
export function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

let colourCache: { key: string; c: Colours } | null = null;

/**
 * The theme's colours, read again only when the theme can have changed (VS Code sets the theme's variables on
 * the root's style and its kind on the body's class): reading computed styles on every frame was a hot spot.
 */
export function colours(): Colours {
  const key = `${document.body?.className ?? ''}|${document.documentElement.getAttribute('style') ?? ''}`;
  if (colourCache?.key !== key) colourCache = { key, c: readColours() };
  return colourCache.c;
}

function readColours(): Colours {
  return {
    fg: cssVar('--vscode-foreground', '#ccc'), dim: cssVar('--vscode-descriptionForeground', '#999'),
    bar: cssVar('--vscode-charts-blue', '#3794ff'), error: cssVar('--vscode-errorForeground', '#f14c4c'),
    warning: cssVar('--vscode-editorWarning-foreground', '#cca700'), critical: cssVar('--vscode-charts-orange', '#d18616'),
    focus: cssVar('--vscode-focusBorder', '#007fd4'), idle: cssVar('--vscode-editorWidget-border', 'rgba(128,128,128,0.35)'),
    select: cssVar('--vscode-list-inactiveSelectionBackground', 'rgba(128,128,128,0.25)'),
  };
}

/** Sizes a canvas's backing store to its CSS box (crisp on HiDPI) and returns its 2D context in CSS pixels. */
export function prepare(canvas: HTMLCanvasElement): CanvasRenderingContext2D | null {
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(1, canvas.clientWidth), h = Math.max(1, canvas.clientHeight);
  if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(h * dpr);
  }
  const ctx = canvas.getContext('2d');
  ctx?.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx?.clearRect(0, 0, w, h);
  return ctx;
}

/** Draws the main canvas and the minimap for one state. */
export function drawTimeline(canvas: HTMLCanvasElement, minimap: HTMLCanvasElement, s: TimelineState): void {
  const c = colours();
  const ctx = prepare(canvas);
  if (ctx) drawMain(ctx, canvas.clientWidth, canvas.clientHeight, s, c);
  const mini = prepare(minimap);
  if (mini) drawMinimap(mini, minimap.clientWidth, minimap.clientHeight, s, c);
}

/** Idle gaps: runs of density buckets where no bar is active, as [fromMs, toMs). */
export function idleGaps(s: TimelineState): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const n = s.density.length;
  if (n === 0 || s.span <= 0) return out;
  let from = -1;
  for (let k = 0; k <= n; k++) {
    const idle = k < n && s.density[k] === 0;
    if (idle && from < 0) from = k;
    if (!idle && from >= 0) out.push([(from / n) * s.span, (k / n) * s.span]), (from = -1);
  }
  return out;
}

/** The time axis: ticks at round steps with their times along the top, grid lines below. */
export function drawAxis(ctx: CanvasRenderingContext2D, w: number, h: number, s: TimelineState, c: Colours): void {
  const width = s.viewEnd - s.viewStart;
  const step = niceStep(width / Math.max(1, w / 90));
  ctx.font = '10px sans-serif';
  ctx.textBaseline = 'middle';
  for (let t = Math.ceil(s.viewStart / step) * step; t <= s.viewEnd; t += step) {
    const x = Math.round(xOf(s, w, t)) + 0.5;
    ctx.fillStyle = c.idle;
    ctx.fillRect(x, AXIS, 1, h - AXIS);
    ctx.fillStyle = c.dim;
    ctx.fillText(t === 0 ? '0' : fmtMs(t), x + 3, AXIS / 2);
  }
}

/** A round step (1, 2 or 5 times a power of ten) of at least `raw` ms, for axis ticks. */
export function niceStep(raw: number): number {
  const p = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-3)));
  for (const m of [1, 2, 5, 10]) if (p * m >= raw) return p * m;
  return p * 10;
}

function drawMain(ctx: CanvasRenderingContext2D, w: number, h: number, s: TimelineState, c: Colours): void {
  ctx.globalAlpha = 0.5;
  ctx.fillStyle = c.idle;
  for (const [a, b] of idleGaps(s)) ctx.fillRect(xOf(s, w, a), AXIS, Math.max(1, xOf(s, w, b) - xOf(s, w, a)), h - AXIS);
  ctx.globalAlpha = 1;
  drawAxis(ctx, w, h, s, c);
  ctx.font = '11px sans-serif';
  const last = Math.min(s.total, s.top + s.rows + 1);
  for (let b = s.top; b < last; b++) {
    const bar = s.bars.get(b);
    if (!bar) continue;
    const y = AXIS + (b - s.top) * ROW;
    if (bar.node === s.selectedNode) {
      ctx.fillStyle = c.select;
      ctx.fillRect(0, y, w, ROW);
    }
    const x = xOf(s, w, bar.start);
    const colour = bar.status === 2 ? c.error : bar.status === 1 ? c.warning : bar.critical ? c.critical : c.bar;
    ctx.fillStyle = colour;
    let end = x + 2;
    if (bar.dur < 0) {
      // An instant event: a tick with a small diamond head.
      ctx.fillRect(x - 1, y + 3, 2, ROW - 6);
      ctx.beginPath();
      ctx.moveTo(x, y + 2); ctx.lineTo(x + 4, y + 6); ctx.lineTo(x, y + 10); ctx.lineTo(x - 4, y + 6); ctx.fill();
    } else {
      const bw = Math.max(1, xOf(s, w, bar.start + bar.dur) - x);
      ctx.fillRect(x, y + 4, bw, ROW - 8);
      if (bar.critical) {
        ctx.strokeStyle = c.critical;
        ctx.lineWidth = 2;
        ctx.strokeRect(x, y + 3, bw, ROW - 6);
      }
      end = x + bw;
    }
    if (b === s.focusBar) {
      ctx.strokeStyle = c.focus;
      ctx.lineWidth = 1;
      ctx.strokeRect(0.5, y + 0.5, w - 1, ROW - 1);
    }
    ctx.fillStyle = c.fg;
    ctx.textBaseline = 'middle';
    // Canvas text cannot hold the marker spans the DOM views use: bidi and control characters are drawn as
    // `[U+202E]`, as tooltips show them, so an override cannot reorder the label (`invoice_\u202Efdp.exe`).
    const label = visibleText(bar.label);
    const text = label.length > 120 ? `${label.slice(0, 119)}…` : label;
    // After the bar when it fits, else inside it from its left edge (or the canvas's, when it starts off screen).
    const tw = Math.min(textWidth(ctx, text), 160);
    if (w - (end + 4) >= tw) ctx.fillText(text, end + 4, y + ROW / 2);
    else if (end - x >= tw + 8) ctx.fillText(text, Math.max(4, x + 4), y + ROW / 2);
    else {
      // Near the right edge with no room inside: before the bar, right-aligned.
      ctx.textAlign = 'right';
      ctx.fillText(text, Math.max(tw, x - 6), y + ROW / 2);
      ctx.textAlign = 'left';
    }
  }
}

const widths = new Map<string, number>();

/** The label's width in the bars' font, measured once per label (a few thousand kept). */
function textWidth(ctx: CanvasRenderingContext2D, text: string): number {
  let w = widths.get(text);
  if (w === undefined) {
    if (widths.size > 5000) widths.clear();
    widths.set(text, (w = ctx.measureText(text).width));
  }
  return w;
}

function drawMinimap(ctx: CanvasRenderingContext2D, w: number, h: number, s: TimelineState, c: Colours): void {
  const n = s.density.length;
  const max = Math.max(1, ...s.density);
  ctx.fillStyle = c.bar;
  for (let k = 0; k < n; k++) {
    const bh = (s.density[k] / max) * (h - 2);
    ctx.fillRect((k / n) * w, h - bh, Math.max(1, w / n), bh);
  }
  const span = Math.max(1, s.span);
  const a = (s.viewStart / span) * w, b = (s.viewEnd / span) * w;
  ctx.strokeStyle = c.focus;
  ctx.lineWidth = 1;
  ctx.strokeRect(Math.max(0.5, a), 0.5, Math.max(2, Math.min(w, b) - Math.max(0, a)), h - 1);
}
