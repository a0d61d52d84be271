/**
 * Syntax highlighting for code in tool calls, with highlight.js (the most used highlighter, maintained, no
 * dependencies, ~40 common languages registered here rather than all 190 to keep the bundle small).
 *
 * Safety: highlight.js's `value` is an HTML string, and is never used. Its token tree (`_emitter.rootNode`:
 * strings and `{ scope, children }` nodes) is walked instead, and every string becomes a text node through
 * dom.ts, so trace text can only ever be text; `scope` names come from the grammar, not the trace, and are only
 * used as class names after a check. The tree is an internal of highlight.js 11, so when it is not there (a
 * future version) the code is shown plain rather than through the HTML.
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import plaintext from 'highlight.js/lib/languages/plaintext';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import scss from 'highlight.js/lib/languages/scss';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { el, textNode } from '../dom';

const LANGUAGES = { bash, c, cpp, csharp, css, diff, go, ini, java, javascript, json, kotlin, markdown, php, plaintext, python, ruby, rust, scss, sql, swift, typescript, xml, yaml };
for (const [name, lang] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, lang);

/** Code longer than this is shown plain: highlighting is for reading, not for megabytes. */
const MAX_HIGHLIGHT_CHARS = 100_000;

interface TokenNode {
  scope?: string;
  children: (string | TokenNode)[];
}

/** A `<pre><code>` of `code`, highlighted as `language` when highlight.js knows it, else plain. */
export function codeBlock(code: string, language: string | null): HTMLElement {
  const codeEl = el('code', { class: 'code' });
  const pre = el('pre', { class: 'code-block', attrs: language ? { 'data-language': language } : {} }, codeEl);
  const root = language && code.length <= MAX_HIGHLIGHT_CHARS && hljs.getLanguage(language) ? tokenTree(code, language) : null;
  if (root) appendTokens(codeEl, root);
  else codeEl.appendChild(textNode(code));
  return pre;
}

function tokenTree(code: string, language: string): TokenNode | null {
  try {
    const r = hljs.highlight(code, { language, ignoreIllegals: true }) as unknown as { _emitter?: { rootNode?: TokenNode } };
    const root = r._emitter?.rootNode;
    return root && Array.isArray(root.children) ? root : null;
  } catch {
    return null;
  }
}

const SCOPE = /^[a-z][a-z0-9_.-]{0,40}$/i;

function appendTokens(parent: HTMLElement, node: TokenNode): void {
  for (const child of node.children) {
    if (typeof child === 'string') {
      parent.appendChild(textNode(child));
    } else if (child && Array.isArray(child.children)) {
      const scope = typeof child.scope === 'string' && SCOPE.test(child.scope) ? child.scope : null;
      const span = el('span', scope ? { class: scope.split('.').map((s, i) => (i === 0 ? `hljs-${s}` : `${s}_`)).join(' ') } : {});
      appendTokens(span, child);
      parent.appendChild(span);
    }
  }
}
