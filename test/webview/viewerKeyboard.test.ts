import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { viewerSuite } from './harness';

const SAMPLE = resolve('test/fixtures/viewer/sample.jsonl');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** Which part of the viewer the focused element is in. */
function focusRegion(): string {
  const a = (globalThis as Any).document.activeElement;
  if (!a || a === (globalThis as Any).document.body) return 'body';
  if (a.closest('.tree-scroll')) return 'tree';
  if (a.closest('.splitter')) return 'splitter';
  if (a.closest('.detail-slot')) return 'detail';
  if (a.closest('.top')) return 'header';
  if (a.closest('.find-bar, .filter-bar, .banner')) return 'bars';
  if (a.closest('.tree-pane')) return 'tree-pane';
  return `other:${a.tagName}.${a.className}`;
}

describe('viewer keyboard: from opening a trace to reading a detail (Chromium)', function () {
  this.timeout(120_000);
  const { view } = viewerSuite();

  it('opens with the keyboard in the tree; ArrowDown twice shows the third event, without Enter', async () => {
    const v = await view(SAMPLE, { format: 'generic' });
    assert.equal(await v.page.evaluate(focusRegion), 'tree', 'the tree has the focus on open, not the page body');
    await v.page.keyboard.press('ArrowDown');
    await v.page.keyboard.press('ArrowDown');
    const d = await v.waitForHost('detail', (m) => m.detail.line === 3);
    await v.settle();
    assert.equal(d.detail.kind, 'inference');
    assert.match(await v.page.$eval('.detail-title', (e: Any) => e.textContent), /inference/);
    assert.ok(await v.page.$('.row[data-line="3"].selected.focused'), 'the third row is focused and selected');
    const selects = v.sent.filter((m) => m.type === 'select').map((m) => (m as { node: number }).node);
    assert.deepEqual(selects, [2], 'one detail request after the keys settle, not one per key');
    await v.screenshot('keyboard-arrow-detail');
  });

  it('ArrowLeft on a leaf selects its parent; Tab goes tree → detail pane → header controls', async () => {
    const v = await view(SAMPLE, { format: 'generic' });
    for (let k = 0; k < 4; k++) await v.page.keyboard.press('ArrowDown');
    await v.waitForHost('detail', (m) => m.detail.line === 5);
    await v.page.keyboard.press('ArrowLeft');
    await v.waitForHost('detail', (m) => m.detail.line === 4);
    await v.settle();
    const regions: string[] = [];
    for (let k = 0; k < 40; k++) {
      await v.page.keyboard.press('Tab');
      const r = await v.page.evaluate(focusRegion);
      if (regions[regions.length - 1] !== r) regions.push(r);
      if (r === 'header') break;
    }
    assert.deepEqual(regions, ['splitter', 'detail', 'header'], `Tab order: ${regions.join(' → ')}`);
    await v.page.keyboard.press('Shift+Tab');
    assert.equal(await v.page.evaluate(focusRegion), 'detail', 'Shift+Tab goes back to the detail pane');
  });
});
