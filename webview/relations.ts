/**
 * The detail pane's lists of related events: the event's children (the first few, with how many more) and
 * the other events that mention its id. Each entry jumps to its event.
 */
import type { EventDetail, EventSummary } from '../src/protocol';
import { el, icon } from './dom';
import { formatInt } from './format';

/** Renders the lists, or null when the event has neither children nor mentions. */
export function renderRelations(d: EventDetail, reveal: (node: number) => void): HTMLElement | null {
  const nav = d.nav;
  if (!nav || (nav.children.length === 0 && nav.mentionedBy.length === 0)) return null;
  const box = el('div', { class: 'relations' });
  if (nav.children.length > 0) box.appendChild(list('children', `Children (${formatInt(d.childCount)})`, nav.children, d.childCount, reveal));
  if (nav.mentionedBy.length > 0) box.appendChild(list('mentioned-by', `Mentioned by (${formatInt(nav.mentionedByTotal)})`, nav.mentionedBy, nav.mentionedByTotal, reveal));
  return box;
}

function list(cls: string, title: string, items: EventSummary[], total: number, reveal: (node: number) => void): HTMLElement {
  const section = el('section', { class: `relation-list ${cls}`, attrs: { 'aria-label': title } }, el('h3', { class: 'section-title', text: title }));
  const ul = el('ul', { class: 'relation-items' });
  for (const s of items) {
    const b = el(
      'button',
      { class: `relation-item link-button status-${s.status}`, title: `${s.kind} · line ${s.line}${s.id ? ` · ${s.id}` : ''}`, attrs: { type: 'button' } },
      el('span', { class: 'relation-label', text: s.label || s.kind }),
      el('span', { class: 'relation-line', text: `line ${formatInt(s.line)}` }),
    );
    b.addEventListener('click', () => reveal(s.node));
    ul.appendChild(el('li', {}, b));
  }
  section.appendChild(ul);
  if (total > items.length) section.appendChild(el('p', { class: 'relation-more' }, icon('ellipsis'), ` and ${formatInt(total - items.length)} more`));
  return section;
}
