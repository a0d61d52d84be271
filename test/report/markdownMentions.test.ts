import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { parseFragment } from 'parse5';
import { loadTrace } from '../../src/core/loadTrace';
import { TraceBlobs } from '../../src/viewer/blobResolver';
import { traceToMarkdown } from '../../src/report/markdown/markdownTranscript';
import { escapeMarkdownText, unlinkReferences, WORD_JOINER } from '../../src/report/markdown/markdownText';
import { tempFile } from '../helpers/tmp';

// eslint-disable-next-line @typescript-eslint/no-var-requires
const MarkdownIt = require('markdown-it');
const md = new MarkdownIt({ html: true, linkify: true });

const blobs = () => new TraceBlobs(() => ({ extraRoots: [], workspaceFolders: [] }));

/**
 * What GitHub turns into a mention or an issue reference in rendered prose: `@name` after a non-word character,
 * `#123`, `owner/repo#67`, `GH-45` (its ReferenceFilter and MentionFilter, which run on the rendered text).
 */
const GITHUB_REFERENCE = /(?<![A-Za-z0-9_`])@[A-Za-z0-9][A-Za-z0-9-]*|(?<![A-Za-z0-9_&])#\d+\b|[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+#\d+\b|\bGH-\d+\b/gi;
const WEB_ADDRESS = /\b(?:https?|ftp):\/\/[^\s<>]*/gi;

interface Node { nodeName: string; tagName?: string; childNodes?: Node[]; value?: string; content?: Node }

/** The rendered HTML's text outside `<code>` and `<pre>` (where GitHub links nothing), web addresses left out. */
function proseText(html: string): string {
  let text = '';
  const walk = (n: Node, inCode: boolean): void => {
    if (n.nodeName === '#text' && !inCode) text += n.value;
    const code = inCode || n.tagName === 'code' || n.tagName === 'pre';
    for (const c of [...(n.childNodes ?? []), ...(n.content ? [n.content] : [])]) walk(c, code);
  };
  walk(parseFragment(html) as unknown as Node, false);
  return text.replace(WEB_ADDRESS, ' ');
}

const references = (markdown: string) => proseText(md.render(markdown)).match(GITHUB_REFERENCE) ?? [];

describe('export --markdown pings no one (issue 41 c)', function () {
  this.timeout(300000);

  it('mentions and issue references in prose get an invisible word joiner, and read the same without it', () => {
    const prose = 'ask @octocat and \\@octocat (cc @org/team), see #123, GH-45, gh-7 and owner/repo#67; npm i @types/react; ' +
      'mail a@b.co; https://example.com/page#123 stays a link; C# and #define and issue# stay';
    const escaped = escapeMarkdownText(prose);
    assert.deepEqual(references(escaped), []);
    const shown = proseText(md.render(escaped));
    assert.equal(shown.split(WORD_JOINER).join('').replace(/\u00a0/g, ' ').trimEnd(), prose.replace(WEB_ADDRESS, ' '));
    // The same text without the joiners is what GitHub would have linked.
    assert.deepEqual(references(escapeMarkdownText(prose).split(WORD_JOINER).join('')), ['@octocat', '@octocat', '@org', '#123', 'GH-45', 'gh-7', 'owner/repo#67', '@types']);
    // Nothing else changes: text without references is untouched.
    assert.equal(unlinkReferences('C# and #define, a@b, x-45'), 'C# and #define, a@b, x-45');
    assert.equal(unlinkReferences('https://github.com/o/r/pull/1#issuecomment-2 @x'), `https://github.com/o/r/pull/1#issuecomment-2 @${WORD_JOINER}x`);
  });

  for (const [file, marker] of [
    ['samples/claude-code/921f39d1-40c5-4a48-826b-c8319e0f40bc.jsonl', '"content":"CI is red'],
    ['samples/codex/rollout-2026-01-01T10-00-00-019b78ff-f900-7000-b662-e79c6061077d.jsonl', '"text":"CI is red'],
  ] as const) {
    it(`${file.split('/')[1]}: a real session whose messages name people and issues exports with no mention or reference outside code`, async () => {
      const original = readFileSync(file, 'utf8');
      const said = '@octocat please look at #123, GH-45 and owner/repo#67 (cc @types/react) ';
      // Into the user's first message.
      const text = original.split(marker).join(`${marker.slice(0, -'CI is red'.length)}${said}CI is red`);
      assert.notEqual(text, original);
      const out = await traceToMarkdown(await loadTrace(tempFile(file.split('/').pop()!, text)), { blobs: blobs() });
      assert.deepEqual(references(out), []);
      const shown = proseText(md.render(out)).split(WORD_JOINER).join('');
      assert.ok(shown.includes(said.trim()), 'the text reads the same without the joiners');
      assert.deepEqual(references(out.split(WORD_JOINER).join('')).slice(0, 5), ['@octocat', '#123', 'GH-45', 'owner/repo#67', '@types']);
    });
  }
});
