// End-to-end: comparing two runs in a real VS Code workbench (code-server, Debian Chromium). Select Trace for
// Compare on one file in the Explorer, Compare Trace with Selected on another: the compare view opens with the
// two trees aligned; F7 moves to the next change; the Timeline button shows both runs on one axis. Needs `npm run build` and scripts/install-code-server.sh.
// Screenshots: test-results/e2e/compare-*.png.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Frame, Page } from 'playwright-core';
import { compareFrame, contextMenu, explorerRow, makeWorkspace, removeWorkspace, runCommand, startWorkbench, until, Workbench } from './workbench';
import { claudeSession } from '../core/diff/diffPairs';

const selected = (f: Frame) => f.evaluate(() => Number(document.querySelector('.compare-row.selected')?.getAttribute('data-row') ?? -1));

describe('e2e: compare two runs', function () {
  this.timeout(240_000);
  let wb: Workbench | undefined;
  let page: Page;

  before(async function () {
    this.timeout(300_000);
    const ws = makeWorkspace();
    mkdirSync(join(ws, 'compare'), { recursive: true });
    copyFileSync(claudeSession('shell-ok'), join(ws, 'compare', 'shell-ok.jsonl'));
    copyFileSync(claudeSession('shell-fail'), join(ws, 'compare', 'shell-fail.jsonl'));
    wb = await startWorkbench(ws);
    page = wb.page;
  });

  after(async () => {
    await wb?.stop();
    if (wb) removeWorkspace(wb.workspace);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && wb) {
      await wb.shot(`compare-failed-${this.currentTest.title.replace(/\W+/g, '-').slice(0, 50)}`).catch(() => undefined);
      wb.saveLogs('compare-failed');
    }
  });

  it('Select Trace for Compare → Compare Trace with Selected opens the compare view; F7 goes to the next change', async () => {
    await runCommand(page, 'View: Show Explorer');
    await runCommand(page, 'Collapse Folders in Explorer');
    const folder = explorerRow(page, 'compare', 1);
    await folder.waitFor({ state: 'visible', timeout: 30_000 });
    await folder.click();
    await contextMenu(page, 'shell-ok.jsonl', 'Select Trace for Compare');
    await contextMenu(page, 'shell-fail.jsonl', 'Compare Trace with Selected');
    const f = await compareFrame(page);
    const tab = page.locator('.tabs-container .tab', { hasText: 'shell-ok.jsonl ↔ shell-fail.jsonl' });
    await tab.waitFor({ state: 'visible', timeout: 30_000 });
    const summary = await f.locator('.compare-summary').textContent();
    assert.match(summary ?? '', /changed/);
    assert.ok((await selected(f)) >= 0, 'the first change is selected');
    await f.locator('.field-diff').first().waitFor({ state: 'visible', timeout: 30_000 });
    await wb!.shot('compare-01-opened');
    // The writers' bookkeeping rows are folded as in the tree; these two runs then differ step after step (one place).
    // Shown, the places between equal rows are several, for F7 to go through.
    assert.match(summary ?? '', /^differ in 1 place \(F7\)/);
    await f.locator('#compare-bookkeeping').click();
    await until(page, 'the bookkeeping rows shown', async () => (/^differ in [2-9]\d* places/.test((await f.locator('.compare-summary').textContent()) ?? '') ? true : undefined));
    const first = await until(page, 'the first change selected again', async () => {
      const s = await selected(f);
      return s >= 0 ? s : undefined;
    });
    await f.locator(`.compare-row[data-row="${first}"]`).click();
    await page.keyboard.press('F7');
    const next = await until(page, 'F7 to move the selection', async () => {
      const s = await selected(f);
      return s !== first ? s : undefined;
    });
    assert.ok(next > first, `F7 from row ${first} went to ${next}`);
    const op = await f.locator(`.compare-row[data-row="${next}"]`).getAttribute('class');
    assert.match(op ?? '', /op-(change|insert|delete)/);
    // The detail pane follows: its event title names the selected row's line.
    const line = await f.locator(`.compare-row[data-row="${next}"] .compare-line`).first().textContent();
    await until(page, 'the detail of the new row', async () => ((await f.locator('.compare-col-title').first().textContent())?.includes(`line ${line} `) ? true : undefined));
    await wb!.shot('compare-02-after-f7');
    await page.keyboard.press('Shift+F7');
    await until(page, 'Shift+F7 to move back', async () => ((await selected(f)) === first ? true : undefined));
    // The timeline of both runs on one axis: the same rows, the same selection.
    await f.locator('.compare-mode[data-mode="timeline"]').click();
    await f.locator('.compare-lanes').waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await selected(f), first);
    await wb!.shot('compare-03-timeline');
  });
});
