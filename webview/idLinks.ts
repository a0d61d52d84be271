/**
 * Ids in the detail pane are links: hovering shows a card with the event the id names (kind, label, time,
 * status, or "not in this trace"); clicking jumps there. The host answers `resolveId` from its id index.
 */
import type { EventSummary, IdInfoMessage } from '../src/protocol';
import { el, icon } from './dom';
import { formatTime } from './format';

const HOVER_DELAY_MS = 350;

/** See the file comment. */
export class IdLinks {
  private readonly cache = new Map<string, IdInfoMessage>();
  private readonly card = el('div', { class: 'hover-card', attrs: { role: 'tooltip' } });
  private timer = 0;

  constructor(private readonly resolve: (id: string, onReply: (m: IdInfoMessage) => void) => void, private readonly jump: (target: EventSummary) => void) {
    this.card.hidden = true;
    document.body.appendChild(this.card);
  }

  /** Forgets answers (a new model may hold other events). */
  reset(): void {
    this.cache.clear();
  }

  /** A link for `id`. */
  link(id: string): HTMLElement {
    return this.attach(el('button', { class: 'id-link link-button', text: id, attrs: { type: 'button' } }), id);
  }

  /** Makes an existing element (a JSON value) a link for `id`: hover card, click to jump. */
  attach<E extends HTMLElement>(a: E, id: string): E {
    a.classList.add('id-link');
    a.dataset.id = id;
    if (!a.hasAttribute('tabindex') && a.tagName !== 'BUTTON') a.tabIndex = 0;
    a.setAttribute('aria-label', `${id}: go to the event it names`);
    const hover = () => {
      clearTimeout(this.timer);
      this.timer = window.setTimeout(() => this.lookup(id, (m) => this.showCard(a, m)), HOVER_DELAY_MS);
    };
    const leave = () => {
      clearTimeout(this.timer);
      this.card.hidden = true;
    };
    a.addEventListener('mouseenter', hover);
    a.addEventListener('focus', hover);
    a.addEventListener('mouseleave', leave);
    a.addEventListener('blur', leave);
    const go = (e: Event) => {
      e.stopPropagation();
      e.preventDefault();
      this.card.hidden = true;
      this.lookup(id, (m) => {
        if (m.target) this.jump(m.target);
        else this.showCard(a, m);
      });
    };
    a.addEventListener('click', go);
    if (a.tagName !== 'BUTTON') a.addEventListener('keydown', (e) => (e.key === 'Enter' || e.key === ' ') && go(e));
    return a;
  }

  private lookup(id: string, then: (m: IdInfoMessage) => void): void {
    const hit = this.cache.get(id);
    if (hit) return then(hit);
    this.resolve(id, (m) => {
      this.cache.set(m.id, m);
      then(m);
    });
  }

  private showCard(anchor: HTMLElement, m: IdInfoMessage): void {
    const c = this.card;
    c.replaceChildren();
    if (!m.target) c.append(el('div', { class: 'card-title' }, icon('question'), el('span', { class: 'card-id', text: ` ${m.id}` })), el('div', { class: 'card-note', text: 'Not in this trace.' }));
    else {
      const t = m.target;
      c.append(
        el('div', { class: `card-title status-${t.status}` }, el('span', { class: 'card-kind', text: t.kind }), el('span', { class: 'card-line', text: ` line ${t.line}` })),
        el('div', { class: 'card-label', text: t.label }),
        el('div', { class: 'card-note', text: [formatTime(t.time), t.status !== 'ok' ? t.status : ''].filter(Boolean).join(' · ') || 'no time' }),
      );
      if (m.via === 'mention') c.append(el('div', { class: 'card-note', text: `No event has this id; the first event that mentions it is shown.` }));
    }
    const n = m.mentionedByTotal;
    if (n > 0) c.append(el('div', { class: 'card-note card-mentions', text: `Mentioned by ${n}${m.target ? ' other' : ''} event${n === 1 ? '' : 's'}` }));
    if (m.target) c.append(el('div', { class: 'card-hint', text: 'Click to go there' }));
    const r = anchor.getBoundingClientRect();
    c.hidden = false;
    c.style.left = `${Math.max(4, Math.min(window.innerWidth - c.offsetWidth - 4, r.left))}px`;
    c.style.top = `${r.bottom + 4 + c.offsetHeight > window.innerHeight ? r.top - c.offsetHeight - 4 : r.bottom + 4}px`;
  }
}
