import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from '../helpers/tmp';
import { viewerSuite, ViewerPage } from './harness';
import { corpusPath } from '../helpers/corpus';

const SAMPLE = resolve('test/fixtures/viewer/sample.jsonl');
/** A real murmur session: session → task (tsk_1) → inference → tool_call; the tool call mentions tsk_1. */
const MURMUR = corpusPath('murmur/ses_39263059f28c105d1fb17c2390c192cf/trace.jsonl');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** Selects the row on `line` and waits for its detail. */
async function selectLine(v: ViewerPage, line: number): Promise<void> {
  const since = v.received.length;
  await v.page.click(`.row[data-line="${line}"] .label`);
  await v.waitForHost('detail', (m) => m.detail.line === line, since);
  await v.settle();
}

/** Waits until the detail pane shows the event on `line` (after a jump, a key or a button). */
async function shown(v: ViewerPage, line: number, since: number): Promise<void> {
  await v.waitForHost('detail', (m) => m.detail.line === line, since);
  await v.settle();
  await v.page.waitForFunction((l) => (globalThis as Any).document.querySelector('.row.selected')?.dataset.line === String(l), line);
}

/** The selected row is inside the tree's viewport. */
async function selectedRowVisible(v: ViewerPage): Promise<boolean> {
  return v.page.$eval('.row.selected', (r: Any) => {
    const box = r.getBoundingClientRect();
    const list = r.closest('.tree-scroll').getBoundingClientRect();
    return box.top >= list.top && box.bottom <= list.bottom;
  });
}

