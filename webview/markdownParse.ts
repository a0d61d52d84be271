/**
 * A small markdown parser for chat text: headings, paragraphs, lists, quotes, fenced code, rules; inline
 * code, bold, italic and links. It produces a tree of plain data that `markdown.ts` turns into DOM nodes
 * with text nodes only: raw HTML in the source stays literal text, link targets are data, images are not
 * loaded. Pure (unit-tested in Node).
 */

export type Inline =
  | { t: 'text'; v: string }
  | { t: 'code'; v: string }
  | { t: 'strong'; c: Inline[] }
  | { t: 'em'; c: Inline[] }
  | { t: 'link'; c: Inline[]; href: string }
  | { t: 'image'; alt: string; href: string }
  | { t: 'br' };

export type Block =
  | { t: 'heading'; level: number; c: Inline[] }
  | { t: 'para'; c: Inline[] }
  | { t: 'code'; lang: string; v: string }
  | { t: 'quote'; c: Block[] }
  | { t: 'list'; ordered: boolean; start: number; items: Block[][] }
  | { t: 'rule' };

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const BULLET = /^( {0,3})([-*+])\s+(.*)$/;
const ORDERED = /^( {0,3})(\d{1,9})[.)]\s+(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;
const MAX_DEPTH = 8;
const SPECIAL = new Set(['\\', '`', '*', '_', '!', '[']);
/** Longest inline span looked at from one marker; keeps long texts linear. */
const MAX_SPAN = 4000;

/** Parses markdown text into blocks. */
export function parseMarkdown(text: string, depth = 0): Block[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    let m: RegExpExecArray | null;
    if (line.trim() === '') {
      i++;
    } else if ((m = FENCE.exec(line))) {
      const fence = m[1];
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i].trimStart().startsWith(fence)) body.push(lines[i++]);
      i++;
      out.push({ t: 'code', lang: m[2], v: body.join('\n') });
    } else if ((m = HEADING.exec(line))) {
      out.push({ t: 'heading', level: m[1].length, c: parseInline(m[2]) });
      i++;
    } else if (RULE.test(line)) {
      out.push({ t: 'rule' });
      i++;
    } else if (QUOTE.test(line) && depth < MAX_DEPTH) {
      const body: string[] = [];
      while (i < lines.length && (m = QUOTE.exec(lines[i]))) (body.push(m[1]), i++);
      out.push({ t: 'quote', c: parseMarkdown(body.join('\n'), depth + 1) });
    } else if ((BULLET.test(line) || ORDERED.test(line)) && depth < MAX_DEPTH) {
      i = parseList(lines, i, out, depth);
    } else {
      const body: string[] = [];
      while (i < lines.length && lines[i].trim() !== '' && !startsBlock(lines[i])) body.push(lines[i++]);
      if (body.length === 0) body.push(lines[i++]);
      out.push({ t: 'para', c: joinLines(body) });
    }
  }
  return out;
}

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || BULLET.test(line) || ORDERED.test(line);
}

function parseList(lines: string[], i: number, out: Block[], depth: number): number {
  const ordered = !BULLET.test(lines[i]);
  const re = ordered ? ORDERED : BULLET;
  const first = re.exec(lines[i])!;
  const indent = first[1].length;
  const items: string[][] = [];
  while (i < lines.length) {
    const m = re.exec(lines[i]);
    if (m && m[1].length === indent) {
      items.push([m[3]]);
      i++;
    } else if (items.length > 0 && lines[i].trim() !== '' && /^\s/.test(lines[i]) ) {
      items[items.length - 1].push(lines[i].replace(/^\s{1,4}/, ''));
      i++;
    } else if (items.length > 0 && lines[i].trim() === '' && i + 1 < lines.length && re.test(lines[i + 1])) {
      i++;
    } else break;
  }
  out.push({ t: 'list', ordered, start: ordered ? Number(first[2]) : 1, items: items.map((it) => parseMarkdown(it.join('\n'), depth + 1)) });
  return i;
}

function joinLines(lines: string[]): Inline[] {
  const out: Inline[] = [];
  lines.forEach((l, k) => {
    if (k > 0) out.push({ t: 'br' });
    out.push(...parseInline(l));
  });
  return out;
}

/** Parses inline markup; anything unmatched stays literal text. */
export function parseInline(s: string, depth = 0): Inline[] {
  const out: Inline[] = [];
  let text = '';
  const flush = () => {
    if (text) out.push({ t: 'text', v: text });
    text = '';
  };
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    let m: RegExpExecArray | null;
    if (!SPECIAL.has(c)) {
      text += c;
      i++;
      continue;
    }
    const rest = s.slice(i, i + MAX_SPAN);
    if (c === '\\' && i + 1 < s.length && /[\\`*_[\]()#>!-]/.test(s[i + 1])) {
      text += s[i + 1];
      i += 2;
    } else if (c === '`' && (m = /^(`+)([\s\S]*?[^`])\1(?!`)/.exec(rest))) {
      flush();
      out.push({ t: 'code', v: m[2].trim() === '' ? m[2] : m[2].replace(/^ (.*) $/, '$1') });
      i += m[0].length;
    } else if (depth < MAX_DEPTH && (c === '*' || (c === '_' && canOpenUnderscore(s, i))) && (m = c === '*' ? /^(\*\*)(?=\S)([\s\S]*?\S)\*\*/.exec(rest) : /^(__)(?=\S)((?:[^_]|_(?!_))*?\S)__(?![\w.])/.exec(rest))) {
      flush();
      out.push({ t: 'strong', c: parseInline(m[2], depth + 1) });
      i += m[0].length;
    } else if (depth < MAX_DEPTH && (c === '*' || (c === '_' && canOpenUnderscore(s, i))) && (m = c === '*' ? /^(\*)(?=\S)([\s\S]*?\S)\*(?![*\w])/.exec(rest) : /^(_)(?=[^\s_])([^_]*?[^\s_])_(?![\w.])/.exec(rest))) {
      flush();
      out.push({ t: 'em', c: parseInline(m[2], depth + 1) });
      i += m[0].length;
    } else if (c === '!' && (m = /^!\[([^\]]*)\]\(([^)\s]*)(?:\s+"[^"]*")?\)/.exec(rest))) {
      flush();
      out.push({ t: 'image', alt: m[1], href: m[2] });
      i += m[0].length;
    } else if (depth < MAX_DEPTH && c === '[' && (m = /^\[([^\]]+)\]\(([^)\s]*)(?:\s+"[^"]*")?\)/.exec(rest))) {
      flush();
      out.push({ t: 'link', c: parseInline(m[1], depth + 1), href: m[2] });
      i += m[0].length;
    } else {
      text += c;
      i++;
    }
  }
  flush();
  return out;
}

/**
 * Underscores open emphasis only after a space or an opening bracket or quote, never inside identifiers
 * (`snake_case`, `window.__name`, `__init__`): agent traces are full of them.
 */
function canOpenUnderscore(s: string, i: number): boolean {
  return i === 0 || /[\s([{"'>]/.test(s[i - 1]);
}

/** True for a link the host may open: http(s) only; everything else is shown, never followed. */
export function isWebLink(href: string): boolean {
  return /^https?:\/\//i.test(href.trim());
}
