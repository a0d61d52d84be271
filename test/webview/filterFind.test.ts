import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TraceBlobs } from '../../src/viewer/blobResolver';
import type { SessionHost } from '../../src/viewer/sessionHost';
import { tempDir } from '../helpers/tmp';
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

/** Plugs the real blob resolver and store into the page's session, as the extension does. */
function withBlobs(v: ViewerPage, trace: string, format: 'murmur' | 'generic'): void {
  const blobs = new TraceBlobs(() => ({ extraRoots: [], workspaceFolders: [] }));
  const host = (v.session as unknown as { host: SessionHost }).host;
  host.resolveBlob = (digest, algorithm) => blobs.answer(trace, v.model ?? undefined, digest, algorithm);
  host.blobStore = () => blobs.store(trace, format);
}

async function find(v: ViewerPage, query: string): Promise<void> {
  await v.page.focus('.tree-scroll');
  await v.page.keyboard.press('Control+f');
  await v.findOpen();
  await v.page.keyboard.type(query);
  await v.waitForHost('findResults', (m) => m.query === query && !m.searching);
}

/** A generic trace whose one blob holds hostile markup around a phrase found nowhere else. */
function hostileBlobTrace(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'blobs'));
  const blob = JSON.stringify({ role: 'tool', content: '<img src=x onerror="window.__pwned=3"> \u202e needle-zq7 <script>window.__pwned=4</script>' });
  const digest = createHash('sha256').update(blob).digest('hex');
  writeFileSync(join(dir, 'blobs', digest), blob);
  const lines = [
    { type: 'session_start', id: 's0', timestamp: '2026-02-01T10:00:00Z' },
    { type: 'tool_call', id: 't1', parent_id: 's0', name: 'shell', timestamp: '2026-02-01T10:00:01Z' },
    { type: 'tool_result', id: 't2', parent_id: 't1', timestamp: '2026-02-01T10:00:02Z', output_sha256: digest },
  ];
  const path = join(dir, 'trace.jsonl');
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return path;
}

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
      'shell: npm test → exit 1, 912 ms',
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
    assert.match((await v.rowLabels())[3], /^read_file: src\/greeting\.ts → error/);
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

  it('the kind filter lists a bidi override as a visible marker, not as a live override; picking it still filters', async () => {
    for (const theme of ['dark', 'hc'] as const) {
      const v = await suite.view(HOSTILE, { format: 'generic', theme });
      await v.waitForRows();
      await openFilter(v);
      const options: string[] = await v.page.$$eval('.kinds-select vscode-option', (es: Any[]) => es.map((e) => e.textContent));
      assert.ok(options.includes('evil[U+202E]txt.exe'), options.join(' | '));
      assert.ok(!options.some((o) => /[\u202a-\u202e\u2066-\u2069]/.test(o)), 'no option holds a bidi control');
      await v.page.click('.kinds-select');
      // The list the select draws (in its shadow root) shows the same text.
      const listed: string = await v.page.$eval('.kinds-select', (e: Any) => e.shadowRoot.textContent);
      assert.ok(listed.includes('evil[U+202E]txt.exe') && !/[\u202a-\u202e\u2066-\u2069]/.test(listed), listed);
      await v.screenshot(`filter-kinds-bidi-${theme}`);
      if (theme === 'dark') {
        // The option's value is the kind itself: choosing it shows that one event.
        await v.page.$eval('.kinds-select', (e: Any) => {
          e.value = ['evil\u202etxt.exe'];
          e.dispatchEvent(new Event('change'));
        });
        await v.waitForHost('rowsState', (m) => m.totalRows === 2);
      }
    }
  });

  it('finds a phrase only a blob holds, reveals its events and marks it in the Content tab', async () => {
    const v = await suite.view(MURMUR, { compactChains: false });
    withBlobs(v, MURMUR, 'murmur');
    await v.waitForRows();
    await find(v, 'escape HTML');
    const r = await v.waitForHost('findResults', (m) => m.query === 'escape HTML' && !m.searching && m.current === 1);
    // The sample's first user message (a blob) asks to escape HTML; every inference that sends it matches.
    assert.equal(r.total, 9);
    assert.ok(r.results!.every((x) => x.where === 'blob'));
    await v.waitForHost('detail', (m) => m.detail.line === 3);
    await v.page.waitForSelector('.detail-pane mark.find-match');
    const marked = await v.page.$$eval('.detail-pane mark.find-match', (es: Any[]) => es.map((e) => e.textContent));
    assert.ok(marked.length > 0 && marked.every((t: string) => t.toLowerCase() === 'escape html'), marked.join(' | '));
    assert.ok(await v.page.$eval('.detail-pane mark.find-match', (e: Any) => !!e.closest('.blob-card')), 'the mark is inside the blob card');
    await v.page.click('vscode-toolbar-button[label="Show Result List"]');
    await v.page.waitForSelector('.find-results:not([hidden]) .find-result');
    assert.deepEqual(await v.page.$$eval('.find-result .find-result-line', (es: Any[]) => es.map((e) => Number(e.textContent))), [3, 5, 7, 9, 11, 13, 15, 18, 21]);
    assert.match(await v.page.$eval('.find-result .find-result-snippet', (e: Any) => e.textContent), /^message_shas\[0\]: .*escape HTML/i);
    await v.screenshot('find-blob-match');
    // A result of the list reveals its event.
    const since = v.received.length;
    await v.page.click('.find-result:nth-child(4)');
    await v.waitForHost('detail', (m) => m.detail.line === r.results![3].line, since);
  });

  it('hostile blob text in results and marks stays text', async () => {
    const trace = hostileBlobTrace();
    const v = await suite.view(trace, { format: 'generic' });
    withBlobs(v, trace, 'generic');
    await v.waitForRows();
    await find(v, 'needle-zq7');
    const r = await v.waitForHost('findResults', (m) => m.query === 'needle-zq7' && !m.searching && m.total === 1);
    assert.equal(r.results![0].where, 'blob');
    await v.page.click('vscode-toolbar-button[label="Show Result List"]');
    await v.page.waitForSelector('.find-results:not([hidden]) .find-result-snippet');
    const snippet = await v.page.$eval('.find-result-snippet', (e: Any) => e.textContent);
    assert.match(snippet, /<img src=x onerror=\\"window.__pwned=3\\">/);
    assert.deepEqual(await v.page.$$eval('.find-results .invisible-char', (es: Any[]) => es.map((e) => e.textContent)), ['U+202E'], 'the bidi override is a visible marker');
    await v.waitForHost('detail', (m) => m.detail.line === 3);
    await v.page.waitForSelector('.detail-pane mark.find-match');
    assert.equal(await v.page.$$eval('body img, body iframe, script:not([nonce])', (es: Any[]) => es.length), 0);
    assert.equal(await v.page.evaluate(() => (globalThis as Any).__pwned), undefined);
    await v.screenshot('find-hostile-blob');
  });
});
