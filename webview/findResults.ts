/** Find's result list: each match's line and label, and for blob matches the text around the match, marked. */
import type { FindResultItem, FindResultsMessage } from '../src/protocol';
import { el, setText } from './dom';
import { formatInt } from './format';

/** Fills `list` with the results; `reveal` is called with a result's node on click or Enter. */
export function renderFindResults(list: HTMLElement, r: FindResultsMessage, reveal: (node: number) => void): void {
  list.textContent = '';
  const items = r.results ?? [];
  for (const item of items) list.appendChild(resultRow(item, reveal));
  if (r.total > items.length) list.appendChild(el('div', { class: 'find-results-more', text: `${formatInt(r.total - items.length)} more: step with Enter` }));
}

function resultRow(item: FindResultItem, reveal: (node: number) => void): HTMLElement {
  const row = el('div', { class: `find-result find-result-${item.where}`, attrs: { role: 'option', tabindex: '0', 'data-node': String(item.node) } });
  const head = el('div', { class: 'find-result-head' });
  head.append(el('span', { class: 'find-result-line', text: `${item.line}` }), el('span', { class: 'find-result-label' }));
  setText(head.lastChild as Element, item.label);
  row.appendChild(head);
  if (item.where === 'blob' && item.snippet !== undefined) {
    const snip = el('div', { class: 'find-result-snippet' });
    snip.appendChild(el('span', { class: 'find-result-field', text: `${item.field ?? 'blob'}: ` }));
    const at = item.at ?? 0;
    const len = item.length ?? 0;
    const before = el('span', {});
    const mark = el('mark', { class: 'find-match' });
    const after = el('span', {});
    setText(before, oneLine(item.snippet.slice(0, at)));
    setText(mark, oneLine(item.snippet.slice(at, at + len)));
    setText(after, oneLine(item.snippet.slice(at + len)));
    snip.append(before, mark, after);
    row.appendChild(snip);
  }
  row.addEventListener('click', () => reveal(item.node));
  row.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') reveal(item.node);
  });
  return row;
}

/** Newlines and tabs in a snippet shown as spaces, so each result stays one line. */
function oneLine(s: string): string {
  return s.replace(/[\r\n\t]+/g, ' ');
}
