import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { runChecks } from '../../src/core/formatRules';
import { TraceBlobs } from '../../src/viewer/blobResolver';
import type { SessionHost } from '../../src/viewer/sessionHost';
import { viewerSuite, ViewerPage } from './harness';
import { hostileTrace, PAYLOADS } from '../helpers/xssPayloads';
import { readFileSync, writeFileSync } from 'node:fs';
import { tempDir } from '../helpers/tmp';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** Elements and attributes that could run or load something (the page's own head aside). */
async function injected(v: ViewerPage): Promise<Record<string, number | string[]>> {
  return v.page.evaluate(() => {
    const d = (globalThis as Any).document;
    const all = [...d.body.querySelectorAll('*')];
    const URL_ATTRS = ['href', 'src', 'xlink:href', 'action', 'formaction', 'data', 'srcset', 'poster', 'background', 'style'];
    return {
      loaders: d.body.querySelectorAll('img, iframe, frame, object, embed, video, audio, source, form, base, meta, link, svg, math, template, style').length,
      // The viewer's own bundle is the one script, and it carries the page's nonce.
      foreignScripts: d.querySelectorAll('script:not([nonce])').length,
      handlers: all.filter((e: Any) => [...e.attributes].some((a: Any) => a.name.startsWith('on'))).length,
      urls: all.flatMap((e: Any) => [...e.attributes].filter((a: Any) => URL_ATTRS.includes(a.name) && /(javascript|data|vbscript):|url\(|evil\.example/i.test(a.value)).map((a: Any) => `${e.tagName} ${a.name}=${a.value}`)),
    };
  });
}

describe('trace viewer webview: hostile content in every view (Chromium, issue 19)', function () {
  this.timeout(300_000);
  const { view } = viewerSuite();
  let trace = '';
  before(() => (trace = hostileTrace()));
  after(() => rmSync(join(trace, '..'), { recursive: true, force: true }));

  it('renders tree rows, detail tabs, blob cards, hover cards, checks and find results as text: nothing runs or loads', async () => {
    const v = await view(trace, { format: 'generic' });
    const external: string[] = [];
    v.page.on('request', (r) => {
      if (!/^(http:\/\/127\.0\.0\.1:\d+\/|data:application\/font|about:)/.test(r.url())) external.push(r.url());
    });
    const blobs = new TraceBlobs(() => ({ extraRoots: [], workspaceFolders: [] }));
    (v.session as unknown as { host: SessionHost }).host.resolveBlob = (digest, algorithm) => blobs.answer(trace, v.model ?? undefined, digest, algorithm);
    const model = await loadTrace(trace, { format: 'generic' });
    v.session.setCheckResults('verify', await runChecks(model, 'verify'));
    v.session.setCheckResults('check', await runChecks(model, 'check'));
    await v.settle();
    let details = 0;
    for (let line = 1; line <= model.lineCount; line++) {
      const mark = v.received.length;
      v.session.revealLine(line);
      await v.waitForHost('detail', (m) => m.detail.line === line, mark);
      await v.settle();
      for (const tab of ['json', 'raw', 'content']) {
        await v.page.click(`vscode-tab-header[data-tab="${tab}"]`);
        await v.page.$$eval('.json-tree .twistie.codicon-chevron-right', (ts: Any[]) => ts.forEach((t) => t.click()));
        details++;
      }
      await v.page.$$eval('.md-link, .md-link-inert', (ls: Any[]) => ls.forEach((l) => l.click()));
      const link = await v.page.$('.detail-pane .id-link');
      if (link) {
        await link.hover();
        await v.page.waitForSelector('.hover-card:not([hidden])');
        await v.page.hover('.detail-title');
        await v.page.waitForSelector('.hover-card', { state: 'hidden' });
      }
      if (line === 3) await v.screenshot('xss-detail-content');
    }
    await v.page.click('vscode-toolbar-button[label="Show Checks"]');
    await v.settle();
    const findings = await v.page.$$eval('.finding-item', (es: Any[]) => es.map((e) => e.textContent as string));
    assert.ok(findings.some((t) => t.includes('missing <script>')), 'finding messages carrying payloads are listed as text');
    await v.screenshot('xss-checks');
    await v.page.focus('.tree-scroll');
    await v.page.keyboard.press('Control+f');
    await v.findOpen();
    await v.page.fill('.find-bar vscode-textfield input', 'onerror');
    await v.waitForHost('findResults', (m) => m.query === 'onerror' && !m.searching && m.total > 0);
    await v.settle();
    await v.screenshot('xss-find');
    assert.ok((await v.page.$$('.row mark')).length > 0, 'find results are marked in the rows');

    await v.page.waitForTimeout(300);
    assert.equal(await v.page.evaluate(() => (globalThis as Any).__pwned), undefined, 'no trace content ran');
    assert.deepEqual(external, [], 'no request left the page');
    assert.deepEqual(await injected(v), { loaders: 0, foreignScripts: 0, handlers: 0, urls: [] });
    assert.ok(!v.hostCalls.some((c) => /^openExternal:\s*(javascript|data|vbscript):/i.test(c)), 'no script URL reached the host');
    assert.ok(details >= 3 * PAYLOADS.length * 2, `detail tabs shown: ${details}`);
  });

  it('GenAI chat messages stay text in the transcript, in a re-sent history opened in place and in the Content tab (issue 15 item 3)', async () => {
    // The OpenTelemetry SDK's own file, every message text replaced by a payload (the history re-sent as written).
    const file = join(tempDir(), 'otlp-hostile.jsonl');
    const chosen = new Map<string, string>();
    const payloadFor = (text: string) => chosen.get(text) ?? chosen.set(text, PAYLOADS[chosen.size % PAYLOADS.length]).get(text)!;
    // The same text gets the same payload, so the history each call re-sends is still recognised as shown.
    const hostile = readFileSync('test/corpus/otel-js-2.12.1/otlp-traces-messages.jsonl', 'utf8').replace(/\\"content\\":\\"(?:[^"\\]|\\\\.)*?\\"/g, (m) => `\\"content\\":${JSON.stringify(JSON.stringify(payloadFor(m))).slice(1, -1)}`);
    assert.ok(chosen.size >= 3, `${chosen.size} message texts replaced`);
    JSON.parse(hostile);
    writeFileSync(file, hostile);
    const v = await view(file, { width: 1300, height: 900 });
    await v.page.click('#main-tab-transcript');
    await v.page.waitForSelector('.transcript-block .earlier-toggle');
    for (const t of await v.page.$$('.earlier-toggle')) await t.click();
    await v.page.waitForFunction(() => [...(globalThis as Any).document.querySelectorAll('.earlier-body')].every((b: Any) => !b.hidden && b.querySelector('.message')), undefined, { polling: 100, timeout: 20_000 });
    await v.screenshot('xss-transcript-earlier');
    const text = await v.page.$eval('.transcript', (t: Any) => t.textContent as string);
    assert.ok(text.includes(`<img src=x onerror="window.__pwned='img'">`), 'payloads are shown as text');
    for (const chat of await v.page.$$('.transcript-block.category-inference .block-header')) {
      await chat.click();
      await v.waitForHost('detail');
      await v.page.click('vscode-tab-header[data-tab="content"]');
      await v.settle();
    }
    await v.page.waitForFunction(() => ((globalThis as Any).document.querySelector('.detail-pane')?.textContent ?? '').includes('<script>'), undefined, { polling: 100, timeout: 20_000 });
    await v.screenshot('xss-otlp-content');
    await v.page.waitForTimeout(300);
    assert.equal(await v.page.evaluate(() => (globalThis as Any).__pwned), undefined, 'no trace content ran');
    assert.deepEqual(await injected(v), { loaders: 0, foreignScripts: 0, handlers: 0, urls: [] });
  });

  it('shows bidi and control characters as visible markers and keeps the text in order', async () => {
    const v = await view(trace, { format: 'generic' });
    const i = PAYLOADS.indexOf('\u202einvoice_fdp.exe');
    const line = 3 + 2 * i;
    const mark = v.received.length;
    v.session.revealLine(line);
    await v.waitForHost('detail', (m) => m.detail.line === line, mark);
    await v.settle();
    const row = await v.page.$eval(`.row[data-line="${line}"] .label`, (e: Any) => ({ text: e.textContent, markers: [...e.querySelectorAll('.invisible-char')].map((m: Any) => m.textContent) }));
    assert.deepEqual(row.markers, ['U+202E'], JSON.stringify(row.text));
    assert.ok(!/[\u202a-\u202e\u2066-\u2069]/.test(row.text), 'no bidi control reaches the DOM text of the row');
    await v.page.click('vscode-tab-header[data-tab="raw"]');
    const raw = await v.page.$eval('.raw-text', (e: Any) => ({ markers: e.querySelectorAll('.invisible-char').length, text: e.textContent }));
    assert.ok(raw.markers >= 1 && raw.text.includes('U+202Einvoice_fdp.exe'), raw.text);
    const ansi = 3 + 2 * PAYLOADS.findIndex((p) => p.startsWith('\u001b'));
    const m2 = v.received.length;
    v.session.revealLine(ansi);
    await v.waitForHost('detail', (m) => m.detail.line === ansi, m2);
    await v.settle();
    const ansiRow = await v.page.$eval(`.row[data-line="${ansi}"] .label`, (e: Any) => e.textContent as string);
    assert.ok(!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(ansiRow), JSON.stringify(ansiRow));
    // A terminal sequence is dropped whole from a label (issue 40: no `U+001B[31m` chips in the tree); its text stays.
    assert.ok(ansiRow.includes('red') && !ansiRow.includes('[31m') && !ansiRow.includes('U+001B'), ansiRow);
    await v.screenshot('xss-bidi-ansi');
  });
});
