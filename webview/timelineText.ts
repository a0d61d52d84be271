/**
 * The timeline's words (issue 40): the summary line under its tools (what is not drawn as rows, and what the
 * colours mean) and the visually hidden list of the rows on screen that screen readers read (textContent only;
 * bidi and control characters as visible markers).
 */
import { clear, el, setText } from './dom';
import { Bar, TimelineState, xOf } from './timelineDraw';
import { describeTime, flagsOf } from './timelineTip';

/** What the slice says of the run besides its rows: the summary line. */
export interface RunFacts { hidden: number; bookkeeping: { kind: string; count: number }[]; folded: number; anyCritical: boolean }

/** Fills `summary` with the bookkeeping and folded counts, the filter's hidden count and the legend. */
export function renderSummary(summary: HTMLElement, facts: RunFacts): void {
  clear(summary);
  const parts: string[] = [];
  const books = facts.bookkeeping.reduce((n, k) => n + k.count, 0);
  if (books > 0) {
    const top = facts.bookkeeping.slice(0, 4).map((k) => `${k.count.toLocaleString('en-US')} ${k.kind}`).join(', ');
    parts.push(`${books.toLocaleString('en-US')} bookkeeping line${books === 1 ? '' : 's'} not drawn (${top}${facts.bookkeeping.length > 4 ? ', …' : ''})`);
  }
  if (facts.folded > 0) parts.push(`${facts.folded.toLocaleString('en-US')} result${facts.folded === 1 ? '' : 's'} drawn on their calls`);
  const text = el('span', { class: 'timeline-summary-text' });
  setText(text, parts.join(' · '));
  const hidden = el('span', { class: 'timeline-hidden' });
  if (facts.hidden > 0) setText(hidden, `${facts.hidden.toLocaleString('en-US')} hidden by filter`);
  const key = (cls: string, label: string): HTMLElement => el('span', { class: 'timeline-key' }, el('span', { class: `timeline-swatch ${cls}` }), label);
  const legend = el('span', { class: 'timeline-legend', attrs: { 'aria-label': 'Legend' } }, key('model', 'model call'), key('tool', 'tool call'), key('other', 'other'), key('error', 'error'));
  if (facts.anyCritical) legend.append(key('critical', 'critical path'));
  summary.append(legend, hidden, text);
}

/** Rebuilds the hidden list with rows [s.top, last) of the cached bars. */
export function rebuildRowList(list: HTMLElement, bars: Map<number, Bar>, s: TimelineState, last: number): void {
  clear(list);
  for (let b = s.top; b < last; b++) {
    const bar = bars.get(b);
    if (!bar) continue;
    const li = el('li', { attrs: { 'data-node': String(bar.node), 'data-bar': String(b), 'data-depth': String(bar.depth) } });
    const flags = [`level ${bar.depth + 1}`, flagsOf(bar), bar.node === s.selectedNode ? 'selected' : ''].filter(Boolean).join(', ');
    setText(li, `${bar.label}, ${describeTime(bar)}${bar.facts ? `, ${bar.facts}` : ''}${flags ? `, ${flags}` : ''}`);
    list.appendChild(li);
  }
}

/** Marks each listed row with its bar's x and whether some of it is on screen; returns how many are. */
export function markOnScreen(list: HTMLElement, bars: Map<number, Bar>, s: TimelineState, width: number): number {
  let drawn = 0;
  for (const li of list.children as HTMLCollectionOf<HTMLElement>) {
    const bar = bars.get(Number(li.dataset.bar));
    if (!bar) continue;
    const x = xOf(s, width, bar.start);
    const end = bar.dur < 0 ? x : xOf(s, width, bar.start + bar.dur);
    li.dataset.x = String(Math.round(x));
    // On screen: some of it right of the name column and left of the edge.
    const on = end >= s.nameWidth! - 1 && x <= width + 1;
    li.dataset.onScreen = String(on);
    if (on) drawn++;
  }
  return drawn;
}
