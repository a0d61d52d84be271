import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { loadTrace } from '../../src/core/loadTrace';
import { FORMAT_NAMES } from '../../src/core/formatNames';
import { runChecks } from '../../src/core/formatRules';
import { buildReport, readReportAssets } from '../../src/report/buildReport';
import { TraceBlobs } from '../../src/viewer/blobResolver';
import { buildOnce, launchBrowser, startServer, openViewer, ViewerPage } from './harness';
import { hostileTrace, PAYLOADS } from '../helpers/xssPayloads';
import { Server } from 'node:http';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
const DIST = resolve(__dirname, '..', '..', 'dist');

/** One sample of every format (the samples the README shows), plus the real-writer OTLP export. */
const TRACES = [
  'samples/murmur/ses_583584f8e94410c93669237ac44d5d21/trace.jsonl',
  'samples/harness-ledger/run_1767261600000_31337_0.jsonl',
  'samples/lumen/.lumen/trace/58176a1a-9fa5-4945-a4b8-3fa6c7c2f5b6.jsonl',
  'samples/agentledger/run_4c6f798988127e13/events.jsonl',
  'samples/deepstrike/.sessions/4b9efe73-6a1e-4496-8068-04a2f64a6e21.jsonl',
  'samples/claude-code/921f39d1-40c5-4a48-826b-c8319e0f40bc.jsonl',
  'samples/codex/rollout-2026-01-01T10-00-00-019b78ff-f900-7000-b662-e79c6061077d.jsonl',
  'samples/otlp/trace.otlp.json',
  'test/fixtures/viewer/sample.jsonl',
  'test/corpus/gemini-cli-0.61.0/shell-fail/stream-json.jsonl',
  'test/corpus/qwen-code-0.24.4/shell-fail/.qwen/projects/-home-user-project/chats/0a126395-6ad8-490b-8fd1-b216eaf6e53f.jsonl',
  'test/corpus/opencode-1.18.33/shell-fail/export.json',
  'test/corpus/copilot-cli-1.0.102/subagent/.copilot/session-state/41053aec-fe00-40c3-ae06-681e9c527db1/events.jsonl',
  'test/corpus/pi-0.73.1/shell-fail/.pi/agent/sessions/--home-user-project--/2026-12-07T02-02-52-827Z_01a24e3d-5819-75af-b274-d6ab33aa2b48.jsonl',
  'test/corpus/continue-1.5.47/shell-fail/output.json',
];

async function writeReport(file: string, dir: string, opts: { maxEvents?: number; blobs?: boolean } = {}): Promise<string> {
  const model = await loadTrace(file);
  const blobs = opts.blobs ? new TraceBlobs(() => ({ extraRoots: [], workspaceFolders: [] })) : undefined;
  const { html } = await buildReport(model, readReportAssets(DIST), { maxEvents: opts.maxEvents, blobs, generator: 'agent-trace test', now: new Date('2026-12-01T12:00:00Z') });
  const out = join(dir, `${basename(file)}.report.html`);
  writeFileSync(out, html);
  return out;
}

/** Opens a report from its file:// URL with every other request refused, and records what the page tried. */
async function openReport(ctx: BrowserContext, path: string): Promise<{ page: Page; refused: string[]; errors: string[] }> {
  const refused: string[] = [];
  const errors: string[] = [];
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.addInitScript(() => {
    const w = globalThis as Any;
    w.__cspViolations = [];
    w.document.addEventListener('securitypolicyviolation', (e: Any) => w.__cspViolations.push(`${e.violatedDirective}: ${e.blockedURI}`));
  });
  await page.goto(pathToFileURL(path).href);
  await page.waitForFunction(() => (globalThis as Any).__atvReportReady === true || (globalThis as Any).__atvReportError !== undefined);
  assert.equal(await page.evaluate(() => (globalThis as Any).__atvReportError), undefined);
  await page.waitForSelector('.row[data-node]');
  return { page, refused, errors };
}

async function rowLabels(page: Page): Promise<string[]> {
  return page.$$eval('.row[data-node]:not([hidden])', (rows) =>
    rows
      .map((r) => ({ y: Number(/translateY\(([-\d.]+)px\)/.exec((r as Any).style.transform)?.[1] ?? 0), t: r.querySelector('.label')?.textContent ?? '' }))
      .sort((a, b) => a.y - b.y)
      .map((x) => x.t),
  );
}

/** A reading of the page once two readings 100 ms apart agree and are not empty (rows render in frames). */
async function settled<T>(read: () => Promise<T>): Promise<T> {
  let last = JSON.stringify(await read());
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const now = await read();
    const text = JSON.stringify(now);
    if (text === last && text !== '[]' && text !== '""') return now;
    last = text;
  }
  return read();
}

/** The header's check badges and the Checks list, as text. */
async function findingsShown(page: Page): Promise<{ chips: string[]; findings: string[] }> {
  const text = (sel: string) => page.$$eval(sel, (els) => els.map((e) => (e.textContent ?? '').trim()));
  return { chips: await text('.check-chip'), findings: await text('.finding-item') };
}