describe('trace viewer webview: id navigation (Chromium)', function () {
  this.timeout(120_000);
  const { view } = viewerSuite();

  it('hover card on a JSON id value names the target (kind, line, label, time), and a missing id says so', async () => {
    const v = await view(MURMUR);
    await selectLine(v, 4);
    await v.page.click('vscode-tab-header[data-tab="json"]');
    const parentValue = '.json-tab .json-line:has(> .json-key:text-is("parent_id")) .json-string.id-link';
    assert.ok(await v.page.$(parentValue), 'parent_id in the JSON tab is an id link');
    const idKeys = await v.page.$$eval('.json-tab .json-tree > .json-node > .json-line', (ls: Any[]) => ls.filter((l) => l.querySelector('.id-link')).map((l) => l.querySelector('.json-key').textContent));
    for (const k of ['event_id', 'parent_id', 'session_id', 'task_id', 'tool_call_id']) assert.ok(idKeys.includes(k), `${k} is a link (got ${idKeys.join(', ')})`);
    await v.page.hover(parentValue);
    await v.page.waitForSelector('.hover-card:not([hidden])');
    const card = await v.page.$eval('.hover-card', (e: Any) => e.textContent);
    assert.match(card, /^inference line 3/);
    assert.match(card, /inference turn 0 claude-sonnet-4-5 tool_call bash/);
    assert.match(card, /2026-01-01 00:00:01\.203 UTC/);
    await v.screenshot('nav-hover-card-json');
    await v.page.hover('.detail-title');
    await v.page.waitForSelector('.hover-card', { state: 'hidden' });

    const s = await view(SAMPLE, { format: 'generic' });
    await selectLine(s, 11);
    await s.page.hover('.overview .missing .id-link');
    await s.page.waitForSelector('.hover-card:not([hidden])');
    assert.match(await s.page.$eval('.hover-card', (e: Any) => e.textContent), /missing-parent.*Not in this trace\./);
    await s.page.click('.overview .missing .id-link');
    await s.settle();
    assert.ok(await s.page.$('.row[data-line="11"].selected'), 'clicking an id that names nothing keeps the selection');
  });

  it('clicking an id jumps into a collapsed branch: ancestors expanded, target selected and in view', async () => {
    const v = await view(MURMUR, { height: 420 });
    await selectLine(v, 4);
    await v.page.click('vscode-toolbar-button[label="Collapse All"]');
    await v.waitForHost('rowsState', (m) => m.totalRows === 1);
    await v.settle();
    assert.ok(!(await v.page.$('.row[data-line="3"]')), 'the target is hidden in a collapsed branch');
    await v.page.click('vscode-tab-header[data-tab="json"]');
    const since = v.received.length;
    await v.page.click('.json-tab .json-line:has(> .json-key:text-is("parent_id")) .id-link');
    await shown(v, 3, since);
    assert.equal(await v.page.$eval('.row[data-line="1"]', (r: Any) => r.getAttribute('aria-expanded')), 'true');
    assert.equal(await v.page.$eval('.row[data-line="2"]', (r: Any) => r.getAttribute('aria-expanded')), 'true');
    assert.ok(await selectedRowVisible(v), 'the target row is scrolled into view');
    assert.match(await v.page.$eval('.detail-title', (e: Any) => e.textContent), /inference turn 0/);
    await v.screenshot('nav-jump-collapsed');
  });

  it('Go to Parent / First Child buttons and Alt+↑/↓, Back / Forward buttons and Alt+←/→, breadcrumbs', async () => {
    const v = await view(MURMUR);
    await selectLine(v, 1);
    const titles = await v.page.$$eval('.nav-bar button', (bs: Any[]) => bs.map((b) => `${b.title}${b.disabled ? ' (disabled)' : ''}`));
    assert.deepEqual(titles, ['Back (Alt+←) (disabled)', 'Forward (Alt+→) (disabled)', 'Go to Parent (Alt+↑) (disabled)', 'Go to First Child (Alt+↓)']);
    assert.ok(await v.page.$('.nav-bar .nav-parent .codicon-arrow-up'), 'buttons carry codicons');
    let since = v.received.length;
    await v.page.click('.nav-bar .nav-child');
    await shown(v, 2, since);
    since = v.received.length;
    await v.page.click('.nav-bar .nav-child');
    await shown(v, 3, since);
    since = v.received.length;
    await v.page.keyboard.press('Alt+ArrowDown');
    await shown(v, 4, since);
    assert.equal(await v.page.$eval('.nav-bar .nav-child', (b: Any) => b.disabled), true, 'a leaf has no first child');
    assert.deepEqual(await v.page.$$eval('.breadcrumbs .crumb', (es: Any[]) => es.map((e) => e.textContent.split(' ')[0])), ['session_start', 'task_start', 'inference', 'bash:']);
    since = v.received.length;
    await v.page.click('.nav-bar .nav-parent');
    await shown(v, 3, since);
    since = v.received.length;
    await v.page.keyboard.press('Alt+ArrowUp');
    await shown(v, 2, since);
    since = v.received.length;
    await v.page.click('.nav-bar .nav-back');
    await shown(v, 3, since);
    since = v.received.length;
    await v.page.keyboard.press('Alt+ArrowLeft');
    await shown(v, 4, since);
    assert.equal(await v.page.$eval('.nav-bar .nav-forward', (b: Any) => b.disabled), false);
    since = v.received.length;
    await v.page.click('.nav-bar .nav-forward');
    await shown(v, 3, since);
    since = v.received.length;
    await v.page.keyboard.press('Alt+ArrowRight');
    await shown(v, 2, since);
    assert.equal(await v.page.$eval('.nav-bar .nav-forward', (b: Any) => b.disabled), true, 'nothing left to go forward to');
    since = v.received.length;
    await v.page.click('.nav-bar .nav-child');
    await shown(v, 3, since);
    since = v.received.length;
    await v.page.click('.breadcrumbs .crumb >> text=session_start');
    await shown(v, 1, since);
    await v.screenshot('nav-buttons');
  });

  it('lists children and the events that mention the event, each jumping to its event', async () => {
    const v = await view(MURMUR);
    await selectLine(v, 2);
    const children = await v.page.$$eval('.relations .children .relation-item', (bs: Any[]) => bs.map((b) => b.querySelector('.relation-line').textContent));
    assert.deepEqual(children, ['line 3', 'line 5', 'line 6']);
    assert.match(await v.page.$eval('.relations .children .section-title', (e: Any) => e.textContent), /Children \(3\)/);
    const mentions = await v.page.$$eval('.relations .mentioned-by .relation-item', (bs: Any[]) => bs.map((b) => b.textContent));
    assert.deepEqual(mentions, ['bash: ls → ok, 9 msline 4'], 'the tool call names the task id tsk_1 this task started');
    await v.screenshot('nav-relations');
    await v.page.click('vscode-toolbar-button[label="Collapse All"]');
    await v.waitForHost('rowsState', (m) => m.totalRows === 1);
    const since = v.received.length;
    await v.page.click('.relations .mentioned-by .relation-item');
    await shown(v, 4, since);
    assert.ok(await selectedRowVisible(v));
  });

  it('ids in tree labels are links: hover card, click jumps; a click elsewhere on the row selects it', async () => {
    const v = await view(MURMUR);
    const link = '.row[data-line="6"] .label .row-id-link';
    await v.page.waitForSelector(link);
    assert.equal(await v.page.$eval(link, (e: Any) => e.textContent), 'tsk_1');
    assert.equal(await v.page.$eval('.row[data-line="6"] .label', (e: Any) => e.textContent), 'task_end tsk_1 ok 2 turns 1.7k→76 tokens 2.5 s', 'the label text is unchanged');
    assert.ok(!(await v.page.$('.row[data-line="3"] .row-id-link')), 'a label without ids has no links');
    assert.equal(await v.page.$eval(link, (e: Any) => e.hasAttribute('tabindex')), false, 'the tree stays one tab stop');
    await selectLine(v, 6);
    assert.ok(await v.page.$('.row[data-line="6"].selected'), 'a click on the label outside the id selects the row');
    await v.page.hover(link);
    await v.page.waitForSelector('.hover-card:not([hidden])');
    const card = await v.page.$eval('.hover-card', (e: Any) => e.textContent);
    assert.match(card, /^task_start line 2/);
    assert.match(card, /first event that mentions it/);
    await v.screenshot('nav-tree-id-hover');
    const since = v.received.length;
    await v.page.click(link);
    await shown(v, 2, since);
    assert.ok(!(await v.page.$('.row[data-line="6"].selected')), 'the clicked row is not selected');
    assert.equal(await v.page.$eval('.hover-card', (e: Any) => e.hidden), true);
    assert.equal(await v.page.evaluate(() => (globalThis as Any).document.activeElement?.classList.contains('tree-scroll')), true, 'focus stays on the tree');
  });

  it('caps the children list with a "more" count', async () => {
    const file = join(tempDir(), 'wide.jsonl');
    const lines = ['{"type":"session_start","id":"root"}'];
    for (let i = 1; i <= 45; i++) lines.push(`{"type":"step","id":"e${i}","parent_id":"root"}`);
    writeFileSync(file, lines.join('\n') + '\n');
    const v = await view(file, { format: 'generic' });
    await selectLine(v, 1);
    assert.equal(await v.page.$$eval('.relations .children .relation-item', (bs: Any[]) => bs.length), 20);
    assert.match(await v.page.$eval('.relations .children .relation-more', (e: Any) => e.textContent), /and 25 more/);
  });
});
