import { strict as assert } from 'node:assert';
import { viewerSuite } from './harness';
import { CLAUDE_SHELL_FAIL, corpusFile } from '../helpers/treeCorpus';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

describe('tree reading: rows that say what happened, the first open (Chromium, real corpus files)', function () {
  this.timeout(120_000);
  const { view } = viewerSuite();

  it('a Claude Code transcript opens with its first message selected and shown; ArrowDown goes to the next row', async () => {
    const v = await view(corpusFile(CLAUDE_SHELL_FAIL));
    await v.waitForHost('detail', (m) => m.detail.line === 3);
    await v.settle();
    const title = await v.page.$eval('.detail-pane', (e: Any) => e.textContent as string);
    assert.doesNotMatch(title, /Select an event/);
    assert.ok(await v.page.$('.row[data-line="3"].selected.focused'), 'the first message row is focused and selected');
    const before = v.received.length;
    await v.page.keyboard.press('ArrowDown');
    const d = await v.waitForHost('detail', () => true, before);
    assert.ok(d.detail.line > 3, `ArrowDown moves past the selected row (to line ${d.detail.line})`);
  });
});