describe('HTML report (agent-trace report)', function () {
  let browser: Browser;
  let ctx: BrowserContext;
  let server: Server;
  let origin: string;
  let dir: string;
  const requests: string[] = [];

  before(async () => {
    buildOnce();
    dir = mkdtempSync(join(tmpdir(), 'atv-report-'));
    browser = await launchBrowser();
    ({ server, origin } = await startServer());
    ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Networking blocked: only the report's own file:// URL is served; anything else is refused and recorded.
    await ctx.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:') && url.endsWith('.report.html')) return route.continue();
      requests.push(url);
      return route.abort();
    });
  });
  after(async () => {
    await ctx?.close();
    await browser?.close();
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('covers every format', async () => {
    const formats = new Set(await Promise.all(TRACES.map(async (f) => (await loadTrace(f)).format)));
    assert.deepEqual([...FORMAT_NAMES].filter((f) => !formats.has(f)), []);
  });

  for (const file of TRACES) {
    it(`opens offline and shows the viewer's rows and findings: ${file.replace(/^samples\//, '')}`, async () => {
      const report = await openReport(ctx, await writeReport(file, dir));
      const viewer: ViewerPage = await openViewer(browser, origin, file);
      try {
        const model = viewer.model!;
        viewer.session.setCheckResults('verify', await runChecks(model, 'verify'));
        viewer.session.setCheckResults('check', await runChecks(model, 'check'));
        await viewer.waitForRows(true);
        const expected = await settled(() => viewer.rowLabels());
        const shown = await settled(() => rowLabels(report.page));
        // The report's page is taller (no editor around it), so it may show more of the virtual rows.
        assert.ok(shown.length >= Math.min(expected.length, 5), `rows shown: ${shown.length}`);
        assert.deepEqual(shown.slice(0, expected.length), expected.slice(0, shown.length), 'same rows');
        assert.ok((await rowLabels(report.page)).length > 0);
        const header = (p: Page) => p.$eval('.header', (h) => h.textContent ?? '').catch(() => '');
        assert.equal(await settled(() => header(report.page)), await settled(() => header(viewer.page)), 'same header (verification and conformance badges)');
        const want = await settled(async () => (await findingsShown(viewer.page)).chips);
        assert.ok(want.length > 0, 'the viewer shows check chips');
        assert.deepEqual(await settled(async () => (await findingsShown(report.page)).chips), want, 'same check chips');
        assert.deepEqual((await findingsShown(report.page)).findings, (await findingsShown(viewer.page)).findings, 'same findings in the Checks list');
        assert.match(await report.page.$eval('#atv-report-note', (n) => n.textContent ?? ''), /exported 2026-12-01T12:00:00\.000Z by agent-trace test\. Verification and conformance results are as of that time\./);
        assert.deepEqual(await report.page.evaluate(() => (globalThis as Any).__cspViolations), [], 'no CSP violations');
        assert.deepEqual(report.errors, [], 'no script errors');
        assert.deepEqual(requests, [], 'no request besides the file itself');
      } finally {
        await report.page.close();
        await viewer.page.close();
      }
    });
  }

  it('shows the details of a selected event, and says what --max-events left out', async () => {
    const file = 'samples/claude-code/921f39d1-40c5-4a48-826b-c8319e0f40bc.jsonl';
    const { page } = await openReport(ctx, await writeReport(file, dir, { maxEvents: 5 }));
    try {
      assert.equal((await rowLabels(page)).length <= 5, true);
      assert.match(await page.$eval('#atv-report-note', (n) => n.textContent ?? ''), /The first 5 events are included; 19 later events are left out \(--max-events 5\)\./);
      await page.click('.row[data-node] .label');
      await page.waitForFunction(() => ((globalThis as Any).document.querySelector('.detail-title')?.textContent ?? '') !== '');
      assert.match(await page.$eval('.detail-pane', (d) => d.textContent ?? ''), /CI is red/);
    } finally {
      await page.close();
    }
  });

  it('shows a bidi override in the kind filter and the timeline as a marker, not live (issue 41 c)', async () => {
    const { page } = await openReport(ctx, await writeReport(resolve('test/fixtures/filter/hostile-values.jsonl'), dir));
    try {
      await page.click('vscode-toolbar-button[label="Filter by Kind or Status"]');
      const options: string[] = await page.$$eval('.kinds-select vscode-option', (es) => es.map((e) => e.textContent ?? ''));
      assert.ok(options.includes('evil[U+202E]txt.exe'), options.join(' | '));
      assert.ok(!options.some((o) => /[\u202a-\u202e\u2066-\u2069]/.test(o)), 'no option holds a bidi control');
      await page.click('.main-view-tab[data-view="timeline"]');
      await page.waitForSelector('.timeline-a11y li');
      const items: string[] = await page.$$eval('.timeline-a11y li', (es) => es.map((e) => e.textContent ?? ''));
      assert.ok(items.some((t) => t.includes('evilU+202Etxt.exe')), items.join(' | '));
      assert.ok(!items.some((t) => /[\u202a-\u202e\u2066-\u2069]/.test(t)), 'no list item holds a bidi control');
    } finally {
      await page.close();
    }
  });

  it('draws every toolbar icon, offers only what works offline, and Find reads the embedded blobs (issue 42)', async () => {
    const file = 'samples/murmur/ses_583584f8e94410c93669237ac44d5d21/trace.jsonl';
    const { page } = await openReport(ctx, await writeReport(file, dir, { blobs: true }));
    try {
      // Each visible button's icon is a codicon glyph inside its shadow root: content set and the font loaded.
      const icons = await page.$$eval('.toolbar vscode-toolbar-button', (bs) =>
        bs.filter((b) => (b as Any).offsetParent !== null).map((b) => {
          const icon = (b as Any).shadowRoot.querySelector('vscode-icon');
          const glyph = icon?.shadowRoot?.querySelector('.codicon');
          const before = glyph ? getComputedStyle(glyph, '::before') : null;
          return { label: b.getAttribute('label'), content: before?.content ?? 'none', font: before?.fontFamily ?? '', width: glyph?.getBoundingClientRect().width ?? 0 };
        }),
      );
      assert.ok(icons.length >= 6, JSON.stringify(icons));
      for (const i of icons) assert.ok(i.content !== 'none' && i.content !== '' && /codicon/.test(i.font) && i.width > 0, `icon of ${i.label}: ${JSON.stringify(i)}`);
      assert.ok(await page.evaluate(() => (globalThis as Any).document.fonts.check('16px codicon')), 'the codicon font is loaded');
      // Re-running checks and opening as text need an editor: a report does not show them.
      const labels = icons.map((i) => i.label);
      for (const gone of ['Verify Chain', 'Check Conformance', 'Open as Text']) assert.ok(!labels.includes(gone), labels.join(', '));
      for (const kept of ['Find (Ctrl+F)', 'Filter by Kind or Status', 'Show Checks']) assert.ok(labels.includes(kept), labels.join(', '));
      // A phrase only a blob holds (the user's second prompt) is found by Find, at the events that send it.
      await page.click('vscode-toolbar-button[label="Find (Ctrl+F)"]');
      await page.waitForSelector('.find-bar:not([hidden]) input, .find-bar:not([hidden]) vscode-textfield');
      await page.keyboard.type('one-line CHANGELOG');
      await page.waitForFunction(() => /\d+ of \d+/.test((globalThis as Any).document.querySelector('.find-count')?.textContent ?? ''), undefined, { timeout: 20000 });
      assert.match(await page.$eval('.find-count', (c) => c.textContent ?? ''), /^1 of [1-9]\d*/);
      await page.click('vscode-toolbar-button[label="Show Result List"]');
      await page.waitForSelector('.find-results:not([hidden]) .find-result-snippet');
      assert.match(await page.$eval('.find-result-snippet', (e) => e.textContent ?? ''), /^message_shas\[16\]: .*one-line CHANGELOG/, 'the result is in a blob the event names');
      assert.match(await page.$eval('.detail-pane', (d) => d.textContent ?? ''), /Line\s*21/, 'the event that sends it is selected');
      assert.deepEqual(await page.evaluate(() => (globalThis as Any).__cspViolations), [], 'no CSP violations');
    } finally {
      await page.close();
    }
  });

  it('runs no script from trace content: the XSS payloads of the webview suite, blobs included', async () => {
    const trace = hostileTrace();
    try {
      const { page } = await openReport(ctx, await writeReport(trace, dir, { blobs: true }));
      try {
        const rows = page.locator('.row[data-node] .label');
        for (let i = 0; i < Math.min(await rows.count(), 12); i++) await rows.nth(i).click();
        const found = await page.evaluate(() => {
          const d = (globalThis as Any).document;
          return { pwned: (globalThis as Any).__pwned, img: d.querySelectorAll('#app img').length, script: d.querySelectorAll('#app script, #atv-report-note *').length, handlers: d.querySelectorAll('#app [onerror], #app [onload], #app [href^="javascript"]').length, csp: (globalThis as Any).__cspViolations };
        });
        assert.deepEqual(found, { pwned: undefined, img: 0, script: 0, handlers: 0, csp: [] });
        const text = await page.$eval('#app', (a) => a.textContent ?? '');
        assert.ok(text.includes(PAYLOADS[0]) || (await rowLabels(page)).some((l) => l.includes('<script>')), 'payloads shown as text');
        assert.deepEqual(requests, [], 'no request: evil.example images and styles were never fetched');
      } finally {
        await page.close();
      }
    } finally {
      rmSync(join(trace, '..'), { recursive: true, force: true });
    }
  });
});
