import { strict as assert } from 'node:assert';
import { appendFileSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { tempDir } from '../helpers/tmp';
import { viewerSuite } from './harness';

const SAMPLE = resolve('test/fixtures/viewer/sample.jsonl');
const HOSTILE = resolve('test/fixtures/viewer/hostile.jsonl');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

describe('trace viewer webview (Chromium)', function () {
  this.timeout(120_000);
  const suite = viewerSuite();
  // These tests read the sample's real tree; the compact view of chains (generic's default) is tested in viewerCompact.test.ts.
  const view: typeof suite.view = (file, opts = {}) => suite.view(file, { compactChains: false, ...opts });

  it('shows rows in tree order with columns, status colours and the malformed line where it sits in the file', async () => {
    const v = await view(SAMPLE, { format: 'generic' });
    const labels = await v.rowLabels();
    assert.equal(labels.length, 12);
    assert.deepEqual(labels.slice(0, 4), ['session_start', 'user_message', 'inference 1.5 s 1.2k→340 tokens', 'tool_call http.get 12 ms']);
    assert.match(labels[5], /not valid JSON/, 'line 6 is listed between lines 5 and 7, not after the last event');
    const inf = await v.page.$eval('.row[data-line="3"]', (r: Any) => ({ dur: r.querySelector('.col-duration').textContent, tok: r.querySelector('.col-tokens').textContent, off: r.querySelector('.col-offset').textContent, level: r.getAttribute('aria-level'), expanded: r.getAttribute('aria-expanded') }));
    assert.deepEqual(inf, { dur: '1.5 s', tok: '1.2k→340', off: '+2.000 s', level: '2', expanded: 'true' });
    assert.ok(await v.page.$('.row[data-line="5"].status-error'), 'the failed tool result is marked as an error');
    assert.ok(await v.page.$('.row[data-line="7"].status-warning'), 'the denied approval is marked as a warning');
    assert.ok(await v.page.$('.row[data-line="6"].malformed .badge-error'), 'the unparseable line is a visible row with an error badge');
    const header = await v.page.$eval('.header-facts', (e: Any) => e.textContent);
    assert.match(header, /11 events/);
    assert.match(header, /1 session/);
    assert.match(header, /2\.7k in → 420 out tokens/);
  });

  it('selects a row: overview, Content as chat, JSON tree and the exact Raw line', async () => {
    const v = await view(SAMPLE, { format: 'generic' });
    await v.page.click('.row[data-line="3"] .label');
    await v.waitForHost('detail', (m) => m.detail.line === 3);
    await v.settle();
    assert.match(await v.page.$eval('.detail-title', (e: Any) => e.textContent), /inference/);
    assert.equal(await v.page.$eval('.breadcrumbs', (e: Any) => e.textContent), 'session_startinference 1.5 s 1.2k→340 tokens');
    const roles = await v.page.$$eval('.message .message-role', (es: Any[]) => es.map((e) => e.textContent));
    assert.deepEqual(roles, ['assistant']);
    assert.equal(await v.page.$eval('.message .md-heading', (e: Any) => e.textContent), 'Plan');
    assert.equal(await v.page.$eval('.part-tool-call .tool-name', (e: Any) => e.textContent), 'http.get');
    await v.page.click('vscode-tab-header[data-tab="json"]');
    assert.ok(await v.page.isVisible('.json-tab .json-key'));
    const keys = await v.page.$$eval('.json-tab .json-tree > .json-node > .json-line > .json-key', (es: Any[]) => es.map((e) => e.textContent));
    assert.ok(keys.includes('message') && keys.includes('input_tokens'));
    await v.page.hover('.json-tab .json-tree > .json-node:nth-child(2) > .json-line');
    await v.page.click('.json-tab .json-tree > .json-node:nth-child(2) > .json-line .json-actions button:nth-child(2)');
    assert.deepEqual(v.hostCalls.slice(-1), ['copy:id']);
    await v.page.click('vscode-tab-header[data-tab="raw"]');
    const raw = await v.page.$eval('.raw-tab .raw-text', (e: Any) => e.textContent);
    assert.equal(raw, readFileSync(SAMPLE, 'utf8').split('\n')[2]);
    assert.equal(await v.page.$eval('.raw-tab .raw-gutter', (e: Any) => e.textContent), '3');
    await v.page.click('.raw-tab .tab-toolbar button:first-of-type');
    assert.deepEqual(v.hostCalls.slice(-1), ['revealInTextEditor:3']);
  });

  it('keyboard: arrows move the focus, left/right collapse and expand, Home/End/PageDown, Enter selects', async () => {
    const v = await view(SAMPLE, { format: 'generic' });
    await v.page.focus('.tree-scroll');
    const focused = async () => {
      await v.settle();
      return v.page.$eval('.row.focused', (r: Any) => Number(r.dataset.line));
    };
    assert.equal(await focused(), 1);
    await v.page.keyboard.press('ArrowDown');
    await v.page.keyboard.press('ArrowDown');
    assert.equal(await focused(), 3);
    await v.page.keyboard.press('ArrowLeft');
    await v.waitForHost('rowsState', (m) => m.totalRows === 10);
    await v.settle();
    assert.equal(await v.page.$eval('.row[data-line="3"]', (r: Any) => r.getAttribute('aria-expanded')), 'false');
    assert.ok(!(await v.page.$('.row[data-line="4"]')), 'the children are hidden');
    await v.page.keyboard.press('ArrowLeft');
    await v.settle();
    assert.equal(await focused(), 1, 'left on a collapsed row goes to its parent');
    await v.page.keyboard.press('ArrowDown');
    await v.page.keyboard.press('ArrowDown');
    await v.page.keyboard.press('ArrowRight');
    await v.waitForHost('rowsState', (m) => m.totalRows === 12);
    await v.settle();
    await v.page.keyboard.press('ArrowRight');
    await v.settle();
    assert.equal(await focused(), 4, 'right on an expanded row goes to its first child');
    await v.page.keyboard.press('End');
    await v.settle();
    assert.equal(await focused(), 11);
    await v.page.keyboard.press('Home');
    await v.page.keyboard.press('PageDown');
    await v.settle();
    assert.equal(await focused(), 11, 'page down past the end stops at the last row');
    await v.page.keyboard.press('Home');
    await v.page.keyboard.press('ArrowDown');
    await v.page.keyboard.press('Enter');
    await v.waitForHost('detail', (m) => m.detail.line === 2);
    await v.settle();
    assert.ok(await v.page.$('.row[data-line="2"].selected.focused'));
    const outline = await v.page.$eval('.row.focused', (r: Any) => (globalThis as Any).getComputedStyle(r).outlineStyle);
    assert.equal(outline, 'solid', 'the focus is visible');
  });

  it('find (Ctrl+F) counts matches in labels and event text, and reveals one inside a collapsed branch', async () => {
    const v = await view(SAMPLE, { format: 'generic' });
    await v.page.click('vscode-toolbar-button[label="Collapse All"]');
    await v.waitForHost('rowsState', (m) => m.totalRows === 2);
    await v.page.focus('.tree-scroll');
    await v.page.keyboard.press('Control+f');
    await v.findOpen();
    await v.page.keyboard.type('zebra42');
    await v.waitForHost('findResults', (m) => m.query === 'zebra42' && !m.searching && m.current === 1);
    await v.waitForHost('detail', (m) => m.detail.line === 2);
    await v.settle();
    assert.equal(await v.page.$eval('.find-count', (e: Any) => e.textContent), '1 of 1');
    assert.ok(await v.page.$('.row[data-line="2"].match.selected'), 'the match inside the collapsed session is revealed and selected');
    await v.page.fill('.find-bar vscode-textfield input', 'tool_call');
    await v.waitForHost('findResults', (m) => m.query === 'tool_call' && !m.searching && m.current === 1);
    await v.settle();
    assert.equal(await v.page.$eval('.find-count', (e: Any) => e.textContent), '1 of 3');
    await v.screenshot('find-bar');
    assert.equal(await v.page.$eval('.row.selected .label mark', (e: Any) => e.textContent), 'tool_call', 'the match is highlighted in the label');
    await v.page.keyboard.press('Enter');
    await v.waitForHost('findResults', (m) => m.query === 'tool_call' && m.current === 2);
    const beforeBack = v.received.length;
    await v.page.keyboard.press('Shift+Enter');
    await v.page.keyboard.press('Shift+Enter');
    await v.waitForHost('findResults', (m) => m.current === 3, beforeBack);
    await v.settle();
    assert.equal(await v.page.$eval('.find-count', (e: Any) => e.textContent), '3 of 3');
    await v.page.keyboard.press('Escape');
    await v.waitForHost('findResults', (m) => m.query === '');
    assert.ok(await v.page.isHidden('.find-bar'));
  });

  it('filters by status and kind, keeping ancestors as dimmed context', async () => {
    const v = await view(SAMPLE, { format: 'generic' });
    await v.page.click('vscode-toolbar-button[label="Filter by Kind or Status"]');
    await v.page.evaluate(() => {
      const s = (globalThis as Any).document.querySelector('.status-select');
      s.value = 'errors';
      s.dispatchEvent(new (globalThis as Any).Event('change'));
    });
    await v.waitForHost('rowsState', (m) => m.totalRows === 5);
    await v.settle();
    const labels = await v.rowLabels();
    assert.deepEqual(labels.slice(0, 4), ['session_start', 'inference 1.5 s 1.2k→340 tokens', 'tool_call http.get 12 ms', 'tool_result']);
    assert.match(labels[4], /not valid JSON/, 'the unparseable line counts as an error');
    assert.equal(await v.page.$$eval('.row.context', (r: Any[]) => r.length), 3);
    await v.page.evaluate(() => {
      const d = (globalThis as Any).document;
      d.querySelector('.status-select').value = 'all';
      const k = d.querySelector('.kinds-select');
      k.value = ['approval'];
      k.dispatchEvent(new (globalThis as Any).Event('change'));
    });
    await v.waitForHost('rowsState', (m) => m.totalRows === 2);
    await v.settle();
    assert.deepEqual(await v.rowLabels(), ['session_start', 'approval']);
    await v.screenshot('filter-bar');
    await v.page.click('.filter-bar vscode-toolbar-button[label="Clear Filter"]');
    await v.waitForHost('rowsState', (m) => m.totalRows === 12);
  });

  it('live append: new events appear, selection, scroll and collapsed branches are kept, and the banner says so', async () => {
    const file = join(tempDir(), 'live.trace.jsonl');
    copyFileSync(SAMPLE, file);
    const v = await view(file, { format: 'generic' });
    await v.page.click('.row[data-line="8"] .twistie');
    await v.waitForHost('rowsState', (m) => m.totalRows === 10);
    await v.page.click('.row[data-line="4"] .label');
    await v.waitForHost('detail', (m) => m.detail.line === 4);
    // The header's time fact: start · duration (the appended events end two seconds later).
    const timeFact = () => v.page.$eval('.header-facts span[title*="→"]', (e: Any) => e.textContent as string);
    const timeBefore = await timeFact();
    const beforeAppend = v.received.length;
    appendFileSync(file, '{"type":"tool_call","id":"t9","parent_id":"i2","name":"late.tool","timestamp":"2026-01-01T00:00:09.000Z"}\n{"type":"note","id":"n9","parent_id":"s1","timestamp":"2026-01-01T00:00:10.000Z","text":"appended while open"}\n');
    await v.replaceModel(await loadTrace(file, { format: 'generic' }), 'appended', '2 new events');
    await v.waitForHost('detail', (m) => m.detail.line === 4, beforeAppend);
    await v.settle();
    const labels = await v.rowLabels();
    assert.ok(labels.includes('note'), 'the appended sibling is shown');
    assert.ok(!labels.includes('tool_call late.tool'), 'the appended child stays inside its collapsed branch');
    assert.ok(await v.page.$('.row[data-line="4"].selected'), 'the selection is kept');
    assert.equal(await v.page.$eval('.row[data-line="8"]', (r: Any) => r.getAttribute('aria-expanded')), 'false');
    assert.match(await v.page.$eval('.banner', (e: Any) => e.textContent), /2 new events/);
    assert.match(await v.page.$eval('.header-facts', (e: Any) => e.textContent), /13 events/);
    // The rows came with the header as it was plus the new counts; the whole header follows on its own.
    const init = await v.waitForHost('init', (m) => m.header.events === 13, beforeAppend);
    assert.equal(init.header.endTime, '2026-01-01T00:00:08.000Z', 'the time span is the one last computed until the header follows');
    const header = await v.waitForHost('header', (m) => m.header.events === 13, beforeAppend);
    assert.equal(header.header.endTime, '2026-01-01T00:00:10.000Z');
    await v.settle();
    assert.notEqual(await timeFact(), timeBefore);
    await v.screenshot('live-append-header');
    assert.match(await v.page.$eval('.header-facts', (e: Any) => e.textContent), /13 events/);
  });

  it('shows HTML, <script>, onerror= and javascript: content from a trace as text and never runs it', async () => {
    const v = await view(HOSTILE, { format: 'generic' });
    const rows = await v.page.$$eval('.row[data-node]', (rs: Any[]) => rs.map((r) => Number(r.dataset.line)));
    for (const line of rows) {
      await v.page.click(`.row[data-line="${line}"] .label`);
      await v.waitForHost('detail', (m) => m.detail.line === line);
      await v.settle();
      for (const tab of ['content', 'json', 'raw']) {
        await v.page.click(`vscode-tab-header[data-tab="${tab}"]`);
        await v.page.$$eval('.json-tree .twistie.codicon-chevron-right', (ts: Any[]) => ts.forEach((t) => t.click()));
      }
      await v.page.click('vscode-tab-header[data-tab="content"]');
      const raw = await v.page.$('.raw-toggle input');
      if (raw) await raw.click();
      await v.page.$$eval('.md-link, .md-link-inert, .id-link', (ls: Any[]) => ls.forEach((l) => l.click()));
      await v.settle();
    }
    await v.page.waitForTimeout(300);
    assert.equal(await v.page.evaluate(() => (globalThis as Any).__pwned), undefined, 'no trace content ran');
    const injected = await v.page.evaluate(() => {
      const d = (globalThis as Any).document;
      return { img: d.querySelectorAll('img').length, iframe: d.querySelectorAll('iframe, object, embed').length, script: d.querySelectorAll('script').length, style: d.querySelectorAll('body style').length, href: d.querySelectorAll('[href^="javascript"], [src^="javascript"], [onerror], [onload]').length };
    });
    assert.deepEqual(injected, { img: 0, iframe: 0, script: 1, style: 0, href: 0 });
    assert.ok(!v.hostCalls.some((c) => c.startsWith('openExternal:')), 'javascript: links are never handed to the host');
    const beforeRow2 = v.received.length;
    await v.page.click('.row[data-line="2"] .label');
    await v.waitForHost('detail', (m) => m.detail.line === 2, beforeRow2);
    await v.settle();
    await v.screenshot('hostile-content-markdown');
    const markdown = await v.page.$eval('.message .part-text', (e: Any) => e.textContent);
    assert.ok(markdown.includes('Hello <b>bold</b> <script>window.'), 'markup in markdown text is shown as text');
    assert.ok(!(await v.page.$('.message .part-text b')), 'no <b> element came from the trace');
    if (!(await v.page.$eval('.raw-toggle input', (i: Any) => i.checked))) await v.page.click('.raw-toggle input');
    const plain = await v.page.$eval('.message .part-text', (e: Any) => e.textContent);
    assert.ok(plain.includes(`<script>window.__pwned='script'</script> <img src=x onerror="window.__pwned='img'">`), 'the raw text is shown exactly');
    const beforeRow3 = v.received.length;
    await v.page.click('.row[data-line="3"] .label');
    await v.waitForHost('detail', (m) => m.detail.line === 3, beforeRow3);
    await v.settle();
    await v.screenshot('hostile-content-raw');
    assert.match((await v.rowLabels())[0], /<img src=x onerror=/, 'labels with markup are text too');
  });

  it('keeps selection, tab, filter and scroll across hide and show (setState, no retained context)', async () => {
    const v = await view(SAMPLE, { format: 'generic', height: 260 });
    await v.page.click('.row[data-line="8"] .label');
    await v.waitForHost('detail', (m) => m.detail.line === 8);
    await v.page.click('vscode-tab-header[data-tab="raw"]');
    await v.page.click('.row[data-line="3"] .twistie');
    await v.waitForHost('rowsState', (m) => m.totalRows === 10);
    await v.page.$eval('.tree-scroll', (e: Any) => (e.scrollTop = 3 * 22));
    await v.page.waitForFunction(() => (globalThis as Any).document.querySelector('.tree-scroll').scrollTop > 0);
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(v.savedState?.detailTab, 'raw');
    const beforeShow = v.received.length;
    await v.show();
    await v.waitForHost('detail', (m) => m.detail.line === 8, beforeShow);
    await v.settle();
    assert.ok(await v.page.$('.row[data-line="8"].selected'));
    assert.equal(await v.page.$eval('.row[data-line="3"]', (r: Any) => r.getAttribute('aria-expanded')), 'false');
    assert.ok(await v.page.isVisible('.raw-tab .raw-text'), 'the Raw tab is still the open one');
    assert.ok((await v.page.$eval('.tree-scroll', (e: Any) => e.scrollTop)) > 0, 'the scroll position is kept');
  });

  it('shows check results: header summary, badges, and a Checks list whose entries reveal the event', async () => {
    const v = await view(SAMPLE, { format: 'generic' });
    await v.page.click('.row[data-line="3"] .twistie');
    await v.waitForHost('rowsState', (m) => m.totalRows === 10);
    v.session.setCheckResults('verify', { file: SAMPLE, format: 'generic', ok: false, checked: 11, findings: [{ rule: 'chain/prev-hash', severity: 'error', line: 4, message: 'prev_hash is sha256:aa…, expected sha256:bb…' }] });
    await v.settle();
    assert.match(await v.page.$eval('.check-chip', (e: Any) => e.textContent), /chain broken at line 4/);
    await v.page.click('vscode-toolbar-button[label="Show Checks"]');
    const items = await v.page.$$eval('.finding-item', (es: Any[]) => es.map((e) => e.textContent));
    assert.ok(items.some((t: string) => t.includes('chain/prev-hash')));
    assert.ok(items.some((t: string) => t.includes('parse/invalid-json')), 'loader diagnostics are listed too');
    await v.page.click('.finding-item.severity-error >> text=chain/prev-hash');
    await v.waitForHost('detail', (m) => m.detail.line === 4);
    await v.settle();
    assert.ok(await v.page.$('.row[data-line="4"].selected .badge-error'), 'revealed inside the collapsed branch, with its badge');
    assert.match(await v.page.$eval('.detail-findings', (e: Any) => e.textContent), /chain\/prev-hash/);
    v.session.setCheckResults('verify', { file: SAMPLE, format: 'generic', ok: true, checked: 11, findings: [] });
    await v.settle();
    assert.deepEqual(await v.page.$$eval('.check-chip', (es: Any[]) => es.map((e) => e.textContent.trim())), ['lines and links intact: 11 events'], 'a generic trace has no chain to call intact');
    await v.page.click('.checks-header button[aria-label="Verify Chain"]');
    assert.deepEqual(v.hostCalls.slice(-1), ['runChecks:verify']);
  });

  it('jumps to the parent, back and forward (Alt+←/→), and shows a hover card for an id', async () => {
    const v = await view(SAMPLE, { format: 'generic' });
    await v.page.click('vscode-toolbar-button[label="Collapse All"]');
    await v.waitForHost('rowsState', (m) => m.totalRows === 2);
    await v.page.click('.row[data-line="1"] .label');
    await v.waitForHost('detail', (m) => m.detail.line === 1);
    await v.page.keyboard.press('F3');
    await v.page.focus('.tree-scroll');
    v.session.revealLine(5);
    await v.waitForHost('detail', (m) => m.detail.line === 5);
    await v.settle();
    await v.page.click('.overview dd button.link-button >> text=tool_call http.get 12 ms');
    await v.waitForHost('detail', (m) => m.detail.line === 4);
    await v.settle();
    assert.ok(await v.page.$('.row[data-line="4"].selected'));
    // Each step waits for a detail message sent after its key press, never an older one.
    const step = async (key: string, line: number) => {
      const mark = v.received.length;
      await v.page.keyboard.press(key);
      await v.waitForHost('detail', (m) => m.detail.line === line, mark);
      await v.settle();
    };
    await step('Alt+ArrowUp', 3);
    await step('Alt+ArrowLeft', 4);
    await step('Alt+ArrowLeft', 5);
    await step('Alt+ArrowRight', 4);
    await v.page.waitForSelector('.detail-pane .detail-label >> text=/^tool_call http.get/');
    await v.page.hover('.overview .id-link');
    await v.page.waitForSelector('.hover-card:not([hidden])');
    assert.match(await v.page.$eval('.hover-card', (e: Any) => e.textContent), /tool_call line 4/);
  });

  it('never shows a blank panel: a load error is shown with actions', async () => {
    const v = await view(SAMPLE, { format: 'generic' });
    v.session.setError('Cannot read the trace: EACCES: permission denied', ['reload', 'openAsText']);
    await v.settle();
    assert.match(await v.page.$eval('.status-view', (e: Any) => e.textContent), /EACCES/);
    await v.page.click('.status-actions vscode-button[secondary]');
    assert.deepEqual(v.hostCalls.slice(-1), ['openAsText']);
  });

  it('scrolls a 200,000-event trace to the end and back through virtual rows', async () => {
    const file = join(tempDir(), 'big.jsonl');
    const lines: string[] = ['{"type":"session_start","id":"root"}'];
    for (let i = 1; i < 200_000; i++) lines.push(`{"type":"step","id":"e${i}","parent_id":"root","name":"step ${i}","duration_ms":${i % 1000}}`);
    writeFileSync(file, lines.join('\n') + '\n');
    const v = await view(file, { format: 'generic' });
    assert.ok((await v.page.$$('.row')).length < 80, 'only a screenful of row elements exists');
    await v.page.focus('.tree-scroll');
    await v.page.keyboard.press('End');
    await v.page.waitForFunction(() => [...(globalThis as Any).document.querySelectorAll('.row .label')].some((l: Any) => l.textContent.includes('step 199999')));
    await v.page.keyboard.press('Home');
    await v.page.waitForFunction(() => [...(globalThis as Any).document.querySelectorAll('.row .label')].some((l: Any) => l.textContent === 'session_start'));
  });

});
