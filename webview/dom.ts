/**
 * DOM building for the viewer. Trace content only ever becomes text nodes (`textContent`, `createTextNode`);
 * attributes are set only from the viewer's own constants. There is no innerHTML anywhere in the webview.
 */

type Child = Node | string | null | undefined | false;

/** Options for {@link el}. */
export interface ElOptions {
  class?: string;
  text?: string;
  title?: string;
  /** Attributes from the viewer's own constants (role, aria-*, tabindex, data-*). Never trace content. */
  attrs?: Record<string, string>;
  onClick?: (e: MouseEvent) => void;
}

/** Creates an element with text children only. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, opts: ElOptions = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (opts.class) e.className = opts.class;
  if (opts.text !== undefined) e.textContent = opts.text;
  if (opts.title !== undefined) e.title = opts.title;
  if (opts.attrs) for (const [k, v] of Object.entries(opts.attrs)) e.setAttribute(k, v);
  if (opts.onClick) e.addEventListener('click', opts.onClick as EventListener);
  append(e, ...children);
  return e;
}

/** Appends children; strings become text nodes. */
export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  }
}

/** A codicon glyph. */
export function icon(name: string, extra = ''): HTMLSpanElement {
  return el('span', { class: `codicon codicon-${name}${extra ? ' ' + extra : ''}`, attrs: { 'aria-hidden': 'true' } });
}

/** A small icon button (the viewer's own controls). */
export function iconButton(name: string, label: string, onClick: (e: MouseEvent) => void, extra = ''): HTMLButtonElement {
  const b = el('button', { class: `icon-button${extra ? ' ' + extra : ''}`, title: label, attrs: { type: 'button', 'aria-label': label } }, icon(name));
  b.addEventListener('click', (e) => {
    e.stopPropagation();
    onClick(e);
  });
  return b;
}

/** A toolbar button from @vscode-elements. */
export function toolbarButton(iconName: string, label: string, onClick: () => void): HTMLElement {
  const b = document.createElement('vscode-toolbar-button');
  b.setAttribute('icon', iconName);
  b.setAttribute('label', label);
  b.title = label;
  b.addEventListener('click', onClick);
  return b;
}

/** Removes all children. */
export function clear(e: Element): void {
  while (e.firstChild) e.removeChild(e.firstChild);
}

/** Text with every case-insensitive occurrence of `query` wrapped in <mark>. */
export function highlighted(text: string, query: string, caseSensitive = false): DocumentFragment {
  const f = document.createDocumentFragment();
  if (!query) {
    f.appendChild(document.createTextNode(text));
    return f;
  }
  const hay = caseSensitive ? text : text.toLowerCase();
  const needle = caseSensitive ? query : query.toLowerCase();
  let at = 0;
  for (let i = hay.indexOf(needle); i >= 0 && needle.length > 0; i = hay.indexOf(needle, at)) {
    if (i > at) f.appendChild(document.createTextNode(text.slice(at, i)));
    f.appendChild(el('mark', { text: text.slice(i, i + needle.length) }));
    at = i + needle.length;
  }
  if (at < text.length) f.appendChild(document.createTextNode(text.slice(at)));
  return f;
}

/** Removes terminal escape sequences (ANSI colours) that would show as noise. */
export function stripAnsi(s: string): string {
  return s.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[@-Z\\-_]/g, '');
}
