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

/** U+2060 WORD JOINER: invisible, zero-width, and no letter or digit, so nothing after it continues a reference. */
export const WORD_JOINER = '\u2060';

/**
 * What GitHub turns into a ping or a cross-reference in prose: `@name` (and `@org/team`), `#123`, `owner/repo#67`
 * (its `#`), `GH-45`. A backslash does not stop them: GitHub looks for mentions after Markdown has removed it.
 */
const REFERENCE_START = /(?<![A-Za-z0-9_])@(?=[A-Za-z0-9_])|#(?=\d)|\b(GH)-(?=\d)/gi;
/** A web address: left whole, so an autolink still leads where it did (`…/page#123` is a fragment, not an issue). */
const WEB_ADDRESS = /\b(?:https?|ftp):\/\/[^\s<>]*/gi;

/**
 * Keeps trace text from pinging people or linking issues when a GitHub comment renders it (issue 41): a word
 * joiner goes after each `@` or `#` that would start a mention or an issue reference, and inside `GH-`, so the
 * text renders exactly as typed (the joiner is invisible) and removing the joiners gives the text back. Code
 * spans and fences need none: GitHub links nothing inside them.
 */
export function unlinkReferences(text: string): string {
  const unlink = (t: string) => t.replace(REFERENCE_START, (m, gh: string | undefined) => (gh ? `${gh}${WORD_JOINER}-` : `${m}${WORD_JOINER}`));
  let out = '';
  let at = 0;
  for (const m of text.matchAll(WEB_ADDRESS)) {
    out += unlink(text.slice(at, m.index)) + m[0];
    at = m.index! + m[0].length;
  }
  return out + unlink(text.slice(at));
}

/**
 * Escapes trace text for use as Markdown prose: every ASCII punctuation a renderer could read as markup is
 * backslash-escaped (CommonMark allows that for any of them), so the text renders as written and raw HTML,
 * entities stay text; mentions and issue references are broken by an invisible word joiner
 * ({@link unlinkReferences}). Line breaks are kept as hard breaks, as the text had them.
 */
export function escapeMarkdownText(text: string): string {
  return unlinkReferences(text)
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

/** A `<` that could open raw HTML, an HTML block, a comment, a declaration or an autolink. */
const HTML_START = /<(?=[A-Za-z/!?])/g;
/** A `!` that would make the link after it an image (a request to a server the text names). */
const IMAGE_START = /!(?=\[)/g;
/** A fence that opens or closes a fenced code block at the top level (up to 3 spaces of indent). */
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * A user's or a model's own Markdown, kept as written: headings, lists, emphasis, code and links render as the
 * writer meant (issue 42). Safe by construction as {@link escapeMarkdownText} is, with less: a word joiner
 * (invisible, see {@link WORD_JOINER}) goes after every `<` that could start raw HTML or an autolink and after
 * a `!` before `[`, so the text can hold no HTML element, comment or image whatever its context (prose, code,
 * a table); mentions and issue references are unlinked; a code fence the text leaves open is closed, so it
 * cannot swallow what follows.
 */
export function markdownAsWritten(text: string): string {
  const safe = unlinkReferences(text.replace(/\r\n?/g, '\n'))
    .replace(HTML_START, `<${WORD_JOINER}`)
    .replace(IMAGE_START, `!${WORD_JOINER}`);
  let open: string | null = null;
  for (const line of safe.split('\n')) {
    const m = FENCE.exec(line);
    if (!m) continue;
    const [, fence, rest] = m;
    if (open === null) {
      if (fence[0] === '`' && rest.includes('`')) continue;
      open = fence;
    } else if (fence[0] === open[0] && fence.length >= open.length && rest.trim() === '') open = null;
  }
  return open === null ? safe : `${safe}\n${open}`;
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
  return `<details><summary>${escapeHtml(unlinkReferences(summary))}</summary>\n\n${body}\n\n</details>`;
}
