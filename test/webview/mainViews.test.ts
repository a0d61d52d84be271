import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { buildSync } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, viewerSuite } from './harness';

/** A real Claude Code transcript. */
const CLAUDE = resolve('test/corpus/claude-code-2.1.332/subagent/projects/-home-user-project/87aba006-238f-4834-a6fa-3396f07d36f4.jsonl');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** webview/mainViews.ts alone, bundled for the page, with a log of the views' callbacks. */
function bundle(): string {
  const entry = `import { MainViews } from './webview/mainViews'; globalThis.MainViews = MainViews;`;
  const r = buildSync({ stdin: { contents: entry, resolveDir: resolve(__dirname, '..', '..'), loader: 'ts' }, bundle: true, write: false, format: 'iife', target: 'es2022' });
  return r.outputFiles[0].text;
}

/** Builds a strip of Tree, Transcript (and Timeline once `late`), wanting `wanted` first. */
async function strip(page: Page, wanted: string | null): Promise<void> {
  await page.evaluate((w) => {
    const g = globalThis as Any;
    g.log = [];
    g.views = new g.MainViews(w, (id: string) => g.log.push(`changed:${id}`));
    g.document.body.appendChild(g.views.element);
    for (const [id, title] of [['tree', 'Tree'], ['transcript', 'Transcript']]) {
      const element = g.document.createElement('div');
      element.textContent = `${title} content`;
      g.views.add({ id, title, element, onShow: () => g.log.push(`show:${id}`), onHide: () => g.log.push(`hide:${id}`), onSelect: (n: number) => g.log.push(`select:${id}:${n}`) });
    }
  }, wanted);
}

const state = (page: Page) => page.evaluate(() => {
  const d = (globalThis as Any).document;
  return {
    selected: [...d.querySelectorAll('[role=tab]')].filter((t: Any) => t.getAttribute('aria-selected') === 'true').map((t: Any) => t.textContent),
    visible: [...d.querySelectorAll('[role=tabpanel]')].filter((p: Any) => !p.hidden).map((p: Any) => p.textContent),
    tabbable: [...d.querySelectorAll('[role=tab]')].filter((t: Any) => t.tabIndex === 0).map((t: Any) => t.textContent),
    focused: d.activeElement?.textContent,
    log: (globalThis as Any).log.splice(0),
  };
});

describe('main views: the Tree | Transcript tab strip (Chromium)', function () {
  this.timeout(60_000);
  let browser: Browser;
  let page: Page;
  const code = bundle();
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => browser?.close());
  beforeEach(async () => {
    page = await browser.newPage();
    await page.setContent('<!doctype html><body></body>');
    // tsx compiles with keepNames, so functions handed to the page call esbuild's `__name` helper.
    await page.addScriptTag({ content: 'globalThis.__name = (f) => f;' });
    await page.addScriptTag({ content: code });
  });
  afterEach(async () => page.close());

  it('shows the first view, switches on click with hide/show calls, and reports each change', async () => {
    await strip(page, null);
    let s = await state(page);
    assert.deepEqual(s.selected, ['Tree']);
    assert.deepEqual(s.visible, ['Tree content']);
    assert.deepEqual(s.log, ['show:tree']);
    await page.click('text=Transcript');
    s = await state(page);
    assert.deepEqual(s.selected, ['Transcript']);
    assert.deepEqual(s.visible, ['Transcript content']);
    assert.deepEqual(s.log, ['hide:tree', 'show:transcript', 'changed:transcript']);
    await page.click('text=Transcript');
    assert.deepEqual((await state(page)).log, [], 'showing the view shown does nothing');
  });

  it('is an ARIA tablist: one tab in the Tab order, arrows, Home and End move and show', async () => {
    await strip(page, null);
    const d = await page.evaluate(() => {
      const doc = (globalThis as Any).document;
      const tab = doc.querySelector('[role=tab]');
      const panel = doc.getElementById(tab.getAttribute('aria-controls'));
      return { list: doc.querySelector('[role=tablist]').getAttribute('aria-label'), labelled: panel.getAttribute('aria-labelledby') === tab.id, role: panel.getAttribute('role') };
    });
    assert.deepEqual(d, { list: 'Main views', labelled: true, role: 'tabpanel' });
    await page.keyboard.press('Tab');
    assert.equal((await state(page)).focused, 'Tree');
    await page.keyboard.press('ArrowRight');
    let s = await state(page);
    assert.deepEqual([s.focused, s.selected[0], s.tabbable.join()], ['Transcript', 'Transcript', 'Transcript']);
    await page.keyboard.press('ArrowRight');
    assert.equal((await state(page)).focused, 'Tree', 'wraps around');
    await page.keyboard.press('End');
    s = await state(page);
    assert.deepEqual([s.focused, s.visible[0]], ['Transcript', 'Transcript content']);
    await page.keyboard.press('Home');
    assert.equal((await state(page)).selected[0], 'Tree');
  });

  it('a persisted view added later is shown when it arrives; select reaches every view', async () => {
    await strip(page, 'timeline');
    assert.deepEqual((await state(page)).selected, ['Tree'], 'until Timeline exists the first view shows');
    await page.evaluate(() => {
      const g = globalThis as Any;
      g.views.add({ id: 'timeline', title: 'Timeline', element: g.document.createElement('div'), onShow: () => g.log.push('show:timeline') });
      g.views.select(7);
    });
    const s = await state(page);
    assert.deepEqual(s.selected, ['Timeline']);
    assert.deepEqual(s.log, ['hide:tree', 'show:timeline', 'select:tree:7', 'select:transcript:7']);
    await assert.rejects(page.evaluate(() => (globalThis as Any).views.add({ id: 'tree', title: 'Again', element: (globalThis as Any).document.createElement('div') })), /added twice/);
  });
});

describe('main views in the viewer (Chromium)', function () {
  this.timeout(120_000);
  const { view } = viewerSuite();
  it('the Tree tab holds the column header and the rows, and the tree works as before', async () => {
    const v = await view(CLAUDE);
    const s = await v.page.evaluate(() => {
      const d = (globalThis as Any).document;
      const panel = d.querySelector('#main-panel-tree');
      return { tab: d.querySelector('#main-tab-tree').getAttribute('aria-selected'), columns: !!panel.querySelector('.tree-columns'), rows: panel.querySelectorAll('.row[data-node]').length };
    });
    assert.equal(s.tab, 'true');
    assert.ok(s.columns);
    assert.ok(s.rows > 3, `rows in the Tree panel: ${s.rows}`);
    assert.deepEqual(v.errors, []);
  });
});
