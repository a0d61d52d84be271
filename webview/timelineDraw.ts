/**
 * Canvas drawing of the Timeline tab: the time axis, idle gaps, bars (ticks for instant events), the critical
 * path, the focused and selected bar, and the minimap. Colours come from the theme's CSS variables, read per
 * draw so a theme change shows on the next frame. Canvas text is drawn as pixels, so labels cannot be markup.
 */
import { visibleText } from './dom';

const ROW = 20;
const AXIS = 18;

/** One bar as the webview caches it. */
export interface Bar {
  node: number; start: number; dur: number; depth: number; status: number; critical: boolean; label: string;
  /** A call without its result: drawn to the run's end, faded. */
  open?: boolean;
  /** 0 other, 1 model call, 2 tool call. */
  kind?: number;
  /** Session part (0 main file, k a subagent's): the lane stripe. */
  lane?: number;
  /** Bars under it; collapsed: they are not rows. */
  size?: number;
  collapsed?: boolean;
  /** Model, tokens, cost, duration. */
  facts?: string;
}

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
  /** Width of the name column: the time axis starts right of it (0: none). */
  nameWidth?: number;
}

/** x of a time in a canvas `width` pixels wide. */
export function xOf(s: TimelineState, width: number, ms: number): number {
  const [left, right] = timeArea(s, width);
  return left + ((ms - s.viewStart) / (s.viewEnd - s.viewStart)) * (right - left);
}

/**
 * Where the time axis runs, [left, right) in pixels: right of the name column with a few pixels' margin on both
 * sides, so a tick at the run's first start or last end is drawn whole when it is fitted (no name column: the whole width).
 */
export function timeArea(s: TimelineState, width: number): [number, number] {
  return s.nameWidth === undefined ? [0, width] : [s.nameWidth + 8, Math.max(s.nameWidth + 9, width - 10)];
}

/** ms as the viewer writes durations. */
export function fmtMs(ms: number): string {
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** The theme colours the timeline draws with (exported for the compare view's timeline of two runs). */
export interface Colours { fg: string; dim: string; bar: string; error: string; warning: string; critical: string; focus: string; idle: string; select: string; model: string; tool: string; other: string; border: string; lanes: string[] }

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
    model: cssVar('--vscode-charts-purple', '#b180d7'), tool: cssVar('--vscode-charts-blue', '#3794ff'), other: cssVar('--vscode-descriptionForeground', '#999'),
    // High Contrast themes set a contrast border: bars get it as an outline.
    border: cssVar('--vscode-contrastBorder', ''),
    lanes: [cssVar('--vscode-charts-green', '#89d185'), cssVar('--vscode-charts-yellow', '#cca700'), cssVar('--vscode-charts-orange', '#d18616'), cssVar('--vscode-charts-red', '#f14c4c')],
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
  ctx.font = '10px sans-serif';
  ctx.textBaseline = 'middle';
  const left = s.nameWidth ?? 0;
  const step = niceStep(width / Math.max(1, (w - left) / 90));
  for (let t = Math.ceil(s.viewStart / step) * step; t <= s.viewEnd; t += step) {
    const x = Math.round(xOf(s, w, t)) + 0.5;
    if (x < left) continue;
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

/** Where the name column's expand/collapse triangle of a row at `depth` sits, and the indentation of its name. */
export function indentOf(depth: number, nameWidth: number): number {
  return 8 + Math.min(depth * 12, Math.max(0, nameWidth - 90));
}

function drawMain(ctx: CanvasRenderingContext2D, w: number, h: number, s: TimelineState, c: Colours): void {
  const left = s.nameWidth ?? 0;
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, 0, w - left, h);
  ctx.clip();
  // Faint: in High Contrast the idle colour is the contrast border, and half of it flooded the grid.
  ctx.globalAlpha = c.border ? 0.12 : 0.3;
  ctx.fillStyle = c.idle;
  for (const [a, b] of idleGaps(s)) ctx.fillRect(xOf(s, w, a), AXIS, Math.max(1, xOf(s, w, b) - xOf(s, w, a)), h - AXIS);
  ctx.globalAlpha = 1;
  ctx.restore();
  drawAxis(ctx, w, h, s, c);
  ctx.font = '11px sans-serif';
  ctx.textBaseline = 'middle';
  const last = Math.min(s.total, s.top + s.rows + 1);
  for (let r = s.top; r < last; r++) {
    const bar = s.bars.get(r);
    if (!bar) continue;
    const y = AXIS + (r - s.top) * ROW;
    if (bar.node === s.selectedNode) {
      ctx.fillStyle = c.select;
      ctx.fillRect(0, y, w, ROW);
    }
    if (left > 0) drawName(ctx, bar, y, left, c);
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, y, w - left, ROW);
    ctx.clip();
    drawBar(ctx, w, s, bar, y, c);
    ctx.restore();
    if (r === s.focusBar) {
      ctx.strokeStyle = c.focus;
      ctx.lineWidth = 1;
      ctx.strokeRect(0.5, y + 0.5, w - 1, ROW - 1);
    }
  }
  if (left > 0) {
    ctx.fillStyle = c.idle;
    ctx.fillRect(left - 1, 0, 1, h);
    ctx.fillStyle = c.dim;
    ctx.font = '10px sans-serif';
    ctx.fillText('Name', 8, AXIS / 2);
  }
}

/** A row's name in the name column: lane stripe, indentation, the expand/collapse triangle, the label cut to fit. */
function drawName(ctx: CanvasRenderingContext2D, bar: Bar, y: number, left: number, c: Colours): void {
  if (bar.lane) {
    ctx.fillStyle = c.lanes[(bar.lane - 1) % c.lanes.length];
    ctx.fillRect(0, y + 2, 3, ROW - 4);
  }
  const x = indentOf(bar.depth, left);
  ctx.font = '11px sans-serif';
  if (bar.size && bar.size > 0) {
    ctx.fillStyle = c.dim;
    ctx.beginPath();
    const cy = y + ROW / 2;
    if (bar.collapsed) (ctx.moveTo(x, cy - 4), ctx.lineTo(x + 6, cy), ctx.lineTo(x, cy + 4));
    else (ctx.moveTo(x - 1, cy - 3), ctx.lineTo(x + 7, cy - 3), ctx.lineTo(x + 3, cy + 3));
    ctx.fill();
  }
  ctx.fillStyle = bar.status === 2 ? c.error : c.fg;
  // Canvas text cannot hold the marker spans the DOM views use: bidi and control characters are drawn as
  // `[U+202E]`, as tooltips show them, so an override cannot reorder the label (`invoice_\u202Efdp.exe`).
  const text = fitText(ctx, visibleText(bar.label), left - (x + 12) - 6);
  if (text) ctx.fillText(text, x + 12, y + ROW / 2);
}

/** `text` cut with an ellipsis to at most `room` pixels ('' when not even a letter fits). */
function fitText(ctx: CanvasRenderingContext2D, text: string, room: number): string {
  const t = text.length > 200 ? `${text.slice(0, 199)}…` : text;
  if (room < 12) return '';
  if (textWidth(ctx, t) <= room) return t;
  let lo = 0, hi = t.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (textWidth(ctx, `${t.slice(0, mid)}…`) <= room) lo = mid;
    else hi = mid - 1;
  }
  return lo > 0 ? `${t.slice(0, lo)}…` : '';
}

