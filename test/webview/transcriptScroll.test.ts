// Scrolling a long transcript (Chromium, issue 15): pages met while scrolling are built a few blocks a frame (a
// whole page in one frame was a long frame of layout), yet the blocks stay in file order with no gap or repeat,
// and Find marks the blocks built later.
import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateMurmurTrace } from '../bench/generateMurmur';
import { viewerSuite } from './harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

describe('transcript scrolling (Chromium, issue 15)', function () {
  this.timeout(180_000);
  const { view } = viewerSuite();
  let file: string;
  before(async () => {
    file = join(mkdtempSync(join(tmpdir(), 'atv-transcript-scroll-')), 'trace.jsonl');
    await generateMurmurTrace(file, 3000);
  });

  it('builds pages met while scrolling a few blocks a frame, in file order, with Find marks in the blocks built later', async () => {
    const v = await view(file, { width: 1280, height: 800 });
    await v.page.keyboard.press('Control+f');
    await v.findOpen();
    await v.page.keyboard.type('README');
    await v.waitForHost('findResults', (m) => m.query === 'README' && !m.searching);
    await v.page.click('#main-tab-transcript');
    await v.page.waitForSelector('.transcript mark.transcript-match');
    // In the page: scroll a screen a frame until 200 blocks have been read past, noting how many blocks each
    // frame added (a page arrives as one message; its blocks must not all land in one frame).
    const r = await v.page.evaluate(async () => {
      const g = globalThis as Any;
      const t = g.document.querySelector('.transcript');
      const count = () => t.querySelectorAll('.transcript-block').length;
      const lastIndex = () => Number([...t.querySelectorAll('.transcript-block')].pop()?.getAttribute('aria-posinset') ?? 0);
      let most = 0;
      let before = count();
      for (let k = 0; k < 3000 && lastIndex() < 200; k++) {
        t.scrollTop += 800;
        await new Promise((res) => g.requestAnimationFrame(res));
        const now = count();
        most = Math.max(most, now - before);
        before = now;
      }
      return { most, last: lastIndex() };
    });
    assert.ok(r.last >= 200, `read past block ${r.last}`);
    assert.ok(r.most > 0 && r.most <= 6, `blocks added in one frame: at most ${r.most}`);
    // Once built: consecutive blocks, lines increasing, each tool call (its command names README.md) marked.
    await v.page.waitForFunction(() => (globalThis as Any).document.querySelector('.transcript').getAttribute('aria-busy') === 'false');
    const blocks = await v.page.$$eval('.transcript-block', (bs: Any[]) => bs.map((b) => ({ at: Number(b.getAttribute('aria-posinset')), line: Number(b.dataset.line), text: b.textContent as string, marks: b.querySelectorAll('mark.transcript-match').length })));
    for (let i = 1; i < blocks.length; i++) {
      assert.equal(blocks[i].at, blocks[i - 1].at + 1, `block ${i} follows block ${i - 1}`);
      assert.ok(blocks[i].line > blocks[i - 1].line, `line ${blocks[i].line} after ${blocks[i - 1].line}`);
    }
    // Every turn's rule above it stays, also where a turn opens a page; only the transcript's first turn has none.
    const rules = await v.page.$$eval('.transcript-turn', (ts: Any[]) => ts.map((t) => ({ first: t.nextElementSibling?.getAttribute('aria-posinset') === '1', style: (globalThis as Any).getComputedStyle(t).borderTopStyle })));
    const pageStarts = await v.page.$$eval('.transcript-page > .transcript-turn:first-child', (ts: Any[]) => ts.length);
    assert.ok(rules.length > 10 && pageStarts > 1, `turns ${rules.length}, turns opening a page ${pageStarts}`);
    assert.deepEqual(rules.filter((r) => r.style !== (r.first ? 'none' : 'solid')), [], 'a rule above every turn but the first');
    const tools = blocks.filter((b) => b.text.includes('README.md'));
    assert.ok(tools.length > 50, `tool call blocks in the DOM: ${tools.length}`);
    assert.deepEqual(tools.filter((b) => b.marks === 0).map((b) => b.line), [], 'every tool call block is marked');
  });
});
