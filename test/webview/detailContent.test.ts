// Issue 40, the detail pane (Chromium, real writer files): tool output preformatted and highlighted, never Markdown,
// with a remembered Markdown ↔ raw toggle reached by the keyboard; blob card headers readable in a narrow pane; a
// compact header at 480 px; highlighted tokens readable in High Contrast Dark and Light.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runChecks } from '../../src/core/formatRules';
import { TraceBlobs } from '../../src/viewer/blobResolver';
import type { SessionHost } from '../../src/viewer/sessionHost';
import { corpusPath } from '../helpers/corpus';
import { tempDir } from '../helpers/tmp';
import { CLAUDE_SHELL_FAIL, corpusFile } from '../helpers/treeCorpus';
import { lowContrast } from './contrast';
import { viewerSuite, ViewerPage } from './harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const CODEX = corpusFile('test/corpus/codex-0.171.0/shell-ok/sessions');
const CLAUDE_EDIT = corpusFile('test/corpus/claude-code-2.1.332/edit/projects');
const MURMUR = join(corpusPath('murmur/ses_39263059f28c105d1fb17c2390c192cf'), 'trace.jsonl');

/** What a command printed: Markdown would make a quote, a heading and inline code of it, and an image of the tag. */
const OUTPUT = ['> not a quote', '# not a heading', 'const greet = (name) => `hello ${name}`;', '    indented(4);', '<img src=x onerror="window.__pwned=1">'].join('\n') + '\n';
/** A tool's JSON answer, with markup in a string. */
const JSON_OUT = '{"ok":true,"files":["a.ts","b.ts"],"note":"<script>window.__pwned=2</script>"}';

/**
 * The real Codex rollout of `echo hello`, its command's output (line 14, `aggregated_output`) and its tool result
 * (line 15, `function_call_output`) replaced by the texts above.
 */
function codexCopy(): string {
  const lines = readFileSync(CODEX, 'utf8').split('\n');
  const exec = JSON.parse(lines[13]);
  assert.equal(exec.payload.item.type, 'CommandExecution');
  exec.payload.item.aggregated_output = OUTPUT;
  const result = JSON.parse(lines[14]);
  assert.equal(result.payload.type, 'function_call_output');
  result.payload.output = JSON_OUT;
  lines[13] = JSON.stringify(exec);
  lines[14] = JSON.stringify(result);
  const file = join(tempDir(), 'rollout-output.jsonl');
  writeFileSync(file, lines.join('\n'));
  return file;
}

async function showLine(v: ViewerPage, line: number): Promise<void> {
  const since = v.received.length;
  v.session.revealLine(line);
  await v.waitForHost('detail', (m) => m.detail.line === line, since);
  await v.settle();
}