/** A row's bar (a tick for an instant), with its facts beside it where there is room. */
function drawBar(ctx: CanvasRenderingContext2D, w: number, s: TimelineState, bar: Bar, y: number, c: Colours): void {
  const left = s.nameWidth ?? 0;
  const x = xOf(s, w, bar.start);
  const colour = bar.status === 2 ? c.error : bar.status === 1 ? c.warning : bar.kind === 1 ? c.model : bar.kind === 2 ? c.tool : c.other;
  ctx.fillStyle = colour;
  let end = x + 5;
  let from = x - 5;
  if (bar.dur < 0) {
    // An instant event: a tick with a small diamond head.
    ctx.fillRect(x - 1, y + 3, 2, ROW - 6);
    ctx.beginPath();
    ctx.moveTo(x, y + 2); ctx.lineTo(x + 4, y + 6); ctx.lineTo(x, y + 10); ctx.lineTo(x - 4, y + 6); ctx.fill();
  } else {
    const bw = Math.max(2, xOf(s, w, bar.start + bar.dur) - x);
    if (bar.open) {
      // No result in the trace: a faded bar to the run's end with a dashed outline.
      ctx.globalAlpha = 0.35;
      ctx.fillRect(x, y + 4, bw, ROW - 8);
      ctx.globalAlpha = 1;
      ctx.strokeStyle = colour;
      ctx.setLineDash([3, 3]);
      ctx.lineWidth = 1;
      ctx.strokeRect(x + 0.5, y + 4.5, bw - 1, ROW - 9);
      ctx.setLineDash([]);
    } else ctx.fillRect(x, y + 4, bw, ROW - 8);
    if (c.border) {
      ctx.strokeStyle = c.border;
      ctx.lineWidth = 1;
      ctx.strokeRect(x + 0.5, y + 4.5, bw - 1, ROW - 9);
    }
    if (bar.critical) {
      ctx.strokeStyle = c.critical;
      ctx.lineWidth = 2;
      ctx.strokeRect(x, y + 3, bw, ROW - 6);
    }
    end = x + bw;
    from = x;
  }
  // Facts name the model: trace text, drawn with its bidi and control characters as markers like the name.
  const facts = visibleText(bar.facts ?? '');
  if (!facts) return;
  ctx.fillStyle = c.dim;
  ctx.font = '10px sans-serif';
  const tw = textWidth(ctx, facts);
  // After the bar when it fits, else before it, right-aligned.
  if (w - (end + 6) >= tw) ctx.fillText(facts, end + 6, y + ROW / 2);
  else if (from - 6 - left >= tw) {
    ctx.textAlign = 'right';
    ctx.fillText(facts, from - 6, y + ROW / 2);
    ctx.textAlign = 'left';
  }
  ctx.font = '11px sans-serif';
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
  // What is active everywhere (the run's and its agents' own spans) is the floor: the strip shows where more is
  // going on, not a solid band of "something runs".
  let floor = Infinity;
  let max = 0;
  for (const d of s.density) {
    floor = Math.min(floor, d);
    max = Math.max(max, d);
  }
  ctx.fillStyle = c.bar;
  if (n > 0 && max > floor) {
    ctx.beginPath();
    ctx.moveTo(0, h);
    for (let k = 0; k < n; k++) {
      const y = h - ((s.density[k] - floor) / (max - floor)) * (h - 2);
      ctx.lineTo((k / n) * w, y);
      ctx.lineTo(((k + 1) / n) * w, y);
    }
    ctx.lineTo(w, h);
    ctx.closePath();
    ctx.fill();
  }
  const span = Math.max(1, s.span);
  const a = (s.viewStart / span) * w, b = (s.viewEnd / span) * w;
  ctx.strokeStyle = c.focus;
  ctx.lineWidth = 1;
  ctx.strokeRect(Math.max(0.5, a), 0.5, Math.max(2, Math.min(w, b) - Math.max(0, a)), h - 1);
}
