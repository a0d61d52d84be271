/**
 * The compare view's header: both files, the totals, and every control as a real button or checkbox (each
 * reachable with Tab, with a name for screen readers): previous / next change, trees or timeline, the timeline's
 * zoom, and the volatile-field toggle.
 */
import type { CompareInit, CompareMalformed } from '../../src/protocol/compare';
import type { DiffSummary } from '../../src/core/diff/diffTypes';
import { clear, el, icon, iconButton } from '../dom';
import { formatDuration } from '../format';

/** Which of the two views of the aligned rows is shown. */
export type CompareMode = 'trees' | 'timeline';

/** What the header's controls do. */
export interface HeaderActions {
  jump(backwards: boolean): void;
  setMode(mode: CompareMode): void;
  zoom(how: 'in' | 'out' | 'all'): void;
  toggleVolatile(include: boolean): void;
  /** Shows or folds the rows that are the writers' bookkeeping on both sides. */
  showBookkeeping(show: boolean): void;
  /** Opens one run at a line (an unreadable line of the notice). */
  openLine(side: 'a' | 'b', line: number): void;
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

/**
 * The verdict before the totals: in how many places the runs differ (F7 goes from one to the next; a place is a run
 * of rows, which the totals then count row by row), or whether they are equivalent.
 */
function verdict(m: CompareInit): string {
  const n = m.hunks.length;
  if (m.firstDivergence >= 0) return `differ in ${n} place${n === 1 ? '' : 's'} (F7)`;
  // Every difference is in bookkeeping rows the view folds: say so, never "equivalent".
  if (m.differ && !m.bookkeeping.shown) return `differ only in ${m.bookkeeping.differing} bookkeeping row${m.bookkeeping.differing === 1 ? '' : 's'}`;
  // Events alike, but the lines that are not JSON differ: not equivalent (the CLI's diff exits 1 too).
  if (m.malformed?.firstDifference) return 'events equivalent, unreadable lines differ';
  return 'equivalent: no differences';
}

/** One run's unreadable lines: `A: 2 (lines 3, 7)`, each line a button that opens the run there. */
function malformedSide(name: 'A' | 'B', side: CompareMalformed['a'], open: (line: number) => void): HTMLElement {
  const out = el('span', { class: 'compare-malformed-side', attrs: { 'data-side': name.toLowerCase(), 'data-count': String(side.count) } }, `${name}: ${side.count === 0 ? 'none' : side.count}`);
  if (side.count === 0) return out;
  out.append(side.count === 1 ? ' (line ' : ' (lines ');
  side.lines.forEach((line, k) => {
    if (k > 0) out.append(', ');
    out.append(el('button', { class: 'link-button compare-malformed-line', text: String(line), title: `Open ${name} at line ${line}`, attrs: { type: 'button', 'data-line': String(line) }, onClick: () => open(line) }));
  });
  if (side.count > side.lines.length) out.append(`, … ${side.count - side.lines.length} more`);
  out.append(')');
  return out;
}

/** The notice of lines that are not JSON in either run: counts, lines, and whether they differ. */
function malformedNotice(m: CompareMalformed, act: HeaderActions): HTMLElement {
  const d = m.firstDifference;
  const where = (name: string, line: number | null) => (line === null ? `${name} has none there` : `line ${line} of ${name}`);
  const verdictText = d ? `They differ: ${where('A', d.aLine)} against ${where('B', d.bLine)}.` : 'Both runs have the same ones.';
  return el('div', { class: `compare-malformed${d ? ' compare-malformed-differ' : ''}`, attrs: { role: 'note', 'aria-label': 'Unreadable lines' } },
    icon('warning'),
    el('span', { class: 'compare-malformed-text' },
      'Lines that are not JSON (no row shows them): ',
      malformedSide('A', m.a, (line) => act.openLine('a', line)), ' · ',
      malformedSide('B', m.b, (line) => act.openLine('b', line)), `. ${verdictText}`));
}

/** Fills the header for one diff; returns the zoom group, shown only with the timeline. */
export function renderCompareHeader(header: HTMLElement, m: CompareInit, mode: CompareMode, act: HeaderActions): HTMLElement {
  clear(header);
  const toggle = el('input', { attrs: { type: 'checkbox', id: 'compare-volatile' } });
  toggle.checked = m.includeVolatile;
  toggle.addEventListener('change', () => act.toggleVolatile(toggle.checked));
  // The writers' bookkeeping rows, folded as in the tree: offered only when the runs have some.
  const bk = m.bookkeeping;
  const bookkeeping = el('input', { attrs: { type: 'checkbox', id: 'compare-bookkeeping' } });
  bookkeeping.checked = bk.shown;
  bookkeeping.addEventListener('change', () => act.showBookkeeping(bookkeeping.checked));
  const bookkeepingLabel = el('label', {
    class: 'compare-toggle compare-bookkeeping',
    title: 'Lines the agent writes for itself (queue operations, attachments, echoed events), hidden as in the tree',
  }, bookkeeping, ` Bookkeeping rows (${bk.rows}${bk.differing > 0 ? `, ${bk.differing} differ` : ''})`);
  bookkeepingLabel.hidden = bk.rows === 0;
  const first = verdict(m);
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
      bookkeepingLabel,
      el('label', { class: 'compare-toggle' }, toggle, ' Compare ids, times and hashes')),
    ...(m.malformed ? [malformedNotice(m.malformed, act)] : []),
  );
  return zoom;
}
