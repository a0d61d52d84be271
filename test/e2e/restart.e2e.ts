// End-to-end: `npm start` as a returning user meets it (issue 13 items 1, 2, 14). Three starts of the real
// scripts/start.mjs on one state folder and one port (the browser profile is kept too, as a user's is):
// the first with no folder (the samples), the second the same, the third with another folder. Each start
// must load the extension and open the folder it was given; none may show the walkthrough or git's prompt.
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BrowserContext, chromium, Page } from 'playwright-core';
import { SHOTS, until, viewerFrame } from './workbench';

const ROOT = resolve(__dirname, '..', '..');
const MURMUR = 'murmur/ses_583584f8e94410c93669237ac44d5d21/trace.jsonl';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** Runs `node scripts/start.mjs [folder] --port=N` and resolves with the URL it prints. */
function npmStart(state: string, port: number, folder?: string): Promise<Started> {
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.mjs'), ...(folder ? [folder] : []), `--port=${port}`], {
    cwd: ROOT,
    env: { ...process.env, ATV_STATE_DIR: state },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolveUrl, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /\n {2}Open (\S+)/.exec(out);
      if (m) resolveUrl({ child, url: m[1], output: () => out });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before printing a URL:\n${out}`)));
  });
}

/** Ctrl+C: start.mjs stops code-server and exits. */
async function stop(s: Started | undefined): Promise<void> {
  if (!s || s.child.exitCode !== null) return;
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGINT');
  await exited;
}

describe('e2e: npm start, stopped and started again on the same state folder', function () {
  this.timeout(600_000);
  let state: string;
  let other: string;
  let profile: string;
  let context: BrowserContext | undefined;
  let running: Started | undefined;
  let port: number;

  before(async () => {
    state = mkdtempSync(join(tmpdir(), 'atv-e2e-start-state-'));
    profile = mkdtempSync(join(tmpdir(), 'atv-e2e-start-browser-'));
    // Another folder with one trace (a murmur session with its blobs) under another name.
    other = join(mkdtempSync(join(tmpdir(), 'atv-e2e-start-ws-')), 'other-project');
    mkdirSync(join(other, 'runs'), { recursive: true });
    cpSync(join(ROOT, 'samples', 'murmur', 'ses_583584f8e94410c93669237ac44d5d21'), join(other, 'runs', 'session-7'), { recursive: true });
    const { freePort } = await import(pathToFileURL(join(ROOT, 'scripts', 'start-code-server.mjs')).href);
    port = await freePort();
    context = await chromium.launchPersistentContext(profile, { executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: FLAGS, viewport: { width: 1400, height: 900 } });
    mkdirSync(SHOTS, { recursive: true });
  });

  after(async () => {
    await stop(running);
    await context?.close().catch(() => undefined);
    for (const d of [state, profile, resolve(other, '..')]) if (d) rmSync(d, { recursive: true, force: true });
  });

  /** Opens the printed URL in a new tab and waits for the workbench; returns the page. */
  async function openWorkbench(url: string): Promise<Page> {
    const page = await context!.newPage();
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ state: 'visible', timeout: 180_000 });
    // Keyboard shortcuts (F1) go to the focused tab of the shared browser.
    await page.bringToFront();
    return page;
  }

  /** No walkthrough or welcome tab, and no "git repository found in parent folders" prompt. */
  async function assertQuietStart(page: Page): Promise<void> {
    const tabs = await page.locator('.tabs-container .tab').allInnerTexts();
    assert.ok(!tabs.some((t) => /welcome|walkthrough|get started/i.test(t)), `tabs: ${JSON.stringify(tabs)}`);
    const toasts = await page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts();
    assert.ok(!toasts.some((t) => /git repository|parent folder/i.test(t)), `notifications: ${JSON.stringify(toasts)}`);
  }

  /**
   * Waits for the launch trace in the viewer, with no help from the test. VS Code opens a launch file before
   * extensions register, so a browser whose editor cache never saw the viewer shows it as text; the extension
   * then switches it to the viewer on activation (npm start names the file in the server's environment).
   */
  async function launchTraceInViewer(page: Page, file: string): Promise<void> {
    await viewerFrame(page, file, 'murmur', 90_000);
    const tabs = await page.locator('.tabs-container .tab').allInnerTexts();
    assert.equal(tabs.filter((t) => t.includes('trace.jsonl')).length, 1, `one tab of the trace: ${JSON.stringify(tabs)}`);
  }

  /** The workspace folder the Explorer shows (its header). */
  async function explorerFolder(page: Page): Promise<string> {
    return (await page.locator('.explorer-viewlet .pane-header .title').first().innerText()).trim();
  }

  it('1st start (no folder): the samples, the extension loaded, no walkthrough or git prompt', async () => {
    running = await npmStart(state, port);
    const page = await openWorkbench(running.url);
    assert.equal(new URL(running.url).searchParams.get('folder'), join(ROOT, 'samples'));
    assert.match(await explorerFolder(page), /^samples$/i);
    // The sample trace is open in the viewer, although this browser has never seen the viewer.
    await launchTraceInViewer(page, join(ROOT, 'samples', MURMUR));
    await assertQuietStart(page);
    await page.screenshot({ path: join(SHOTS, 'restart-1-first-start.png') });
    await page.close();
    await stop(running);
  });

  it('2nd start on the same state: the extension is still there and the trace opens in the viewer', async () => {
    running = await npmStart(state, port);
    const registry = JSON.parse(readFileSync(join(state, 'extensions', 'extensions.json'), 'utf8')) as { identifier: { id: string } }[];
    assert.deepEqual(registry.map((e) => e.identifier.id), ['agent-trace-viewer.agent-trace-viewer']);
    const page = await openWorkbench(running.url);
    // The extension is loaded: its viewer shows the launch trace.
    await launchTraceInViewer(page, join(ROOT, 'samples', MURMUR));
    await assertQuietStart(page);
    await page.screenshot({ path: join(SHOTS, 'restart-2-second-start.png') });
    await page.close();
    await stop(running);
  });

  it('3rd start with another folder: that folder opens (not the last one), its trace in the viewer', async () => {
    running = await npmStart(state, port, other);
    const page = await openWorkbench(running.url);
    assert.match(await explorerFolder(page), /^other-project$/i);
    await launchTraceInViewer(page, join(other, 'runs', 'session-7', 'trace.jsonl'));
    // A bare URL (a bookmark) goes to the folder of this start too, not to the samples of the last ones.
    const bare = await context!.newPage();
    await bare.goto(`http://127.0.0.1:${port}/`, { waitUntil: 'domcontentloaded' });
    await until(bare, 'the redirect to the folder', async () => new URL(bare.url()).searchParams.get('folder') === other, 60_000);
    await assertQuietStart(page);
    await page.screenshot({ path: join(SHOTS, 'restart-3-other-folder.png') });
    await bare.close();
    await page.close();
    await stop(running);
  });
});
