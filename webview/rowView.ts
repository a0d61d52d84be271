/** One row of the event tree: built once per pool slot, refilled as the list scrolls. */
import type { EventCategory, Severity } from '../src/core/model';
import type { RowData } from '../src/protocol';
import { el, highlighted, textNode, visibleText } from './dom';
import { formatDuration, formatOffset, formatTokens } from './format';

/** The codicon for each event category. */
export const CATEGORY_ICONS: Record<EventCategory, string> = {
  session: 'layers',
  run: 'run-all',
  task: 'tasklist',
  turn: 'comment-discussion',
  inference: 'sparkle',
  tool: 'tools',
  approval: 'pass',
  policy: 'shield',
  message: 'comment',
  span: 'pulse',
  error: 'error',
  other: 'circle-small',
};
const BADGE_ICONS: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'info' };
const INDENT_PX = 12;

let rowIds = 0;

/** A pooled row element; `onClick` says whether the twistie or the row was clicked. */
export function makeRowElement(onClick: (e: MouseEvent, part: 'twistie' | 'row') => void): HTMLElement {
  const twistie = el('span', { class: 'twistie codicon', attrs: { 'aria-hidden': 'true' } });
  const r = el(
    'div',
    { class: 'row', attrs: { role: 'treeitem', id: `row-${++rowIds}` } },
    el('span', { class: 'indent' }),
    twistie,
    el('span', { class: 'kind-icon codicon', attrs: { 'aria-hidden': 'true' } }),
    el('span', { class: 'label' }),
    el('span', { class: 'badge codicon', attrs: { 'aria-hidden': 'true' } }),
    el('span', { class: 'col col-duration' }),
    el('span', { class: 'col col-tokens' }),
    el('span', { class: 'col col-offset' }),
  );
  r.addEventListener('click', (e) => onClick(e, e.target === twistie ? 'twistie' : 'row'));
  return r;
}

/** How a row is drawn besides its data. */
export interface RowFlags {
  focused: boolean;
  listFocused: boolean;
  selected: boolean;
  query: string;
  /** Makes an id link (hover card, click jumps) of an element; without it ids in labels stay plain text. */
  idLink?: (a: HTMLElement, id: string) => HTMLElement;
}

/** Fills a pooled row with `data` (or a placeholder while its page loads). */
export function fillRow(r: HTMLElement, row: number, data: RowData | undefined, f: RowFlags): void {
  const [indent, twistie, kindIcon, label, badge, dur, tok, off] = Array.from(r.children) as HTMLElement[];
  r.dataset.row = String(row);
  r.classList.toggle('focused', f.focused);
  r.classList.toggle('list-focused', f.listFocused);
  r.classList.toggle('selected', f.selected);
  if (!data) {
    for (const c of Array.from(r.classList)) if (/^(status|cat)-/.test(c)) r.classList.remove(c);
    r.classList.remove('match', 'context', 'malformed', 'chained');
    r.classList.add('placeholder');
    r.removeAttribute('data-node');
    label.textContent = '…';
    drawnLabels.delete(label);
    twistie.className = 'twistie codicon';
    kindIcon.className = 'kind-icon codicon';
    badge.className = 'badge codicon';
    dur.textContent = tok.textContent = off.textContent = '';
    return;
  }
  r.classList.remove('placeholder');
  r.dataset.node = String(data.node);
  r.dataset.line = String(data.line);
  setModifier(r, 'status', data.status);
  setModifier(r, 'cat', data.category);
  r.classList.toggle('match', data.match === true);
  r.classList.toggle('context', data.context === true);
  r.classList.toggle('malformed', data.malformed === true);
  r.classList.toggle('chained', data.chained === true);
  r.setAttribute('aria-level', String(data.depth + 1));
  r.setAttribute('aria-selected', String(f.selected));
  if (data.hasChildren) r.setAttribute('aria-expanded', String(data.expanded));
  else r.removeAttribute('aria-expanded');
  indent.style.width = `${data.depth * INDENT_PX}px`;
  r.style.setProperty('--indent', `${data.depth * INDENT_PX}px`);
  twistie.className = `twistie codicon${data.hasChildren ? (data.expanded ? ' codicon-chevron-down' : ' codicon-chevron-right') : ''}`;
  kindIcon.className = `kind-icon codicon codicon-${data.malformed ? 'bracket-error' : CATEGORY_ICONS[data.category] ?? 'circle-small'}`;
  kindIcon.title = visibleText(data.kind);
  fillLabel(label, data, f);
  label.title = visibleText(`${data.label}\n${data.kind} · line ${data.line}`);
  badge.className = `badge codicon${data.badge ? ` codicon-${BADGE_ICONS[data.badge]} badge-${data.badge}` : ''}`;
  badge.title = data.badge ? `${data.badge}: see the Checks list` : '';
  dur.textContent = formatDuration(data.durationMs);
  tok.textContent = formatTokens(data.tokensIn, data.tokensOut);
  off.textContent = formatOffset(data.offsetMs);
}

/** What a label was last drawn from: rows refill on every scroll frame, and rebuilding would drop a hovered link. */
const drawnLabels = new WeakMap<HTMLElement, string>();

/** The label text with find matches marked and its id spans as id links (textContent only). */
function fillLabel(label: HTMLElement, data: RowData, f: RowFlags): void {
  const query = data.match ? f.query : '';
  const spans = f.idLink ? (data.idSpans ?? []) : [];
  const key = JSON.stringify([data.label, query, spans]);
  if (drawnLabels.get(label) === key) return;
  drawnLabels.set(label, key);
  label.textContent = '';
  const text = (s: string) => label.appendChild(query ? highlighted(s, query) : textNode(s));
  let at = 0;
  for (const s of spans) {
    if (s.start < at || s.end > data.label.length) continue;
    if (s.start > at) text(data.label.slice(at, s.start));
    const link = el('span', { class: 'row-id-link' });
    link.appendChild(query ? highlighted(data.label.slice(s.start, s.end), query) : textNode(data.label.slice(s.start, s.end)));
    f.idLink!(link, s.id);
    // One tab stop for the whole tree: links in rows are for the mouse; keyboard users have the detail pane.
    link.removeAttribute('tabindex');
    label.appendChild(link);
    at = s.end;
  }
  if (at < data.label.length || at === 0) text(data.label.slice(at));
}

function setModifier(r: HTMLElement, prefix: string, value: string): void {
  for (const c of Array.from(r.classList)) if (c.startsWith(`${prefix}-`) && c !== `${prefix}-${value}`) r.classList.remove(c);
  r.classList.add(`${prefix}-${value}`);
}
