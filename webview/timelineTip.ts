/**
 * The timeline's tooltip (issue 40): what a row is, when it ran, its facts and flags, placed beside the mouse or
 * the keyboard focus and kept inside the timeline's body. Trace text reaches it only as text nodes.
 */
import { clear, el, setText } from './dom';
import { Bar, fmtMs } from './timelineDraw';

/** See the file comment. */
export class TimelineTip {
  readonly element = el('div', { class: 'timeline-tooltip', attrs: { role: 'tooltip', id: 'timeline-tooltip' } });

  /** Shows `bar`'s tooltip near `at` (pixels in `body`), flipped above when it would leave the body's bottom. */
  show(bar: Bar, at: { x: number; y: number }, body: HTMLElement): void {
    clear(this.element);
    const line = (cls: string, text: string): HTMLElement => {
      const d = el('div', { class: cls });
      setText(d, text);
      return d;
    };
    this.element.append(line('timeline-tip-title', bar.label), line('timeline-tip-when', describeTime(bar)));
    if (bar.facts) this.element.append(line('timeline-tip-facts', bar.facts));
    const flags = flagsOf(bar);
    if (flags) this.element.append(line('timeline-tip-flags', flags));
    this.element.classList.add('shown');
    const bw = body.clientWidth, bh = body.clientHeight;
    const tw = this.element.offsetWidth, th = this.element.offsetHeight;
    const x = Math.max(4, Math.min(at.x + 14, bw - tw - 4));
    const below = at.y + 18;
    const y = below + th > bh ? Math.max(4, at.y - th - 8) : below;
    this.element.style.left = `${x}px`;
    this.element.style.top = `${y}px`;
  }

  hide(): void {
    this.element.classList.remove('shown');
  }
}

/** When a bar ran, in words. */
export function describeTime(bar: Bar): string {
  if (bar.open) return `from ${fmtMs(bar.start)}, no result in the trace`;
  return bar.dur < 0 ? `at ${fmtMs(bar.start)}` : `from ${fmtMs(bar.start)} for ${fmtMs(bar.dur)}`;
}

/** A bar's flags, in words. */
export function flagsOf(bar: Bar): string {
  return [
    bar.status === 2 ? 'error' : bar.status === 1 ? 'warning' : '', bar.critical ? 'critical path' : '', bar.lane ? `subagent lane ${bar.lane}` : '',
    bar.collapsed ? `collapsed (${bar.size} below)` : '',
  ].filter(Boolean).join(', ');
}
