/**
 * The compare view's header: both files, the totals, and every control as a real button or checkbox (each
 * reachable with Tab, with a name for screen readers): previous / next change, trees or timeline, the timeline's
 * zoom, and the volatile-field toggle.
 */
import type { CompareInit } from '../../src/protocol/compare';
import type { DiffSummary } from '../../src/core/diff/diffTypes';
import { clear, el, iconButton } from '../dom';
import { formatDuration } from '../format';

/** Which of the two views of the aligned rows is shown. */
export type CompareMode = 'trees' | 'timeline';

/** What the header's controls do. */
export interface HeaderActions {
  jump(backwards: boolean): void;
  setMode(mode: CompareMode): void;
  zoom(how: 'in' | 'out' | 'all'): void;
  toggleVolatile(include: boolean): void;
}

function signed(n: number | null, fmt: (x: number) => string = String): string {
  if (n === null) return '?';
  return n === 0 ? '0' : `${n > 0 ? '+' : '-'}${fmt(Math.abs(n))}`;
}

function summaryText(s: DiffSummary): string {
  return `${s.equal} equal · ${s.inserted} inserted · ${s.deleted} deleted · ${s.changed} changed · duration ${signed(s.durationDeltaMs, formatDuration)} · tokens ${signed(s.tokensDelta)} · cost ${s.costDeltaUsd === null ? '?' : signed(s.costDeltaUsd, (x) => `$${x.toFixed(4)}`)}`;
}

function modeButton(mode: CompareMode, text: string, current: CompareMode, act: HeaderActions): HTMLButtonElement {
  const b = el('button', { class: 'compare-mode', text, attrs: { type: 'button', 'data-mode': mode, 'aria-pressed': String(mode === current) }, onClick: () => act.setMode(mode) });
  return b;
}

/** Fills the header for one diff; returns the zoom group, shown only with the timeline. */
export function renderCompareHeader(header: HTMLElement, m: CompareInit, mode: CompareMode, act: HeaderActions): HTMLElement {
  clear(header);
  const toggle = el('input', { attrs: { type: 'checkbox', id: 'compare-volatile' } });
  toggle.checked = m.includeVolatile;
  toggle.addEventListener('change', () => act.toggleVolatile(toggle.checked));
  const n = m.hunks.length;
  const first = m.firstDivergence < 0 ? 'equivalent: no differences' : `${n} change${n === 1 ? '' : 's'}`;
  const zoom = el('span', { class: 'compare-zoom', attrs: { role: 'group', 'aria-label': 'Timeline zoom' } },
    iconButton('zoom-in', 'Zoom in (+)', () => act.zoom('in')),
    iconButton('zoom-out', 'Zoom out (-)', () => act.zoom('out')),
    iconButton('screen-full', 'Whole runs (0)', () => act.zoom('all')));
  zoom.hidden = mode !== 'timeline';
  header.append(
    el('div', { class: 'compare-files' },
      el('span', { class: 'file-name', text: `A: ${m.a.name}`, title: `${m.a.path} (${m.a.format}, ${m.a.events} events)` }),
      el('span', { class: 'compare-arrow', text: '↔' }),
      el('span', { class: 'file-name', text: `B: ${m.b.name}`, title: `${m.b.path} (${m.b.format}, ${m.b.events} events)` })),
    el('div', { class: 'compare-summary', text: `${first} · ${summaryText(m.summary)}` }),
    el('div', { class: 'compare-tools' },
      iconButton('arrow-up', 'Previous change (Shift+F7)', () => act.jump(true)),
      iconButton('arrow-down', 'Next change (F7)', () => act.jump(false)),
      el('span', { class: 'compare-modes', attrs: { role: 'group', 'aria-label': 'Show' } }, modeButton('trees', 'Trees', mode, act), modeButton('timeline', 'Timeline', mode, act)),
      zoom,
      el('label', { class: 'compare-toggle' }, toggle, ' Compare ids, times and hashes')),
  );
  return zoom;
}
