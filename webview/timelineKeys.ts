/**
 * The timeline canvas's keyboard (issue 40): ↑/↓, Page Up/Down, Home and End move between rows; Enter selects the
 * event; + and − zoom, 0 (or f) fits the run; Shift+←/→ pan; ← and → collapse and expand a subtree, and ← on a
 * leaf goes to its parent row; Escape hides the tooltip.
 */
import type { Bar } from './timelineDraw';

/** What the keys act on: the view's rows and its moves. */
export interface KeyTarget {
  rows(): number;
  total(): number;
  focusBar(): number;
  bar(row: number): Bar | undefined;
  focusOn(row: number): void;
  reveal(node: number): void;
  zoom(factor: number): void;
  fit(): void;
  /** Pans by a fraction of the visible span (negative: to the left). */
  pan(fraction: number): void;
  toggle(row: number, collapse: boolean): void;
  hideTip(): void;
  /** Redraws, the tooltip following the focus. */
  drawFocused(): void;
}

/** Handles one keydown on the canvas. */
export function onTimelineKey(e: KeyboardEvent, t: KeyTarget): void {
  const rows = t.rows();
  const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: rows, PageUp: -rows, Home: -Infinity, End: Infinity };
  const focus = t.focusBar();
  const bar = t.bar(focus);
  if (e.key in moves) t.focusOn(Math.max(0, Math.min(t.total() - 1, focus + moves[e.key])));
  else if (e.key === 'Enter') {
    if (bar) t.reveal(bar.node);
  } else if (e.key === '+' || e.key === '=') return e.preventDefault(), t.zoom(0.5);
  else if (e.key === '-' || e.key === '_') return e.preventDefault(), t.zoom(2);
  else if (e.key === '0' || e.key === 'f') return e.preventDefault(), t.fit();
  else if ((e.key === 'ArrowLeft' || e.key === 'ArrowRight') && e.shiftKey) t.pan(e.key === 'ArrowLeft' ? -0.2 : 0.2);
  else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
    e.preventDefault();
    const collapse = e.key === 'ArrowLeft';
    if (bar && (bar.size ?? 0) > 0 && collapse !== bar.collapsed) return t.toggle(focus, collapse);
    if (collapse && bar) for (let r = focus - 1; r >= 0; r--) {
      const p = t.bar(r);
      if (p && p.depth < bar.depth) {
        t.focusOn(r);
        break;
      }
    }
  } else if (e.key === 'Escape') return t.hideTip();
  else return;
  e.preventDefault();
  t.drawFocused();
}
