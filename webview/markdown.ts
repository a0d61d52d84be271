/** Renders parsed markdown as DOM built from text nodes; links go through the host, images are never loaded. */
import { el, append } from './dom';
import { Block, Inline, isWebLink, parseMarkdown } from './markdownParse';

/** Longer texts are shown as plain text: markdown of that size is rarely prose, and parsing stays cheap. */
const MAX_MARKDOWN_CHARS = 200_000;

/** A fragment for `text` rendered as sanitized markdown. */
export function renderMarkdown(text: string, openLink: (url: string) => void): DocumentFragment {
  const f = document.createDocumentFragment();
  if (text.length > MAX_MARKDOWN_CHARS) {
    f.appendChild(el('pre', { class: 'plain-text', text }));
    return f;
  }
  for (const b of parseMarkdown(text)) f.appendChild(block(b, openLink));
  return f;
}

function block(b: Block, openLink: (url: string) => void): HTMLElement {
  switch (b.t) {
    case 'heading': {
      const h = el(`h${Math.min(6, b.level + 2)}` as 'h3', { class: 'md-heading' });
      inlines(h, b.c, openLink);
      return h;
    }
    case 'para': {
      const p = el('p');
      inlines(p, b.c, openLink);
      return p;
    }
    case 'code':
      return el('pre', { class: 'md-code', attrs: b.lang ? { 'data-lang': b.lang.slice(0, 40) } : {} }, el('code', { text: b.v }));
    case 'quote': {
      const q = el('blockquote');
      for (const c of b.c) q.appendChild(block(c, openLink));
      return q;
    }
    case 'list': {
      const l = b.ordered ? el('ol', b.start !== 1 ? { attrs: { start: String(b.start) } } : {}) : el('ul');
      for (const item of b.items) {
        const li = el('li');
        for (const c of item) li.appendChild(block(c, openLink));
        l.appendChild(li);
      }
      return l;
    }
    case 'rule':
      return el('hr');
  }
}

function inlines(parent: HTMLElement, items: Inline[], openLink: (url: string) => void): void {
  for (const x of items) {
    switch (x.t) {
      case 'text':
        append(parent, x.v);
        break;
      case 'code':
        parent.appendChild(el('code', { text: x.v }));
        break;
      case 'strong': {
        const s = el('strong');
        inlines(s, x.c, openLink);
        parent.appendChild(s);
        break;
      }
      case 'em': {
        const s = el('em');
        inlines(s, x.c, openLink);
        parent.appendChild(s);
        break;
      }
      case 'link':
        parent.appendChild(link(x.c, x.href, openLink));
        break;
      case 'image':
        parent.appendChild(el('span', { class: 'md-image', text: `[image: ${x.alt || 'no description'}]`, title: x.href }));
        break;
      case 'br':
        parent.appendChild(el('br'));
        break;
    }
  }
}

/** A link without href: web links open through the host after a click; anything else is only shown. */
function link(content: Inline[], href: string, openLink: (url: string) => void): HTMLElement {
  const web = isWebLink(href);
  const a = el('a', { class: web ? 'md-link' : 'md-link md-link-inert', title: web ? href : `${href} (not opened: only http and https links are)` });
  inlines(a, content, openLink);
  if (web) {
    a.setAttribute('role', 'link');
    a.tabIndex = 0;
    const go = (e: Event) => {
      e.preventDefault();
      openLink(href);
    };
    a.addEventListener('click', go);
    a.addEventListener('keydown', (e) => e.key === 'Enter' && go(e));
  }
  return a;
}
