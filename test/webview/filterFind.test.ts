import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { viewerSuite, type ViewerPage } from './harness';

const MURMUR = resolve('samples/murmur/ses_583584f8e94410c93669237ac44d5d21/trace.jsonl');
const HOSTILE = resolve('test/fixtures/filter/hostile-values.jsonl');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

async function openFilter(v: ViewerPage): Promise<void> {
  await v.page.click('vscode-toolbar-button[label="Filter by Kind or Status"]');
  await v.page.waitForSelector('.filter-expr', { state: 'visible' });
}

const completionLabels = (v: ViewerPage) =>
  v.page.$$eval('.filter-completions:not([hidden]) .filter-completion-label', (es: Any[]) => es.map((e) => e.textContent));

describe('filter language and find in the webview (Chromium)', function () {
  this.timeout(120_000);
  const suite = viewerSuite();

  it('a typed expression narrows the tree to matches and their ancestors, shown as chips and saved in the state', async () => {
    const v = await suite.view(MURMUR, { compactChains: false });
    await v.waitForRows();
    await openFilter(v);
    await v.page.fill('.filter-expr', 'kind:shell status:error');
    await v.waitForHost('rowsState', (m) => m.totalRows === 4).catch((e) => {
      throw new Error(`${e.message}: ${JSON.stringify(v.received.filter((m) => m.type === 'rowsState').map((m: Any) => m.totalRows))}`);
    });
    await v.settle();
    assert.deepEqual(await v.rowLabels(), [
      'session_start test-fixer 0.4.2 claude-sonnet-4-5 scoped',
      'task_start tsk_1 a2a user trusted',
      'inference turn 3 claude-sonnet-4-5 tool_call shell 1.5k→66 tokens',
      'shell npm test exit 1 912 ms',
    ]);
    assert.equal(await v.page.$$eval('.row.context', (r: Any[]) => r.length), 3, 'ancestors are context');
    assert.deepEqual(await v.page.$$eval('.filter-chip-text', (es: Any[]) => es.map((e) => e.textContent)), ['kind:shell', 'status:error']);
    assert.equal(v.savedState?.filter.expr, 'kind:shell status:error');
    await v.page.keyboard.press('Escape');
    await v.screenshot('filter-expression');
    // Removing the status chip widens the filter to both shell calls (and their ancestors).
    await v.page.click('.filter-chip:nth-child(2) .filter-chip-remove');
    await v.waitForHost('rowsState', (m) => m.totalRows === 6);
    assert.equal(await v.page.$eval('.filter-expr', (e: Any) => e.value), 'kind:shell');
    // text: looks into the lines: the blob-free phrase "src/greeting.ts" is in the tool call's arguments.
    const since = v.received.length;
    await v.page.fill('.filter-expr', 'text:"src/greeting.ts" -kind:inference');
    await v.waitForHost('rowsState', (m) => m.totalRows === 4, since);
    await v.settle();
    assert.match((await v.rowLabels())[3], /^tool_call read_file \{"path":"src\/greeting.ts"\}/);
  });

  it('says which column is wrong and keeps the last good filter', async () => {
    const v = await suite.view(MURMUR, { compactChains: false });
    await v.waitForRows();
    await openFilter(v);
    await v.page.fill('.filter-expr', 'kind:inference');
    await v.waitForHost('rowsState', (m) => m.totalRows > 0 && m.totalRows < 23);
    await v.page.fill('.filter-expr', 'kind:inference duration>fast');
    await v.page.waitForSelector('.filter-error:not([hidden])');
    assert.equal(await v.page.$eval('.filter-error', (e: Any) => e.textContent), 'Column 25: "fast" is not a number (units: ms, s, m, h)');
    assert.equal(await v.page.$eval('.filter-expr', (e: Any) => e.getAttribute('aria-invalid')), 'true');
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(v.savedState?.filter.expr, 'kind:inference', 'a bad expression is not sent');
    await v.screenshot('filter-error');
  });

  it("completes fields and the trace's values with the keyboard", async () => {
    const v = await suite.view(MURMUR, { compactChains: false });
    await v.waitForRows();
    await openFilter(v);
    await v.page.focus('.filter-expr');
    await v.page.keyboard.type('to');
    assert.deepEqual(await completionLabels(v), ['tool', 'tokens']);
    await v.page.keyboard.press('Enter');
    assert.equal(await v.page.$eval('.filter-expr', (e: Any) => e.value), 'tool:');
    assert.deepEqual(await completionLabels(v), ['edit_file', 'npm', 'read_file']);
    await v.screenshot('filter-completions');
    await v.page.keyboard.press('ArrowDown');
    await v.page.keyboard.press('ArrowDown');
    await v.page.keyboard.press('Tab');
    assert.equal(await v.page.$eval('.filter-expr', (e: Any) => e.value), 'tool:read_file ');
    await v.waitForHost('rowsState', (m) => m.totalRows > 0 && m.totalRows < 23);
  });

  it('hostile kinds and tool names in completions and chips stay text', async () => {
    const v = await suite.view(HOSTILE, { format: 'generic' });
    await v.waitForRows();
    await openFilter(v);
    await v.page.focus('.filter-expr');
    await v.page.keyboard.type('kind:');
    const labels = await completionLabels(v);
    assert.ok(labels.includes('<script>window.__pwned=2</script>') && labels.includes('<img src=x onerror="window.__pwned=1">'), labels.join(' | '));
    assert.equal(await v.page.$$eval('.filter-completion-label .invisible-char', (es: Any[]) => es.map((e) => e.textContent)).then((x: string[]) => x.join()), 'U+202E', 'the bidi override is a visible marker');
    await v.page.keyboard.press('Enter');
    await v.waitForHost('rowsState', (m) => m.totalRows === 2);
    await v.settle();
    assert.equal(await v.page.$eval('.filter-chip-text', (e: Any) => e.textContent), 'kind:"<img src=x onerror=\\"window.__pwned=1\\">"');
    assert.equal(await v.page.$$eval('.filter-box script, .filter-box img, .filter-box iframe', (es: Any[]) => es.length), 0);
    assert.equal(await v.page.evaluate(() => (globalThis as Any).__pwned), undefined);
    await v.screenshot('filter-hostile');
  });
});
