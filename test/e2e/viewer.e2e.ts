// End-to-end: the built extension in a real VS Code workbench (code-server on 127.0.0.1, Debian Chromium).
// One code-server for the suite; scenarios run one at a time, each starting from no open editors.
// Needs `npm run build` and scripts/install-code-server.sh. Screenshots: test-results/e2e/.
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Frame, Page } from 'playwright-core';
import { cursorStatus, findViewerFrame, goToLine, viewerFrames, makeWorkspace, removeWorkspace, openFromExplorer, problems, rowLabels, runCommand, startWorkbench, until, viewerFrame, waitForNotification, Workbench } from './workbench';

const MURMUR = 'murmur/ses_583584f8e94410c93669237ac44d5d21/trace.jsonl';
const LUMEN = 'lumen/.lumen/trace/58176a1a-9fa5-4945-a4b8-3fa6c7c2f5b6.jsonl';
const TAMPERED_LUMEN = `tampered/${LUMEN}`;
const HARNESS = 'harness-ledger/run_1767261600000_31337_0.jsonl';
/** The murmur trace under a name the viewer is not the default editor for (see scenario d). */
const MURMUR_RENAMED = 'as-text/murmur-session.jsonl';
/** A copy of the murmur session that scenario f appends to (live tail). */
const LIVE = 'live/ses_live/trace.jsonl';
/** murmur line 2 is the task_start every inference hangs under (samples/README.md). */
const TASK_ID = 'evt_019b78fff9057001b1c2f44269e921b4';

