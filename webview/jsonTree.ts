/**
 * A collapsible tree of a JSON value. Children are built when a branch is first opened, long strings are
 * cut with a "show more", and every node offers Copy Value and Copy Path. Keys and values are text nodes.
 */
import { cutText, el, iconButton, setText as setTraceText, TEXT_CHUNK } from './dom';
import { jsonPath } from './jsonPath';

const OPEN_DEPTH = 2;
const STRING_PREVIEW = 2000;
const CHILD_PAGE = 500;

/** What the tree needs from the app. */
export interface JsonTreeHost {
  copy(text: string): void;
  /** Ids are links to the events they name (hover card, click to jump). */
  decorateValue?(key: string, value: unknown, span: HTMLElement): void;
}

/** Renders `value` as a tree; an object's or array's members are the top level (no line for the root). */
export function renderJsonTree(value: unknown, host: JsonTreeHost): HTMLElement {
  const root = el('div', { class: 'json-tree', attrs: { role: 'tree', 'aria-label': 'JSON' } });
  if (typeof value === 'object' && value !== null && size(value) > 0) buildChildren(root, value, [], -1, host);
  else root.appendChild(node(null, value, [], 0, host));
  return root;
}

/** Opens or closes every branch already built, building closed ones up to a size budget. */
export function setAllOpen(root: HTMLElement, open: boolean): void {
  let budget = 5000;
  // An explicit queue, not recursion: a value nested thousands of levels deep must not overflow the stack.
  const queue: Element[] = [root];
  while (queue.length > 0 && budget > 0) {
    const n = queue.shift()!;
    for (const d of Array.from(n.querySelectorAll(':scope > .json-children > .json-node, :scope > .json-node'))) {
      if (budget-- <= 0) return;
      const t = d as HTMLElement & { setOpen?: (o: boolean) => void };
      t.setOpen?.(open);
      if (open) queue.push(d.querySelector(':scope > .json-children') ?? d);
    }
  }
}

/** The value as pretty JSON for the clipboard; a value too deep for `JSON.stringify` says so instead of throwing. */
function copyText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return '(too deeply nested to copy as JSON)';
  }
}

function node(key: string | number | null, value: unknown, path: (string | number)[], depth: number, host: JsonTreeHost): HTMLElement {
  const branch = typeof value === 'object' && value !== null;
  const n = el('div', { class: 'json-node', attrs: { role: 'treeitem' } }) as HTMLElement & { setOpen?: (o: boolean) => void };
  const line = el('div', { class: 'json-line' });
  const twistie = el('span', { class: `twistie codicon${branch ? ' codicon-chevron-right' : ''}` });
  line.appendChild(twistie);
  if (key !== null) line.append(el('span', { class: typeof key === 'number' ? 'json-index' : 'json-key', text: typeof key === 'number' ? String(key) : key }), el('span', { class: 'json-colon', text: ': ' }));
  const pathText = jsonPath(path);
  if (branch) line.appendChild(el('span', { class: 'json-summary', text: summary(value) }));
  else line.appendChild(leaf(typeof key === 'string' ? key : '', value, host));
  const actions = el(
    'span',
    { class: 'json-actions' },
    iconButton('copy', 'Copy Value', () => host.copy(copyText(value))),
    iconButton('symbol-field', `Copy Path (${pathText})`, () => host.copy(pathText)),
  );
  line.appendChild(actions);
  n.appendChild(line);
  if (!branch) return n;
  const children = el('div', { class: 'json-children', attrs: { role: 'group' } });
  let built = false;
  let open = false;
  n.setOpen = (o: boolean) => {
    open = o;
    if (open && !built) {
      built = true;
      buildChildren(children, value as object, path, depth, host);
    }
    children.hidden = !open;
    twistie.className = `twistie codicon codicon-chevron-${open ? 'down' : 'right'}`;
    n.setAttribute('aria-expanded', String(open));
  };
  line.addEventListener('click', (e) => {
    if ((e.target as HTMLElement).closest('.json-actions, .id-link, .show-more')) return;
    n.setOpen!(!open);
  });
  n.appendChild(children);
  n.setOpen(depth < OPEN_DEPTH && size(value as object) <= 200);
  return n;
}

function buildChildren(into: HTMLElement, value: object, path: (string | number)[], depth: number, host: JsonTreeHost): void {
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  const addPage = (from: number) => {
    for (let k = from; k < Math.min(entries.length, from + CHILD_PAGE); k++) {
      const [ck, cv] = entries[k];
      into.appendChild(node(ck, cv, [...path, ck], depth + 1, host));
    }
    if (from + CHILD_PAGE < entries.length) {
      const more = el('button', { class: 'show-more link-button', text: `Show ${Math.min(CHILD_PAGE, entries.length - from - CHILD_PAGE)} more of ${entries.length - from - CHILD_PAGE}`, attrs: { type: 'button' } });
      more.addEventListener('click', () => {
        more.remove();
        addPage(from + CHILD_PAGE);
      });
      into.appendChild(more);
    }
  };
  addPage(0);
}

function leaf(key: string, value: unknown, host: JsonTreeHost): HTMLElement {
  if (typeof value === 'string') {
    const span = el('span', { class: 'json-string' });
    // A long string shows its start, then a chunk more per "more" (layout of a long unbroken run is costly, see
    // TEXT_CHUNK in dom.ts); Copy Value copies it whole.
    const setText = (n: number) => {
      const shown = cutText(value, n);
      setTraceText(span, JSON.stringify(shown));
      if (shown.length < value.length) {
        const more = el('button', { class: 'show-more link-button', text: `… ${value.length - shown.length} more characters`, title: `Show ${Math.min(TEXT_CHUNK, value.length - shown.length)} more; Copy Value copies the whole string`, attrs: { type: 'button' } });
        more.addEventListener('click', (e) => {
          e.stopPropagation();
          setText(shown.length + TEXT_CHUNK);
          span.querySelector<HTMLElement>('.show-more')?.focus();
        });
        span.appendChild(more);
      }
    };
    setText(STRING_PREVIEW);
    host.decorateValue?.(key, value, span);
    return span;
  }
  const cls = value === null ? 'json-null' : typeof value === 'number' ? 'json-number' : typeof value === 'boolean' ? 'json-boolean' : 'json-other';
  return el('span', { class: cls, text: value === undefined ? 'undefined' : JSON.stringify(value) });
}

function size(v: object): number {
  return Array.isArray(v) ? v.length : Object.keys(v).length;
}

function summary(v: unknown): string {
  if (Array.isArray(v)) return v.length === 0 ? '[]' : `[ ${v.length} item${v.length === 1 ? '' : 's'} ]`;
  const keys = Object.keys(v as object);
  if (keys.length === 0) return '{}';
  const shown = keys.slice(0, 4).join(', ');
  return `{ ${shown}${keys.length > 4 ? `, … ${keys.length - 4} more` : ''} }`;
}
