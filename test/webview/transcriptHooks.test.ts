import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { buildSync } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { loadTrace } from '../../src/core/loadTrace';
import type { TranscriptBlock } from '../../src/protocol';
import { buildTranscriptIndex } from '../../src/viewer/transcript/transcriptIndex';
import { transcriptPage } from '../../src/viewer/transcript/transcriptPage';
import { launchBrowser } from './harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const CLAUDE_FAIL = resolve('test/corpus/claude-code-2.1.332/shell-fail/projects/-home-user-project/3dc26acc-d87d-484b-8039-4fff8b8812ed.jsonl');

/** webview/transcript/transcriptView.ts alone, bundled for the page. */
function bundle(): string {
  const entry = `import { TranscriptView } from './webview/transcript/transcriptView'; globalThis.TranscriptView = TranscriptView;`;
  return buildSync({ stdin: { contents: entry, resolveDir: resolve(__dirname, '..', '..'), loader: 'ts' }, bundle: true, write: false, format: 'iife', target: 'es2022' }).outputFiles[0].text;
}

/** A TranscriptView in the page, answering its requests with the real blocks of `blocks`. */
async function mount(page: Page, blocks: TranscriptBlock[]): Promise<void> {
  await page.evaluate((all) => {
    const g = globalThis as Any;
    g.requests = [];
    const host = {
      copy() {}, openLink() {}, requestBlob() {}, openBlob() {}, reveal() {}, select() {},
      request: (start: number, count: number, _around: number | undefined, onReply: (m: unknown) => void) => {
        const id = g.requests.push([start, count]);
        setTimeout(() => onReply({ type: 'transcriptPage', requestId: id, modelVersion: 1, total: all.length, start, blocks: all.slice(start, start + count), focus: null }), 0);
        return { id, cancel() {} };
      },
    };
    g.view = new g.TranscriptView(host);
    g.view.element.style.height = '600px';
    g.document.body.appendChild(g.view.element);
    g.view.reset(1);
    g.view.show();
  }, blocks as unknown as Any);
  await page.waitForSelector('.transcript-block');
}

describe('transcript hook for find (Chromium)', function () {
  this.timeout(60_000);
  let browser: Browser;
  let page: Page;
  let blocks: TranscriptBlock[];
  const code = bundle();
  before(async () => {
    browser = await launchBrowser();
    const model = await loadTrace(CLAUDE_FAIL);
    blocks = await transcriptPage(model, buildTranscriptIndex(model), 0, 100, new Map());
  });
  after(async () => browser?.close());
  beforeEach(async () => {
    page = await browser.newPage();
    await page.setContent('<!doctype html><body></body>');
    await page.addScriptTag({ content: 'globalThis.__name = (f) => f;' });
    await page.addScriptTag({ content: code });
  });
  afterEach(async () => page.close());

  it('highlight(RegExp) marks every match as text, and null clears', async () => {
    await mount(page, blocks);
    const marks = () => page.$$eval('mark.transcript-match', (ms: Any[]) => ms.map((m) => m.textContent));
    await page.evaluate(() => (globalThis as Any).view.highlight(/nonexistent/i));
    const found = await marks();
    assert.ok(found.length >= 3 && found.every((t: string) => t.toLowerCase() === 'nonexistent'), `marks: ${found}`);
    await page.evaluate(() => (globalThis as Any).view.highlight(/<script>/));
    assert.deepEqual(await marks(), [], 'no match: nothing marked (and no markup parsed)');
    await page.evaluate(() => (globalThis as Any).view.highlight(null));
    assert.equal(await page.$eval('.transcript', (e: Any) => e.textContent.includes('ls /nonexistent')), true, 'text intact after clearing');
  });
});
