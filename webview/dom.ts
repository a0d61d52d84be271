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

/**
 * Characters that change how text around them is shown instead of showing themselves: bidi overrides, embeddings,
 * isolates and marks (a U+202E makes `invoice_fdp.exe` read as `invoice_exe.pdf`), and C0/C1 controls (ANSI
 * escapes). VS Code's editor shows them; so does the viewer.
 */
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'g');

/** `U+202E` for one character. */
function codePoint(c: string): string {
  return `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Trace text as DOM text: a plain text node, or, when it holds bidi or control characters, text nodes with each
 * such character replaced by a visible marker (its code point in a styled span), so it cannot reorder or hide
 * what is around it.
 */
export function textNode(text: string): Node {
  if (!INVISIBLE.test(text)) return document.createTextNode(text);
  const f = document.createDocumentFragment();
  let at = 0;
  for (const m of text.matchAll(INVISIBLE_ALL)) {
    if (m.index! > at) f.appendChild(document.createTextNode(text.slice(at, m.index)));
    const marker = document.createElement('span');
    marker.className = 'invisible-char';
    marker.textContent = codePoint(m[0]);
    marker.title = `${codePoint(m[0])}: an invisible control character in the trace text`;
    f.appendChild(marker);
    at = m.index! + 1;
  }
  if (at < text.length) f.appendChild(textNode(text.slice(at)));
  return f;
}

/** Replaces an element's content with trace text (see {@link textNode}). */
export function setText(e: Element, text: string): void {
  e.textContent = '';
  e.appendChild(textNode(text));
}

/** Trace text for a tooltip, which cannot hold markup: each bidi or control character as `[U+202E]`. */
export function visibleText(text: string): string {
  return INVISIBLE.test(text) ? text.replace(INVISIBLE_ALL, (c) => `[${codePoint(c)}]`) : text;
}

/**
 * Most characters of one trace text laid out at once. Laying out a long run with no break opportunity (2 MB of
 * base64 `AAAA…`) is superlinear in its length with `overflow-wrap: anywhere` (which the panes need so no value
 * widens them): 100,000 characters took seconds and froze the page. Longer texts show this much, then more a chunk
 * at a time on request, and can be copied whole.
 */
export const TEXT_CHUNK = 16_384;

/** `text` cut to at most `n` UTF-16 units, not inside a surrogate pair. */
export function cutText(text: string, n: number): string {
  if (text.length <= n) return text;
  const c = text.charCodeAt(n - 1);
  return text.slice(0, c >= 0xd800 && c <= 0xdbff ? n - 1 : n);
}

/**
 * A trace text of any length with bounded layout: `render` draws one piece of it; when the text is longer than
 * `chunk`, a bar above it says how much is shown and offers "Show more" (the next piece, appended as its own block,
 * so laying it out costs one chunk however much is shown already) and "Copy whole value" (`copy` gets the full
 * text), both buttons. A text that fits is `render(text)` itself, with no wrapper. A piece may end inside a
 * markdown construct; each is drawn on its own.
 */
export function chunkedText<T extends Node>(text: string, render: (piece: string) => T, copy: (text: string) => void, chunk = TEXT_CHUNK): T | HTMLDivElement {
  if (text.length <= chunk) return render(text);
  // A long unbroken run (base64, a hex dump) breaks anywhere with `word-break: break-all`, which lays out several
  // times faster than `overflow-wrap: anywhere`; prose keeps breaking at words.
  const wrap = el('div', { class: /\S{1000}/.test(text) ? 'chunked-text long-run' : 'chunked-text' });
  const body = el('div', { class: 'chunked-body' });
  let shown = 0;
  const note = el('span', { class: 'chunked-note' });
  const more = el('button', { class: 'link-button chunked-more', attrs: { type: 'button' } });
  const all = el('button', { class: 'link-button chunked-copy', attrs: { type: 'button' } }, icon('copy'), ' Copy whole value');
  all.addEventListener('click', () => copy(text));
  const next = () => {
    const end = cutText(text, shown + chunk).length;
    body.appendChild(render(text.slice(shown, end)));
    shown = end;
    note.textContent = `Showing ${shown.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters.`;
    more.textContent = `Show ${Math.min(chunk, text.length - shown).toLocaleString('en-US')} more`;
    more.hidden = shown >= text.length;
  };
  more.addEventListener('click', () => {
    next();
    if (more.hidden) all.focus();
  });
  next();
  // The bar comes first, so its controls are in view without scrolling past the text.
  wrap.append(el('div', { class: 'chunked-bar', attrs: { role: 'group', 'aria-label': 'Long value' } }, note, more, all), body);
  return wrap;
}

/** Creates an element with text children only. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, opts: ElOptions = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (opts.class) e.className = opts.class;
  if (opts.text !== undefined) setText(e, opts.text);
  if (opts.title !== undefined) e.title = visibleText(opts.title);
  if (opts.attrs) for (const [k, v] of Object.entries(opts.attrs)) e.setAttribute(k, v);
  if (opts.onClick) e.addEventListener('click', opts.onClick as EventListener);
  append(e, ...children);
  return e;
}

/** Appends children; strings become text nodes. */
export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' ? textNode(c) : c);
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
    f.appendChild(textNode(text));
    return f;
  }
  const hay = caseSensitive ? text : text.toLowerCase();
  const needle = caseSensitive ? query : query.toLowerCase();
  let at = 0;
  for (let i = hay.indexOf(needle); i >= 0 && needle.length > 0; i = hay.indexOf(needle, at)) {
    if (i > at) f.appendChild(textNode(text.slice(at, i)));
    f.appendChild(el('mark', { text: text.slice(i, i + needle.length) }));
    at = i + needle.length;
  }
  if (at < text.length) f.appendChild(textNode(text.slice(at)));
  return f;
}

/** Removes terminal escape sequences (ANSI colours) that would show as noise. */
export function stripAnsi(s: string): string {
  return s.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[@-Z\\-_]/g, '');
}