describe('detail pane: code and output (issue 40, Chromium)', function () {
  this.timeout(240_000);
  const { view } = viewerSuite();

  it('a command’s output is preformatted, not Markdown: `>` is no quote, `# …` no heading, a template literal keeps its backticks and indentation, a tag stays text', async () => {
    const v = await view(codexCopy());
    await showLine(v, 14);
    const out = await v.page.$eval('.detail-pane .part-text.output pre.code-block', (e: Any) => e.textContent);
    assert.equal(out, OUTPUT);
    const made = await v.page.$$eval('.detail-pane .chat blockquote, .detail-pane .chat .md-heading, .detail-pane .chat img', (es: Any[]) => es.map((e) => e.outerHTML));
    assert.deepEqual(made, [], 'no quote, heading or image was made of the output');
    await v.screenshot('detail-output-preformatted');
    await showLine(v, 15);
    const json = await v.page.$eval('.detail-pane .part-tool-result pre.code-block[data-language="json"]', (e: Any) => ({ text: e.textContent, attrs: e.querySelectorAll('.hljs-attr').length, strings: e.querySelectorAll('.hljs-string').length }));
    assert.equal(json.text, JSON_OUT, 'the JSON is shown exactly as written');
    assert.ok(json.attrs >= 3 && json.strings >= 3, `the JSON is highlighted (${json.attrs} keys, ${json.strings} strings)`);
    await v.page.waitForTimeout(200);
    assert.equal(await v.page.evaluate(() => (globalThis as Any).__pwned), undefined, 'nothing in the output ran');
    assert.equal(await v.page.evaluate(() => (globalThis as Any).document.querySelectorAll('script').length), 1, 'no script element came from the output');
    await v.screenshot('detail-output-json');
  });

  it('a Read result (Claude Code) is highlighted as the file it read: README.md as Markdown source, its "# demo project" no heading', async () => {
    const v = await view(CLAUDE_EDIT);
    await showLine(v, 16);
    const text = await v.page.$eval('.detail-pane .part-tool-result pre.code-block[data-language="markdown"]', (e: Any) => e.textContent);
    assert.match(text, /# demo project/);
    assert.equal(await v.page.$$eval('.detail-pane .chat .md-heading', (es: Any[]) => es.length), 0);
  });

  it('the Markdown ↔ raw toggle: Tab reaches it, Enter and Space switch it, and the choice is kept when the view is shown again', async () => {
    const v = await view(codexCopy());
    await showLine(v, 14);
    await v.page.click('vscode-tab-header[data-tab="content"]');
    let reached = false;
    for (let k = 0; k < 40 && !reached; k++) {
      await v.page.keyboard.press('Tab');
      reached = await v.page.evaluate(() => (globalThis as Any).document.activeElement?.matches?.('.raw-toggle input') === true);
    }
    assert.ok(reached, 'Tab reaches the toggle');
    await v.page.keyboard.press('Enter');
    assert.equal(await v.page.$eval('.raw-toggle input', (i: Any) => i.checked), true, 'Enter switches to raw text');
    assert.equal(await v.page.$eval('.detail-pane .part-text.plain pre.plain-text', (e: Any) => e.textContent), OUTPUT);
    for (let k = 0; k < 50 && v.savedState?.contentRaw !== true; k++) await v.page.waitForTimeout(50);
    assert.equal(v.savedState?.contentRaw, true, 'the choice is saved in the webview state');
    const since = v.received.length;
    await v.show();
    await v.waitForHost('detail', (m) => m.detail.line === 14, since);
    await v.settle();
    assert.equal(await v.page.$eval('.raw-toggle input', (i: Any) => i.checked), true, 'shown again: still raw');
    assert.ok(await v.page.$('.detail-pane .part-text.plain'), 'shown again: the output is plain text');
    await v.page.focus('.raw-toggle input');
    await v.page.keyboard.press('Space');
    assert.equal(await v.page.$eval('.raw-toggle input', (i: Any) => i.checked), false, 'Space switches back');
    assert.ok(await v.page.$('.detail-pane .part-text.output pre.code-block'), 'back to highlighted output');
  });
});

describe('detail pane: narrow layouts (issue 40, Chromium)', function () {
  this.timeout(240_000);
  const { view } = viewerSuite();

  it('blob card headers in a narrow pane keep the field name and the size whole; only the digest ends in an ellipsis, whole on hover', async () => {
    const v = await view(MURMUR, { width: 700 });
    const blobs = new TraceBlobs(() => ({ extraRoots: [], workspaceFolders: [] }));
    (v.session as unknown as { host: SessionHost }).host.resolveBlob = (digest, algorithm) => blobs.answer(MURMUR, v.model ?? undefined, digest, algorithm);
    await showLine(v, 5);
    await v.page.waitForFunction(() => {
      const cards = [...(globalThis as Any).document.querySelectorAll('.blob-card')];
      return cards.length > 0 && cards.every((c: Any) => c.querySelector('.blob-size'));
    });
    const heads = await v.page.$$eval('.blob-card', (cs: Any[]) =>
      cs.map((c) => {
        const whole = (e: Any) => e.scrollWidth <= e.clientWidth + 1;
        const field = c.querySelector('.blob-field');
        const digest = c.querySelector('.blob-digest');
        return { name: c.dataset.field, field: field.textContent, fieldWhole: whole(field), size: c.querySelector('.blob-size').textContent, sizeWhole: whole(c.querySelector('.blob-size')), digestTitle: digest.title, digestShown: digest.clientWidth, headFits: whole(c.querySelector('.blob-head')) };
      }),
    );
    assert.ok(heads.length >= 6, `${heads.length} cards`);
    assert.ok((await v.page.$eval('.detail-pane', (e: Any) => e.clientWidth)) < 360, 'the pane is narrow');
    for (const h of heads) {
      assert.equal(h.field, h.name);
      assert.ok(h.fieldWhole, `${h.name}: the field name is whole`);
      assert.ok(h.sizeWhole && /\d/.test(h.size), `${h.name}: the size is whole (${h.size})`);
      assert.match(h.digestTitle, /^sha256:[0-9a-f]{64}$/, `${h.name}: the whole digest on hover`);
      assert.ok(h.digestShown > 0, `${h.name}: some of the digest is shown`);
      assert.ok(h.headFits, `${h.name}: the header fits the card`);
    }
    await v.page.$eval('.blob-card', (c: Any) => c.scrollIntoView());
    await v.screenshot('detail-blob-narrow');
  });

  for (const [name, file] of [['claude-code', corpusFile(CLAUDE_SHELL_FAIL)], ['murmur', MURMUR]] as const) {
    it(`${name}: the header wraps into at most 3 lines in a 480 px editor, the toolbar whole`, async () => {
      const v = await view(file, { width: 480 });
      v.session.setCheckResults('verify', await runChecks(v.model!, 'verify'));
      await v.settle();
      const m = await v.page.evaluate(() => {
        const d = (globalThis as Any).document;
        const tops: number[] = [];
        for (const e of d.querySelectorAll('.header .format-chip, .header .fact, .header .check-chip')) {
          for (const r of e.getClientRects()) if (r.width > 0 && !tops.some((t) => Math.abs(t - r.top) < 6)) tops.push(r.top);
        }
        const bar = d.querySelector('.toolbar').getBoundingClientRect();
        const buttons = [...d.querySelectorAll('.toolbar vscode-toolbar-button')].map((b: Any) => b.getBoundingClientRect());
        return { lines: tops.length, width: d.documentElement.clientWidth, inside: buttons.every((b: Any) => b.left >= bar.left - 1 && b.right <= bar.right + 1 && b.right <= d.documentElement.clientWidth) };
      });
      await v.screenshot(`detail-header-480-${name}`);
      assert.equal(m.width, 480);
      assert.ok(m.lines <= 3, `the header takes ${m.lines} lines`);
      assert.ok(m.inside, 'every toolbar button is on screen');
    });
  }

  it('the cache token totals a narrow header hides stay in the token fact’s tooltip', async () => {
    const v = await view(corpusFile(CLAUDE_SHELL_FAIL), { width: 480 });
    await v.settle();
    const hidden = await v.page.$$eval('.header .fact-extra', (es: Any[]) => es.map((e) => [e.textContent, (globalThis as Any).getComputedStyle(e).display]));
    assert.ok(hidden.length > 0 && hidden.every(([, d]: string[]) => d === 'none'), JSON.stringify(hidden));
    const title = await v.page.$eval('.header .fact[title*="cache read tokens"]', (e: Any) => e.title);
    for (const [text] of hidden) assert.ok(title.includes(text), `${text} in the tooltip`);
  });
});

describe('detail pane: highlighted code in High Contrast (issue 40, Chromium)', function () {
  this.timeout(240_000);
  const { view } = viewerSuite();

  for (const theme of ['hc', 'hcLight'] as const) {
    it(`${theme}: highlighted JSON output and shell commands read against their background (contrast ≥ 3)`, async () => {
      const v = await view(codexCopy(), { theme });
      await showLine(v, 15);
      await v.page.waitForSelector('.detail-pane pre.code-block[data-language="json"] .hljs-attr');
      const bad = await v.page.evaluate(lowContrast, 3);
      await v.screenshot(`detail-highlight-${theme}`);
      assert.deepEqual(bad, [], 'every token stands apart from its background');
      const colours = await v.page.$$eval('.detail-pane pre.code-block [class^="hljs-"]', (es: Any[]) => [...new Set(es.map((e) => (globalThis as Any).getComputedStyle(e).color))]);
      assert.ok(colours.length >= 2, `tokens are coloured apart (${colours.join(', ')})`);
    });
  }
});
