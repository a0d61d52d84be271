// End-to-end: which files open in the viewer in a real VS Code workbench (code-server, Debian Chromium):
// `.json` traces, a JSON file that is no trace, gzip-compressed traces and a zip. Needs `npm run build` and
// scripts/install-code-server.sh. Screenshots: test-results/e2e/opening-*.png.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Frame, Page } from 'playwright-core';
import { findViewerFrame, makeWorkspace, openFromExplorer, removeWorkspace, rowLabels, runCommand, startWorkbench, until, viewerFrame, Workbench } from './workbench';
import { minimalZip } from '../helpers/binaryFiles';

const ROOT = join(__dirname, '..', '..');
const OTLP = readFileSync(join(ROOT, 'test/corpus/otel-js-2.12.1/otlp-traces.json'));
const MURMUR = readFileSync(join(ROOT, 'samples/murmur/ses_583584f8e94410c93669237ac44d5d21/trace.jsonl'));

/** Files written into the workspace, by workspace-relative path. */
const FILES: Record<string, Buffer> = {
  'opening/spans.otlp.json': OTLP,
  'opening/export.json': OTLP,
  'opening/settings.json': Buffer.from('{\n  "editor.fontSize": 14\n}\n'),
  'opening/session.jsonl.gz': gzipSync(MURMUR),
  // A zip under a name the viewer opens by default (an Inspect .eval is offered no viewer at all).
  'opening/run.trace.jsonl': minimalZip('header.json', Buffer.from('{"status":"success"}')),
};

/** The viewer frame that shows an error view with this text, if any. */
async function errorFrame(page: Page, text: RegExp): Promise<Frame | undefined> {
  for (const f of page.frames()) {
    const message = await f.evaluate(() => document.querySelector('.error-view .status-text')?.textContent ?? null).catch(() => null);
    if (message !== null && text.test(message)) return f;
  }
  return undefined;
}

describe('e2e: opening .json, .gz and binary files', function () {
  this.timeout(240_000);
  let wb: Workbench | undefined;
  let page: Page;
  let step = 0;
  const shot = async (name: string) => wb!.shot(`opening-${String(++step).padStart(2, '0')}-${name}`);
  const activeIsText = async () => (await page.locator('.editor-group-container.active .monaco-editor .view-lines').count()) > 0;

  before(async function () {
    this.timeout(300_000);
    // The gzipped murmur session keeps its blobs/ beside it, as murmur writes them: they resolve beside the .gz.
    const ws = makeWorkspace({ 'opening/blobs': 'murmur/ses_583584f8e94410c93669237ac44d5d21/blobs' });
    for (const [rel, bytes] of Object.entries(FILES)) {
      mkdirSync(dirname(join(ws, rel)), { recursive: true });
      writeFileSync(join(ws, rel), bytes);
    }
    wb = await startWorkbench(ws);
    page = wb.page;
  });

  after(async () => {
    await wb?.stop();
    if (wb) removeWorkspace(wb.workspace);
  });

  beforeEach(async () => {
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'Notifications: Clear All Notifications');
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed' || !wb) return;
    const name = `opening-failed-${(this.currentTest.title.split('.')[0] ?? 'x').trim()}`;
    await wb.shot(name).catch(() => undefined);
    wb.saveLogs(name);
  });

  it('a. opens *.otlp.json in the viewer by default, and a .gz trace too', async () => {
    await openFromExplorer(page, ['opening', 'spans.otlp.json']);
    const otlp = await viewerFrame(page, join(wb!.workspace, 'opening/spans.otlp.json'), 'otlp');
    assert.ok((await rowLabels(otlp)).length > 1);
    await shot('otlp-json-default');
    await openFromExplorer(page, ['opening', 'session.jsonl.gz']);
    const gz = await viewerFrame(page, join(wb!.workspace, 'opening/session.jsonl.gz'), 'murmur');
    assert.ok((await rowLabels(gz)).some((l) => l.startsWith('session_start')));
    const chain = await until(page, 'the verification result of the .gz', async () => {
      const t = await gz.locator('.header[role="status"]').innerText().catch(() => '');
      return /intact|broken at line|gap at line/.test(t) ? t : undefined;
    });
    // murmur has no hash chain: its verification reads as lines and links (parents, ids) plus blobs.
    assert.match(chain, /lines and links intact: 23 events/);
    assert.doesNotMatch(chain, /chain (intact|broken)/);
    await shot('jsonl-gz-default');
  });

  it('b. opens other .json as text, and in the viewer from the palette', async () => {
    await openFromExplorer(page, ['opening', 'export.json']);
    await until(page, 'export.json as text', async () => activeIsText());
    await runCommand(page, 'Agent Trace: Open in Agent Trace Viewer');
    const f = await viewerFrame(page, join(wb!.workspace, 'opening/export.json'), 'otlp');
    assert.ok((await rowLabels(f)).length > 1);
    await shot('json-open-in-viewer');
  });

  it('c. says a JSON file that is no trace is not one, and a zip is a zip', async () => {
    await openFromExplorer(page, ['opening', 'settings.json']);
    await until(page, 'settings.json as text', async () => activeIsText());
    await runCommand(page, 'Agent Trace: Open in Agent Trace Viewer');
    await until(page, 'the not-a-trace message', () => errorFrame(page, /^settings\.json is not a trace/));
    assert.equal(await findViewerFrame(page, join(wb!.workspace, 'opening/settings.json'), 'generic'), undefined);
    await shot('json-not-a-trace');
    await runCommand(page, 'View: Close All Editors');
    await openFromExplorer(page, ['opening', 'run.trace.jsonl']);
    await until(page, 'the zip message', () => errorFrame(page, /^run\.trace\.jsonl is a zip archive, not a JSONL trace\.$/));
    await shot('zip-not-a-trace');
  });
});
