/**
 * A separator that resizes something by drag or keyboard (WAI-ARIA "window splitter"): focusable, ←/→ move
 * it by 16 px (Shift: 64 px), Home/End to the limits, Enter or a double click resets it. The size is the
 * caller's: `get` reads it, `set` applies it, `commit` keeps it once a drag or key press ends.
 */
import { el } from './dom';

/** What a splitter resizes. */
export interface SplitterTarget {
  label: string;
  /** Current size in pixels. */
  get(): number;
  /** Applies a size (already clamped to [min, max]). */
  set(px: number): void;
  min(): number;
  max(): number;
  /** The user finished moving it: remember this size (null after a reset). */
  commit(px: number | null): void;
  /** Back to the default size. */
  reset(): void;
}

const STEP = 16;
const BIG_STEP = 64;

/** Creates the separator element (see the file comment). */
export function makeSplitter(t: SplitterTarget, className: string): HTMLElement {
  const h = el('div', { class: `splitter ${className}`, attrs: { role: 'separator', tabindex: '0', 'aria-orientation': 'vertical', 'aria-label': t.label }, title: `${t.label}: drag, or ←/→ with the keyboard; double-click resets` });
  const apply = (px: number) => {
    const v = Math.round(Math.max(t.min(), Math.min(t.max(), px)));
    t.set(v);
    h.setAttribute('aria-valuenow', String(v));
    h.setAttribute('aria-valuemin', String(Math.round(t.min())));
    h.setAttribute('aria-valuemax', String(Math.round(t.max())));
    return v;
  };
  h.addEventListener('keydown', (e) => {
    const step = e.shiftKey ? BIG_STEP : STEP;
    const to: Record<string, () => number> = { ArrowLeft: () => t.get() - step, ArrowRight: () => t.get() + step, Home: () => t.min(), End: () => t.max() };
    if (e.key === 'Enter') {
      e.preventDefault();
      t.reset();
      t.commit(null);
      return;
    }
    if (!to[e.key]) return;
    e.preventDefault();
    e.stopPropagation();
    t.commit(apply(to[e.key]()));
  });
  h.addEventListener('dblclick', () => {
    t.reset();
    t.commit(null);
  });
  h.addEventListener('pointerdown', (e) => {
    e.preventDefault();
    h.setPointerCapture(e.pointerId);
    h.classList.add('dragging');
    const x0 = e.clientX;
    const size0 = t.get();
    const move = (m: PointerEvent) => apply(size0 + m.clientX - x0);
    const up = (u: PointerEvent) => {
      h.removeEventListener('pointermove', move);
      h.removeEventListener('pointerup', up);
      h.classList.remove('dragging');
      t.commit(apply(size0 + u.clientX - x0));
    };
    h.addEventListener('pointermove', move);
    h.addEventListener('pointerup', up);
  });
  return h;
}
