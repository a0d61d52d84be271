/** The compare view's detail pane: the fields that differ, then both events and their conversations side by side. */
import type { CompareDetail, CompareEventDetail } from '../../src/protocol/compare';
import { clear, el } from '../dom';
import { formatDuration } from '../format';

const OP_TITLES = { equal: 'Equal', insert: 'Only in B (inserted)', delete: 'Only in A (deleted)', change: 'Changed' } as const;

function shown(v: unknown): string {
  return v === undefined ? '(absent)' : JSON.stringify(v);
}

function signed(n: number | null, unit: string, fmt: (x: number) => string = String): string | null {
  if (n === null || n === 0) return null;
  return `${unit} ${n > 0 ? '+' : '-'}${fmt(Math.abs(n))}`;
}

function fieldTable(d: CompareDetail): HTMLElement {
  if (d.fields.length === 0) return el('p', { class: 'compare-note', text: d.op === 'change' ? 'The events differ only in fields the comparison leaves out.' : 'No field differences.' });
  const rows = d.fields.map((f) => el('tr', {},
    el('td', { class: 'field-path', text: f.path }),
    el('td', { class: f.a === undefined ? 'field-absent' : 'field-a', text: shown(f.a) }),
    el('td', { class: f.b === undefined ? 'field-absent' : 'field-b', text: shown(f.b) })));
  const table = el('table', { class: 'field-diff' }, el('thead', {}, el('tr', {}, el('th', { text: 'Field' }), el('th', { text: 'A' }), el('th', { text: 'B' }))), el('tbody', {}, ...rows));
  return d.fieldsOmitted > 0 ? el('div', {}, table, el('p', { class: 'compare-note', text: `… ${d.fieldsOmitted} more fields` })) : table;
}

function eventColumn(title: string, e: CompareEventDetail | null, part: 'json' | 'messages'): HTMLElement {
  const col = el('div', { class: 'compare-col' }, el('div', { class: 'compare-col-title', text: e ? `${title} · line ${e.line} · ${e.kind}` : `${title}: no event` }));
  if (!e) return col;
  if (part === 'json') col.append(el('pre', { class: 'compare-json', text: e.json }));
  else if (e.messages.length === 0) col.append(el('p', { class: 'compare-note', text: 'No conversation in this event.' }));
  else col.append(el('ol', { class: 'compare-messages' }, ...e.messages.map((m) => el('li', { text: m }))));
  return col;
}

/** Fills `root` with the detail of one row. All trace text goes in as text nodes. */
export function renderCompareDetail(root: HTMLElement, d: CompareDetail): void {
  clear(root);
  const facts = [OP_TITLES[d.op], signed(d.durationDeltaMs, 'duration', formatDuration), signed(d.tokensDelta, 'tokens')].filter((x): x is string => x !== null);
  root.append(
    el('div', { class: `compare-detail-title op-${d.op}`, text: facts.join(' · ') }),
    el('h3', { text: 'Differences' }),
    fieldTable(d),
    el('h3', { text: 'Conversation' }),
    el('div', { class: 'compare-cols' }, eventColumn('A', d.a, 'messages'), eventColumn('B', d.b, 'messages')),
    el('h3', { text: 'Events' }),
    el('div', { class: 'compare-cols' }, eventColumn('A', d.a, 'json'), eventColumn('B', d.b, 'json')),
  );
}