describe('e2e: the viewer in a real VS Code workbench', function () {
  this.timeout(240_000);
  let wb: Workbench | undefined;
  let page: Page;
  let step = 0;
  const shot = async (name: string) => wb!.shot(`${String(++step).padStart(2, '0')}-${name}`);

  before(async function () {
    this.timeout(300_000);
    // The renamed copy keeps its blobs/ beside it, as murmur writes them.
    wb = await startWorkbench(
      makeWorkspace({ [MURMUR_RENAMED]: MURMUR, 'as-text/blobs': MURMUR.replace('trace.jsonl', 'blobs'), [LIVE]: MURMUR, [LIVE.replace('trace.jsonl', 'blobs')]: MURMUR.replace('trace.jsonl', 'blobs') }),
    );
    page = wb.page;
    await shot('workbench-ready');
  });

  after(async () => {
    await wb?.stop();
    if (wb) removeWorkspace(wb.workspace);
  });

  beforeEach(async () => {
    // Each scenario starts from a clean editor area and no notifications.
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'Notifications: Clear All Notifications');
    // The Problems panel (scenario c) would hide half of the viewer in later screenshots.
    if (await page.locator('.part.panel').isVisible()) await runCommand(page, 'View: Hide Panel');
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed' || !wb) return;
    const name = `FAILED-${this.currentTest.title.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}`;
    await wb.shot(name).catch(() => undefined);
    wb.saveLogs(name);
  });

  /** Opens `rel` by clicking through the Explorer; "Open in Agent Trace Viewer" when it opened as text. */
  async function openInViewer(rel: string, format: string): Promise<Frame> {
    await openFromExplorer(page, rel.split('/'));
    const name = rel.split('/').pop()!;
    await page.locator('.tabs-container .tab.active').filter({ hasText: name }).waitFor({ state: 'visible' });
    // Only some file names open in the viewer by default (package.json selectors); the rest open as text.
    const file = join(wb!.workspace, rel);
    const asText = page.locator('.editor-group-container.active .monaco-editor .view-lines');
    const opened = await until(page, `an editor for ${rel}`, async () => ((await asText.count()) > 0 ? 'text' : await findViewerFrame(page, file, format)), 90_000);
    if (opened !== 'text') return opened;
    await runCommand(page, 'Agent Trace: Open in Agent Trace Viewer');
    return viewerFrame(page, file, format);
  }

  it('a. opens murmur, lumen and harness traces from the Explorer and shows their trees', async () => {
    const murmur = await openInViewer(MURMUR, 'murmur');
    const m = await rowLabels(murmur);
    assert.ok(m.length > 15, `murmur rows: ${m.length}`);
    assert.ok(m.some((l) => l.startsWith('session_start test-fixer')), `murmur labels: ${m.slice(0, 5).join(' | ')}`);
    assert.ok(m.some((l) => l.startsWith('inference turn 0 claude-sonnet-4-5')), 'an inference row');
    assert.equal(await murmur.locator('.header .file-name').innerText(), 'trace.jsonl');
    await shot('murmur-tree');

    const lumen = await openInViewer(LUMEN, 'lumen');
    const l = await rowLabels(lumen);
    assert.ok(l.length > 15, `lumen rows: ${l.length}`);
    assert.ok(l.some((x) => x.startsWith('run_start 58176a1a')), `lumen labels: ${l.slice(0, 5).join(' | ')}`);
    assert.ok(l.some((x) => x.startsWith('fs.read → ok')), 'a tool call row, worded as every agent\'s');
    await shot('lumen-tree');

    const harness = await openInViewer(HARNESS, 'harness-ledger');
    const h = await rowLabels(harness);
    assert.ok(h.length > 15, `harness rows: ${h.length}`);
    assert.ok(h.some((x) => x.startsWith('run run_1767261600000_31337_0 agent plato')), `harness labels: ${h.slice(0, 5).join(' | ')}`);
    assert.ok(h.some((x) => x.startsWith('tool_call file.read')), 'a tool call row');
    await shot('harness-tree');
  });

  it('b. selecting an event shows its kind and label in the detail pane', async () => {
    const f = await openInViewer(MURMUR, 'murmur');
    await f.locator('.tree-scroll .row[data-line="4"]').click();
    const pane = f.locator('.detail-pane');
    await pane.locator('.detail-label').filter({ hasText: /^read_file: test\/greeting\.test\.js → ok/ }).waitFor({ state: 'visible' });
    const kind = await pane.locator('dl.overview dt', { hasText: /^Kind$/ }).locator('xpath=following-sibling::dd[1]').innerText();
    assert.equal(kind, 'tool_call');
    const line = await pane.locator('dl.overview dt', { hasText: /^Line$/ }).locator('xpath=following-sibling::dd[1]').innerText();
    assert.equal(line, '4');
    assert.equal(await f.locator('.tree-scroll .row.selected').getAttribute('data-line'), '4');
    await shot('murmur-detail');
  });

  it('c1. Verify Chain and Check Conformance on a clean trace leave no error in the Problems panel', async () => {
    await openInViewer(LUMEN, 'lumen');
    await runCommand(page, 'Agent Trace: Verify Chain');
    await waitForNotification(page, /Chain intact: 28 events \(lumen\)/);
    await runCommand(page, 'Agent Trace: Check Conformance');
    await waitForNotification(page, /\(0 errors\) in 28 events \(lumen\)/);
    const rows = await problems(page);
    const mine = rows.filter((r) => r.file === 'lumen/.lumen/trace/58176a1a-9fa5-4945-a4b8-3fa6c7c2f5b6.jsonl');
    assert.deepEqual(mine.filter((r) => r.severity === 'error'), [], JSON.stringify(rows, null, 1));
    await shot('clean-lumen-problems');
  });

  it('c2. Verify Chain on the tampered lumen trace shows lumen/event-hash at line 8 in the Problems panel', async () => {
    await openInViewer(TAMPERED_LUMEN, 'lumen');
    await runCommand(page, 'Agent Trace: Verify Chain');
    await waitForNotification(page, /Broken at line 8: trace event hash mismatch/);
    await runCommand(page, 'Agent Trace: Check Conformance');
    await waitForNotification(page, /in 28 events \(lumen\)/);
    const rows = await problems(page);
    const mine = rows.filter((r) => r.file === 'tampered/lumen/.lumen/trace/58176a1a-9fa5-4945-a4b8-3fa6c7c2f5b6.jsonl');
    const errors = mine.filter((r) => r.severity === 'error');
    assert.equal(errors.length, 1, JSON.stringify(rows, null, 1));
    assert.match(errors[0].text, /lumen\/event-hash/);
    assert.match(errors[0].text, /\[Ln 8, Col 1\]/);
    await shot('tampered-lumen-problems');
  });

  it('c3. Problems → event: the rule code of a finding opens the viewer with its event selected (issue 13 item 3)', async () => {
    // c2 left the tampered trace's findings in the Problems panel. Select another event first, so the jump shows.
    const f = await openInViewer(TAMPERED_LUMEN, 'lumen');
    await f.locator('.tree-scroll .row[data-line="2"]').click();
    await problems(page);
    const row = page.locator('.markers-panel .monaco-list-row').filter({ hasText: 'lumen/event-hash' }).first();
    // The rule code is a link: VS Code's own row click opens the custom editor without the marker's line.
    await row.locator('a.monaco-link').click();
    await until(page, 'the viewer selecting line 8', async () => (await f.locator('.tree-scroll .row.selected').getAttribute('data-line').catch(() => null)) === '8', 20_000);
    const detailLine = await f.locator('.detail-pane dl.overview dt', { hasText: /^Line$/ }).locator('xpath=following-sibling::dd[1]').innerText();
    assert.equal(detailLine, '8');
    // The rule's documentation is the related row under the finding, at the rule's heading (not line 1).
    const related = await page.locator('.markers-panel .monaco-list-row').filter({ hasText: 'About lumen/event-hash' }).first().innerText();
    assert.match(related, /rules\.md\s*\[Ln (\d+)/);
    assert.ok(Number(/\[Ln (\d+)/.exec(related)![1]) > 1, related);
    await shot('problems-rule-link-reveals-event');
  });

  /** Opens `rel` in the viewer, then "Open as Text"; puts the cursor in the parent id of line 3 and checks the hover. */
  async function hoverParentId(rel: string, name: string): Promise<void> {
    await openInViewer(rel, 'murmur');
    await runCommand(page, 'Agent Trace: Open as Text');
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').waitFor({ state: 'visible' });
    // The first inference (line 3) names the task_start of line 2 as its parent: put the cursor in that id.
    const line3 = readFileSync(join(wb!.workspace, rel), 'utf8').split('\n')[2];
    const column = line3.indexOf(`"parent_id":"${TASK_ID}"`) + '"parent_id":"'.length + 5;
    await goToLine(page, 3, column);
    await runCommand(page, 'Show or Focus Hover');
    const hover = page.locator('.monaco-hover .hover-contents').filter({ hasText: 'task_start' }).first();
    await hover.waitFor({ state: 'visible', timeout: 30_000 });
    const text = await hover.innerText();
    assert.match(text, new RegExp(TASK_ID));
    assert.match(text, /task_start tsk_1/);
    assert.match(text, /line 2\b/);
    await shot(`${name}-hover`);
    await page.keyboard.press('Escape');
    await hover.waitFor({ state: 'hidden' });
  }

  it('d. as text: hovering a parent_id shows the parent, Go to Definition jumps to its line', async () => {
    // A trace whose default editor is the text editor (any *.jsonl name); see d2 for trace.jsonl.
    await hoverParentId(MURMUR_RENAMED, 'murmur-as-text');
    await page.keyboard.press('F12');
    await until(page, 'the cursor on the parent line 2', async () => (await cursorStatus(page).catch(() => '')).startsWith('Ln 2, Col 1'));
    assert.equal(await page.locator('.tabs-container .tab.active').getAttribute('aria-label').then((l) => l?.startsWith('murmur-session.jsonl')), true);
    await shot('murmur-as-text-definition');
  });

  // In the text view of a file the viewer is the default editor for (trace.jsonl), VS Code's own F12 would
  // open the definition with the viewer; the extension's F12 keeps the text view and moves the cursor.
  it('d2. Go to Definition in "Open as Text" of a trace.jsonl stays in the text editor', async () => {
    await hoverParentId(MURMUR, 'murmur-trace-as-text');
    await page.keyboard.press('F12');
    await until(page, 'the cursor on the parent line 2', async () => (await cursorStatus(page).catch(() => '')).startsWith('Ln 2, Col 1'));
  });

  it('d3. Ctrl+click on a parent id in the text view of a trace.jsonl selects the parent in the viewer', async () => {
    await hoverParentId(MURMUR, 'murmur-ctrl-click');
    // The cursor sits inside the parent id (hoverParentId put it there): Ctrl+click at the cursor.
    const cursor = page.locator('.editor-group-container.active .monaco-editor .cursor').first();
    const box = await cursor.boundingBox();
    assert.ok(box, 'the text cursor is visible');
    await page.keyboard.down('Control');
    await page.mouse.move(box.x + 2, box.y + box.height / 2);
    await page.mouse.click(box.x + 2, box.y + box.height / 2);
    await page.keyboard.up('Control');
    const f = await viewerFrame(page, join(wb!.workspace, MURMUR), 'murmur');
    await until(page, 'the parent (line 2) selected in the viewer', async () => (await f.locator('.tree-scroll .row.selected').getAttribute('data-line').catch(() => null)) === '2', 30_000);
    await shot('murmur-ctrl-click-viewer');
  });

  it("e. an inference's conversation from its blobs shows in the Content tab", async () => {
    const f = await openInViewer(MURMUR, 'murmur');
    await f.locator('.tree-scroll .row[data-line="3"]').click();
    const content = f.locator('.detail-pane .content-tab');
    await f.locator('.detail-pane .detail-label').filter({ hasText: /^inference turn 0/ }).waitFor({ state: 'visible' });
    await f.locator('.detail-pane .detail-tabs').scrollIntoViewIfNeeded();
    // Issue 4: system prompt, tools, messages and response read from blobs/, as a conversation, each verified.
    const conv = content.locator('.blob-conversation');
    const cards = conv.locator('.blob-card');
    await until(page, 'four verified blob cards', async () => (await conv.locator('.blob-card .blob-state.blob-verified').count()) === 4, 30_000).catch(async (e) => {
      await shot('murmur-content-missing');
      throw e;
    });
    assert.equal(await cards.count(), 4);
    assert.match(await conv.locator('.section-title').innerText(), /^Conversation from blobs \(4\)$/);
    assert.match(await conv.locator('.blob-kind-system').innerText(), /You are test-fixer/);
    assert.equal(await conv.locator('.blob-kind-tools').count(), 1);
    assert.equal(await conv.locator('.blob-kind-message.role-user').count(), 1);
    assert.equal(await conv.locator('.blob-kind-response.role-assistant').count(), 1);
    assert.equal(await content.locator('.blob-state.blob-mismatch, .blob-state.blob-missing').count(), 0, 'no broken blob');
    await shot('murmur-conversation');
  });

  it('e3. Open Blob opens beside the trace, which keeps its tab and selection when the user goes back to it (issue 13 item 11)', async () => {
    const f = await openInViewer(MURMUR, 'murmur');
    await f.locator('.tree-scroll .row[data-line="3"]').click();
    const conv = f.locator('.detail-pane .content-tab .blob-conversation');
    await until(page, 'verified blob cards', async () => (await conv.locator('.blob-card .blob-state.blob-verified').count()) === 4, 30_000);
    await conv.locator('.blob-kind-system .blob-open').first().click();
    // The blob opens in a second group; the trace's tab stays in the first.
    await until(page, 'two editor groups', async () => (await page.locator('.editor-group-container').count()) === 2, 30_000);
    const groups = page.locator('.editor-group-container');
    assert.equal(await groups.nth(0).locator('.tabs-container .tab', { hasText: 'trace.jsonl' }).count(), 1, 'the trace keeps its tab');
    await groups.nth(1).locator('.monaco-editor .view-lines').waitFor({ state: 'visible' });
    assert.match(await groups.nth(1).locator('.tabs-container .tab.active').innerText(), /sha256|blob|[0-9a-f]{8}/i);
    // Back to the trace by its tab (Go Back follows the whole editor history, which earlier scenarios fill).
    await groups.nth(0).locator('.tabs-container .tab', { hasText: 'trace.jsonl' }).click();
    const back = await viewerFrame(page, join(wb!.workspace, MURMUR), 'murmur');
    await until(page, 'the trace active again', async () => /trace\.jsonl/.test(await page.locator('.editor-group-container.active .tabs-container .tab.active').innerText().catch(() => '')), 20_000);
    assert.equal(await back.locator('.tree-scroll .row.selected').getAttribute('data-line'), '3', 'the selection is kept');
    await shot('murmur-open-blob-beside');
  });

  it('e2. a tampered blob shows as a digest mismatch in the conversation', async () => {
    const f = await openInViewer(`tampered/${MURMUR}`, 'murmur');
    // Line 9 sends the tool result whose blob was changed (samples/README.md).
    await f.locator('.tree-scroll .row[data-line="9"]').click();
    // The detail pane is drawn again when line 9's detail arrives (after the event the viewer opened on): wait for it.
    await until(page, 'line 9 in the detail pane', async () => /Line\s*9\b/.test(await f.locator('.detail-pane').innerText().catch(() => '')));
    const conv = f.locator('.detail-pane .content-tab .blob-conversation');
    await f.locator('.detail-pane .detail-tabs').scrollIntoViewIfNeeded();
    const bad = conv.locator('.blob-card').filter({ has: f.locator('.blob-state.blob-mismatch') });
    await until(page, 'a mismatch badge', async () => (await bad.count()) === 1);
    assert.equal(await bad.getAttribute('data-field').then((x) => x?.startsWith('message_shas')), true);
    await bad.scrollIntoViewIfNeeded();
    await shot('tampered-murmur-blob-mismatch');
  });

  it('f. live tail: after an append the checks run again on the new events (no outdated counts)', async () => {
    const f = await openInViewer(LIVE, 'murmur');
    const chips = f.locator('.header .check-chip');
    await until(page, 'the checks on open', async () => (await chips.allInnerTexts()).some((t) => /intact: 23 events/.test(t)), 60_000);
    // The agent writes one more line: a copy of line 22 (its event id is then used twice).
    const file = join(wb!.workspace, LIVE);
    const line22 = readFileSync(file, 'utf8').split('\n')[21];
    appendFileSync(file, `${line22}\n`);
    await until(page, 'verification again on 24 events', async () => (await chips.allInnerTexts()).some((t) => /1 error from line 24/.test(t)), 60_000);
    // Verification and conformance finish one after the other: wait until neither counts the old 23 events.
    let texts: string[] = [];
    await until(page, 'no chip counting the old 23 events', async () => !(texts = await chips.allInnerTexts()).some((t) => /23 events/.test(t)), 60_000).catch(() => undefined);
    assert.ok(!texts.some((t) => /23 events/.test(t)), `no chip counts the old 23 events: ${JSON.stringify(texts)}`);
    await shot('live-tail-rechecked');
    const rows = await problems(page);
    const mine = rows.filter((r) => r.file === `live/ses_live/trace.jsonl`);
    assert.ok(mine.some((r) => /event-id-unique/.test(r.text) && /\[Ln 24, Col 1\]/.test(r.text)), JSON.stringify(mine, null, 1));
    await shot('live-tail-problems');
  });

  it("g. Copy Link to Event from the viewer links the selected event, workspace-relative", async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const f = await openInViewer(MURMUR, 'murmur');
    await f.locator('.tree-scroll .row[data-line="14"]').click();
    await f.locator('.tree-scroll .row.selected[data-line="14"]').waitFor({ state: 'visible' });
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await runCommand(page, 'Agent Trace: Copy Link to Event');
    const link = await until(page, 'the link on the clipboard', async () => (await page.evaluate(() => navigator.clipboard.readText())) || undefined);
    const toast = page.locator('.notifications-toasts .notification-list-item-message').filter({ hasText: `copied link to line 14 of ${MURMUR}` });
    await toast.first().waitFor({ state: 'visible', timeout: 30_000 });
    // On code-server the link is the workbench's own address (asExternalUri: its /callback route, which hands the
    // extension's URI to its handler), so a browser can open it; the extension's URI travels in its query.
    const u = new URL(link);
    assert.match(u.protocol, /^https?:$/, link);
    assert.match(u.pathname, /\/callback$/, link);
    let text = link;
    for (let k = 0; k < 4 && text !== decodeURIComponent(text); k++) text = decodeURIComponent(text);
    assert.ok(text.includes('agent-trace-viewer.agent-trace-viewer') && text.includes('/open'), link);
    assert.ok(text.includes(`path=${MURMUR}`) && text.includes('line=14'), link);
    await shot('copy-link-to-event');
    // Issue 40: the link opens where the user is. Another event first, then the link in a second browser tab: the
    // workbench's viewer (the same tab, no second one) selects line 14 again.
    await f.locator('.tree-scroll .row[data-line="2"]').click();
    await f.locator('.tree-scroll .row.selected[data-line="2"]').waitFor({ state: 'visible' });
    // A second tab of the same browser, as a user pasting the link would open (the page's context allows no newPage).
    const [other] = await Promise.all([page.waitForEvent('popup'), page.evaluate((l) => void window.open(l, '_blank'), link)]);
    try {
      await other.waitForLoadState('domcontentloaded');
      await until(page, 'the link to select line 14 in the viewer', async () => (await f.locator('.tree-scroll .row.selected').getAttribute('data-line').catch(() => null)) === '14', 30_000);
    } finally {
      await other.close();
    }
    assert.equal(await page.locator('.tabs-container .tab', { hasText: 'trace.jsonl' }).count(), 1, 'one tab for the trace');
    await shot('copy-link-opened');
  });

  it('h. Go to Event: a typed "14" lists and goes to the event of line 14, not a label with "1.4k" in it (issue 40)', async () => {
    const f = await openInViewer(MURMUR, 'murmur');
    await f.locator('.tree-scroll .row[data-line="2"]').click();
    await f.locator('.tree-scroll .row.selected[data-line="2"]').waitFor({ state: 'visible' });
    await runCommand(page, 'Agent Trace: Go to Event...', { picks: true });
    await page.locator('.quick-input-widget input.input').fill('14');
    const rows = page.locator('.quick-input-widget .monaco-list-row');
    await until(page, 'the picks narrowed to line 14', async () => {
      const t = await rows.allInnerTexts();
      return t.length === 1 && /line 14\b/.test(t[0]);
    }).catch(async (e) => {
      throw new Error(`${(e as Error).message}: ${JSON.stringify(await rows.allInnerTexts())}`);
    });
    await page.keyboard.press('Enter');
    await until(page, 'line 14 selected in the viewer', async () => (await f.locator('.tree-scroll .row.selected').getAttribute('data-line').catch(() => null)) === '14', 20_000);
    await shot('go-to-event-14');
  });

  it('i. Reveal in Trace Viewer from the text beside an open viewer selects the event there, no second viewer (issue 40)', async () => {
    await openFromExplorer(page, MURMUR_RENAMED.split('/'));
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').waitFor({ state: 'visible' });
    await runCommand(page, 'View: Split Editor Right');
    await until(page, 'two editor groups', async () => (await page.locator('.editor-group-container').count()) === 2);
    await runCommand(page, 'Agent Trace: Open in Agent Trace Viewer');
    const file = join(wb!.workspace, MURMUR_RENAMED);
    const f = await viewerFrame(page, file, 'murmur');
    await runCommand(page, 'View: Focus First Editor Group');
    await goToLine(page, 14, 1);
    await runCommand(page, 'Agent Trace: Reveal in Trace Viewer');
    await until(page, 'line 14 selected in the open viewer', async () => (await f.locator('.tree-scroll .row.selected').getAttribute('data-line').catch(() => null)) === '14', 30_000);
    assert.equal((await viewerFrames(page, file, 'murmur')).length, 1, 'one viewer of the file');
    assert.equal(await page.locator('.editor-group-container').nth(0).locator('.tabs-container .tab').count(), 1, 'the text group keeps its one tab');
    await shot('reveal-in-open-viewer');
    await runCommand(page, 'View: Close All Editor Groups');
  });
});
