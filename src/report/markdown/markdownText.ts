/**
 * Markdown building blocks that keep trace text inert when a GitHub comment (GFM, HTML allowed) renders it:
 * prose with every character that could start markup, HTML, an entity or a mention escaped, code in fences
 * longer than any backtick run inside, and `<details>` whose summary is HTML-escaped.
 */
import { escapeHtml } from '../../core/escapes';

/** Characters that start inline markup, HTML, entities, links, tables, strikethrough or mentions anywhere in a line. */
const INLINE_SPECIAL = /[\\`*_[\]<>&|~@!{}()]/g;
/** Line starts that open a heading, quote, list, thematic break, setext underline or ordered list. */
const LINE_START = /^(\s*)([#>+=-]|\d+[.)])/;

/**
 * Escapes trace text for use as Markdown prose: every ASCII punctuation a renderer could read as markup is
 * backslash-escaped (CommonMark allows that for any of them), so the text renders as written and raw HTML,
 * entities and `@mentions` stay text. Line breaks are kept as hard breaks, as the text had them.
 */
export function escapeMarkdownText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => {
      const escaped = line.replace(INLINE_SPECIAL, (c) => `\\${c}`);
      // Leading spaces would make an indented code block or swallow the escape below: keep them as NBSP.
      const body = escaped.replace(/^ +/, (s) => '\u00a0'.repeat(s.length)).replace(/^\t+/, (s) => '\u00a0\u00a0'.repeat(s.length));
      return body.replace(LINE_START, (_m, sp: string, mark: string) => `${sp}${mark.replace(/^(\d+)?(.)$/, (_x, d: string | undefined, p: string) => `${d ?? ''}\\${p}`)}`);
    })
    .join('  \n');
}

/** The longest run of backticks in `text`. */
function longestBacktickRun(text: string): number {
  let best = 0;
  for (const m of text.matchAll(/`+/g)) best = Math.max(best, m[0].length);
  return best;
}

/**
 * A fenced code block whose fence is longer than any backtick run inside, so no line of the code can close
 * it. `language` is one of ours (an info string with a backtick would break the fence), never trace text.
 */
export function codeFence(code: string, language = ''): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(code) + 1));
  const lang = /^[\w+#.-]*$/.test(language) ? language : '';
  const body = code.replace(/\r\n?/g, '\n').replace(/\n$/, '');
  return `${fence}${lang}\n${body}\n${fence}`;
}

/** Inline code that shows `text` literally: backticks inside get a longer delimiter, padded when needed. */
export function inlineCode(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  const ticks = '`'.repeat(longestBacktickRun(flat) + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || /^ .* $/.test(flat) ? ' ' : '';
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

/** A collapsed `<details>` block around Markdown `body`; `summary` is plain text and is HTML-escaped. */
export function detailsBlock(summary: string, body: string): string {
  // Blank lines around the body end the HTML block, so the Markdown inside (a code fence) is rendered.
  return `<details><summary>${escapeHtml(summary)}</summary>\n\n${body}\n\n</details>`;
}
