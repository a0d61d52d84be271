import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseFragment } from 'parse5';
import { loadTrace } from '../../src/core/loadTrace';
import { TraceBlobs } from '../../src/viewer/blobResolver';
import { traceToMarkdown } from '../../src/report/markdown/markdownTranscript';
import { codeFence, escapeMarkdownText } from '../../src/report/markdown/markdownText';
import { writerFiles } from '../helpers/writerCorpus';
import { hostileTrace, PAYLOADS } from '../helpers/xssPayloads';

// markdown-it renders as GitHub does for what matters here: CommonMark with raw HTML allowed.
// eslint-disable-next-line @typescript-eslint/no-var-requires
const MarkdownIt = require('markdown-it');
const md = new MarkdownIt({ html: true, linkify: true });

const MURMUR = 'samples/murmur/ses_583584f8e94410c93669237ac44d5d21/trace.jsonl';
const CLAUDE = 'samples/claude-code/921f39d1-40c5-4a48-826b-c8319e0f40bc.jsonl';
const blobs = () => new TraceBlobs(() => ({ extraRoots: [], workspaceFolders: [] }));

/**
 * The only elements the export writes: its own, and those Markdown syntax makes (a prompt or reply keeps its
 * Markdown). Anything else (a script, an image, a div, a comment) came from trace text as raw HTML.
 */
const OURS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'strong', 'em', 's', 'code', 'pre', 'details', 'summary', 'hr', 'br', 'a',
  'ul', 'ol', 'li', 'blockquote', 'table', 'thead', 'tbody', 'tr', 'th', 'td']);

interface Node { nodeName: string; tagName?: string; attrs?: { name: string; value: string }[]; childNodes?: Node[]; value?: string; content?: Node }

/** Every element of rendered HTML with its attributes, and all its text. */
function elements(html: string): { tags: { tag: string; attrs: string[] }[]; text: string } {
  const tags: { tag: string; attrs: string[] }[] = [];
  let text = '';
  const stack: Node[] = [parseFragment(html) as unknown as Node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.tagName) tags.push({ tag: n.tagName, attrs: (n.attrs ?? []).map((a) => `${a.name}=${a.value}`) });
    if (n.nodeName === '#text') text += n.value;
    if (n.nodeName === '#comment') tags.push({ tag: '#comment', attrs: [] });
    for (const c of [...(n.childNodes ?? []), ...(n.content ? [n.content] : [])].reverse()) stack.push(c);
  }
  return { tags, text };
}

/** Rendered tags that the export did not write, or that carry attributes other than a code language / a web link. */
function foreignMarkup(html: string): string[] {
  return elements(html).tags.filter((t) => {
    if (!OURS.has(t.tag)) return true;
    if (t.tag === 'code') return !t.attrs.every((a) => /^class=language-[\w+#.-]+$/.test(a));
    if (t.tag === 'a') return !t.attrs.every((a) => /^href=(https?:\/\/|mailto:)/.test(a));
    if (t.tag === 'ol') return !t.attrs.every((a) => /^start=\d+$/.test(a));
    if (t.tag === 'th' || t.tag === 'td') return !t.attrs.every((a) => /^style=text-align:(left|right|center)$/.test(a));
    return t.attrs.length > 0;
  }).map((t) => `<${t.tag} ${t.attrs.join(' ')}>`);
}

describe('export --markdown', () => {
  for (const file of [MURMUR, CLAUDE, ...writerFiles('claude-code', (p) => /[\\/]projects[\\/].*\.jsonl$/.test(p)).slice(0, 4)]) {
    it(`renders ${file.replace(/.*\/(samples|corpus)\//, '')} with no raw HTML from the trace, and keeps its words`, async () => {
      const model = await loadTrace(file);
      const text = await traceToMarkdown(model, { blobs: blobs() });
      const html = md.render(text);
      assert.deepEqual(foreignMarkup(html), []);
      // The conversation only (the transcript's blocks): the shortest file, a resumed two-prompt session, is ~350 characters.
      assert.ok(text.length > 300, 'a transcript, not a stub');
      assert.ok((text.match(/^\*\*(user|assistant)\*\*/gm) ?? []).length >= 2, 'its prompts and replies');
    });
  }

  it('the murmur and Claude Code samples show their prompt, their tool calls with fenced arguments, and the HTML in them as text', async () => {
    for (const file of [MURMUR, CLAUDE]) {
      const text = await traceToMarkdown(await loadTrace(file), { blobs: blobs() });
      const rendered = elements(md.render(text)).text;
      // The user's prompt holds `<b>bold</b> <script>alert(1)</script>`: it must be read as written.
      assert.ok(rendered.includes('<b>bold</b> <script>alert(1)</script>'), file);
      assert.match(text, /\*\*Tool call\*\* `(read_file|Read)`/, file);
      assert.match(text, /```json\n\{\n {2}"(path|file_path)"/, file);
      assert.match(text, /<details><summary>Output \(\d+ lines\)<\/summary>\n\n```/, `${file}: long outputs collapse`);
    }
  });

  it('writes each message once: the history a model call repeats is not written again', async () => {
    const text = await traceToMarkdown(await loadTrace(MURMUR), { blobs: blobs() });
    const calls = text.match(/\*\*Tool call\*\* `read_file` · `toolu_01M2EfrXU7p8an7qGNkrMkgT`/g) ?? [];
    assert.equal(calls.length, 1);
  });

  it('renders every XSS payload of the viewer suite as text: no element, attribute or comment from the trace', async () => {
    const path = hostileTrace();
    try {
      const text = await traceToMarkdown(await loadTrace(path), { blobs: blobs() });
      const html = md.render(text);
      assert.deepEqual(foreignMarkup(html), []);
      const shown = elements(html).text;
      for (const p of PAYLOADS.filter((x) => !/[\u0000-\u001f\u007f-\u009f]/.test(x))) assert.ok(shown.includes(p.trim()), `payload shown as text: ${p}`);
    } finally {
      rmSync(join(path, '..'), { recursive: true, force: true });
    }
  });

  it('fences are longer than any backtick run inside, and escaped prose cannot open a block or a mention', () => {
    const code = 'a ``` b\n````\n`';
    const fence = codeFence(code, 'sh');
    assert.ok(fence.startsWith('`````sh\n') && fence.endsWith('\n`````'));
    assert.equal(elements(md.render(fence)).text.trimEnd(), code);
    const prose = '# not a heading\n> not a quote\n1. not a list\n- nor this\n    not code\n@octocat <b>x</b> &amp; *y*';
    const html = md.render(escapeMarkdownText(prose));
    assert.deepEqual(elements(html).tags.map((t) => t.tag).filter((t) => t !== 'p' && t !== 'br'), []);
    // The mention reads the same; only an invisible word joiner (U+2060) after its @ keeps it from pinging.
    assert.equal(elements(html).text.replace(/\u00a0/g, ' ').replace(/\u2060/g, '').trimEnd(), prose);
  });
});
