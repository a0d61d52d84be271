/// <reference lib="dom" />
// Drives a real VS Code workbench (code-server on loopback) with playwright-core and Debian's Chromium.
// One workbench per suite: startWorkbench() in before(), stop() in after(). Every helper waits for a DOM
// state (never a fixed sleep), so a slow machine only makes the run slower, not flaky.
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, Browser, Frame, Locator, Page } from 'playwright-core';

const ROOT = resolve(__dirname, '..', '..');
/** Screenshots and failure logs go here (CI keeps the folder as an artifact). */
export const SHOTS = join(ROOT, 'test-results', 'e2e');
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** The workbench's first load (code-server boot, extension host, our activation) takes a while on 2 cores. */
const FIRST_LOAD_MS = 180_000;

interface CodeServer {
  url: string;
  stop(): Promise<void>;
  output(): string;
}

/** A running workbench: code-server with the built extension installed, and a Chromium page on it. */
export interface Workbench {
  page: Page;
  workspace: string;
  /** Saves a screenshot under test-results/e2e/<name>.png and returns its bytes. */
  shot(name: string): Promise<Buffer>;
  /** Writes the browser console and code-server's output to test-results/e2e/<name>.log. */
  saveLogs(name: string): void;
  stop(): Promise<void>;
  /** Browser console lines seen so far. */
  console: string[];
}

/**
 * Copies the project's samples/ into a fresh workspace folder and returns it; `extra` maps more
 * workspace-relative paths to sample paths to copy there.
 */
export function makeWorkspace(extra: Record<string, string> = {}): string {
  const ws = join(mkdtempSync(join(tmpdir(), 'atv-e2e-ws-')), 'samples');
  cpSync(join(ROOT, 'samples'), ws, { recursive: true });
  for (const [dest, src] of Object.entries(extra)) {
    mkdirSync(dirname(join(ws, dest)), { recursive: true });
    cpSync(join(ROOT, 'samples', src), join(ws, dest), { recursive: true });
  }
  return ws;
}

/** Removes a folder made by makeWorkspace(). */
export function removeWorkspace(ws: string): void {
  const parent = dirname(ws);
  if (parent.startsWith(join(tmpdir(), 'atv-e2e-ws-'))) rmSync(parent, { recursive: true, force: true });
}

async function writeSettings(userDataDir: string, extra: Record<string, unknown>): Promise<void> {
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  // The quiet workbench of `npm start` (no welcome page, trust prompt or telemetry notice), plus quick hovers.
  const demo = (await import(pathToFileURL(join(ROOT, 'scripts', 'demoState.mjs')).href)) as { DEMO_SETTINGS: Record<string, unknown> };
  const settings = {
    ...demo.DEMO_SETTINGS,
    'window.restoreWindows': 'none',
    'editor.hover.delay': 200,
    'workbench.editor.enablePreview': false,
    'chat.commandCenter.enabled': false,
    // One row per folder in the Explorer, so a path is clicked through segment by segment.
    'explorer.compactFolders': false,
    'editor.minimap.enabled': false,
    // Screenshots of hovers and notifications mid-fade are hard to read.
    'workbench.reduceMotion': 'on',
    ...extra,
  };
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
}

/** Starts code-server on 127.0.0.1 with the extension from dist/ and opens the workspace in Chromium. */
/** `settings`: user settings besides the quiet workbench's (the workbench benchmark sets `agentTrace.workers`). */
export async function startWorkbench(workspace: string, settings: Record<string, unknown> = {}): Promise<Workbench> {
  if (!existsSync(join(ROOT, 'dist', 'extension.js'))) throw new Error('dist/extension.js is missing: run `npm run build` first');
  const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  const state = mkdtempSync(join(tmpdir(), 'atv-e2e-state-'));
  const extensionsDir = join(state, 'extensions');
  const userDataDir = join(state, 'user-data');
  await writeSettings(userDataDir, settings);
  const setup = await import(pathToFileURL(join(ROOT, 'scripts', 'setup.mjs')).href);
  setup.installExtensionInto(extensionsDir);
  const { startCodeServer } = await import(pathToFileURL(join(ROOT, 'scripts', 'start-code-server.mjs')).href);
  const cs: CodeServer = await startCodeServer({ workspace, extensionsDir, userDataDir, port: 0 });
  let browser: Browser | undefined;
  const consoleLines: string[] = [];
  const cleanup = async () => {
    await browser?.close().catch(() => undefined);
    await cs.stop();
    rmSync(state, { recursive: true, force: true });
  };
  try {
    browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_FLAGS });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => consoleLines.push(`pageerror: ${e.message}`));
    const url = new URL(cs.url);
    url.searchParams.set('folder', workspace);
    await page.goto(url.toString(), { waitUntil: 'domcontentloaded' });
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ state: 'visible', timeout: FIRST_LOAD_MS });
    mkdirSync(SHOTS, { recursive: true });
    return {
      page,
      workspace,
      console: consoleLines,
      shot: (name) => page.screenshot({ path: join(SHOTS, `${name}.png`) }),
      saveLogs: (name) => {
        mkdirSync(SHOTS, { recursive: true });
        writeFileSync(join(SHOTS, `${name}.console.log`), consoleLines.join('\n'));
        writeFileSync(join(SHOTS, `${name}.code-server.log`), cs.output());
      },
      stop: cleanup,
    };
  } catch (err) {
    const out = cs.output().slice(-2000);
    await cleanup();
    throw new Error(`workbench did not start: ${(err as Error).message}\n${consoleLines.slice(-30).join('\n')}\n${out}`);
  }
}

/** Waits until `fn` returns a value (not undefined/false), polling; throws `what` after `timeout` ms. */
export async function until<T>(page: Page, what: string, fn: () => Promise<T | undefined | false>, timeout = 30_000): Promise<T> {
  const deadline = Date.now() + timeout;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined && v !== false) return v as T;
    } catch (e) {
      last = e; // frames detach while the workbench re-renders: try again
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? ` (${(last as Error).message})` : ''}`);
    await page.waitForTimeout(200);
  }
}

const quickInput = (page: Page) => page.locator('.quick-input-widget');

/**
 * Runs a command from the command palette by its exact title (e.g. "Agent Trace: Verify Chain"). `picks`: the
 * command opens a quick pick of its own (Go to Event…), so the quick input stays open.
 */
export async function runCommand(page: Page, title: string, options: { picks?: boolean } = {}): Promise<void> {
  const input = quickInput(page).locator('input.input');
  // The palette can close again when a panel that is still loading takes the focus: open it again then.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    try {
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(`>${title}`, { timeout: 5_000 });
      break;
    } catch (err) {
      if (attempt >= 3) throw err;
      await page.keyboard.press('Escape');
    }
  }
  const row = quickInput(page).locator('.monaco-list-row').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRe(title)}$`) }) }).first();
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  await row.click();
  if (options.picks) await until(page, `the quick pick of ${title}`, async () => !(await input.inputValue()).startsWith('>'));
  else await quickInput(page).waitFor({ state: 'hidden' });
}

/** An Explorer row by its name at tree depth `level` (1 = top of the workspace folder). */
export function explorerRow(page: Page, name: string, level: number): Locator {
  return page.locator(`.explorer-folders-view .monaco-list-row[aria-level="${level}"]`).filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRe(name)}$`) }) });
}

/** Opens a file by clicking through the Explorer tree (folders are expanded by clicking them). */
export async function openFromExplorer(page: Page, segments: string[]): Promise<void> {
  await runCommand(page, 'View: Show Explorer');
  await runCommand(page, 'Collapse Folders in Explorer');
  for (const [i, name] of segments.entries()) {
    const row = explorerRow(page, name, i + 1);
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    const isFolder = i < segments.length - 1;
    // Clicking an expanded folder would collapse it again.
    if (!isFolder || (await row.getAttribute('aria-expanded')) !== 'true') await row.click();
    if (isFolder) await page.locator(`.explorer-folders-view .monaco-list-row[aria-level="${i + 2}"]`).first().waitFor({ state: 'visible' });
  }
}

/** The frame of our webview showing the file `file` (absolute path) as a `format` trace with tree rows, if any. */
export async function findViewerFrame(page: Page, file: string, format: string): Promise<Frame | undefined> {
  return (await viewerFrames(page, file, format, 1))[0];
}

/** The frames of our webviews showing the file `file` as a `format` trace with tree rows (up to `max`). */
export async function viewerFrames(page: Page, file: string, format: string, max = Infinity): Promise<Frame[]> {
  const found: Frame[] = [];
  for (const f of page.frames()) {
    if (found.length >= max) break;
    const ok = await f
      .evaluate(
        // The header's file name tooltip starts with the file's full path.
        ([fmt, path]) =>
          document.querySelector('.format-chip')?.textContent === fmt &&
          (document.querySelector('.header .file-name')?.getAttribute('title') ?? '').startsWith(`${path} ·`) &&
          document.querySelectorAll('.tree-scroll .row[data-node]').length > 0,
        [format, file] as const,
      )
      .catch(() => false); // frames detach while the workbench re-renders
    if (ok) found.push(f);
  }
  return found;
}

/** Waits for findViewerFrame() to find the viewer (the first one waits for the extension to activate). */
export async function viewerFrame(page: Page, file: string, format: string, timeout = 90_000): Promise<Frame> {
  return until(page, `a trace viewer showing ${file} as ${format} with rows`, () => findViewerFrame(page, file, format), timeout);
}

/** Labels of the tree rows the viewer draws (it draws the visible ones). */
export async function rowLabels(frame: Frame): Promise<string[]> {
  return frame.locator('.tree-scroll .row[data-node] .label').allInnerTexts();
}

/** One row of the Problems panel: the marker's file (folder/name as the panel shows it), severity and text. */
export interface ProblemRow {
  file: string;
  severity: string;
  text: string;
}

/** The Problems panel's marker rows (opens and focuses the panel). */
export async function problems(page: Page): Promise<ProblemRow[]> {
  await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
  const panel = page.locator('.markers-panel');
  await panel.waitFor({ state: 'visible' });
  // List rows are absolutely positioned: order them by index; a file row heads the markers after it.
  return panel.locator('.monaco-list-rows').first().evaluate((list) => {
    const rows = Array.from(list.querySelectorAll('.monaco-list-row')).sort((a, b) => Number(a.getAttribute('data-index')) - Number(b.getAttribute('data-index')));
    const out: { file: string; severity: string; text: string }[] = [];
    let file = '';
    for (const r of rows) {
      const icon = r.querySelector('.marker-icon');
      if (!icon) {
        const desc = r.querySelector('.label-description')?.textContent ?? '';
        file = `${desc}/${r.querySelector('.label-name')?.textContent ?? ''}`;
        continue;
      }
      const severity = /\b(error|warning|info)\b/.exec(icon.className)?.[1] ?? icon.className;
      out.push({ file, severity, text: (r as HTMLElement).innerText.replace(/\s+/g, ' ') });
    }
    return out;
  });
}

/** Waits for a notification whose text matches `re` (reads the notification center, which keeps them all). */
export async function waitForNotification(page: Page, re: RegExp, timeout = 60_000): Promise<string> {
  await runCommand(page, 'Notifications: Show Notifications');
  let seen: string[] = [];
  try {
    return await until(
      page,
      `a notification matching ${re}`,
      async () => {
        seen = await page.locator('.notifications-center .notification-list-item-message, .notifications-toasts .notification-list-item-message').allInnerTexts();
        return seen.find((t) => re.test(t));
      },
      timeout,
    );
  } catch (e) {
    throw new Error(`${(e as Error).message}; notifications: ${JSON.stringify(seen)}`);
  } finally {
    await runCommand(page, 'Notifications: Hide Notifications').catch(() => undefined);
  }
}

/** Moves the cursor with Go to Line ("line:column") and waits for the status bar to show it. */
export async function goToLine(page: Page, line: number, column: number): Promise<void> {
  await page.keyboard.press('F1');
  const input = quickInput(page).locator('input.input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await quickInput(page).waitFor({ state: 'hidden' });
  await until(page, `the cursor at ${line}:${column}`, async () => (await cursorStatus(page)).startsWith(`Ln ${line}, Col ${column}`));
}

/** The status bar's cursor position ("Ln 12, Col 3"). */
export async function cursorStatus(page: Page): Promise<string> {
  return page.locator('#status\\.editor\\.selection').innerText();
}

/**
 * Right-clicks an Explorer row and picks `item` from its context menu. The menu is opened again until the item
 * is there: an item shown by a context key waits for the extension (activated by the previous command) to set it.
 */
export async function contextMenu(page: Page, row: string, item: string): Promise<void> {
  const r = explorerRow(page, row, 2);
  await r.waitFor({ state: 'visible', timeout: 30_000 });
  const entry = page.locator('.monaco-menu .action-item .action-label', { hasText: new RegExp(`^${item}$`) }).first();
  for (let attempt = 1; ; attempt++) {
    await r.click({ button: 'right' });
    try {
      await entry.waitFor({ state: 'visible', timeout: 5_000 });
      break;
    } catch (err) {
      if (attempt >= 8) throw err;
      await page.keyboard.press('Escape');
    }
  }
  // Hover focuses the item; Enter runs it and closes the menu (a click on the label can leave it open).
  await entry.hover();
  await page.keyboard.press('Enter');
  await page.locator('.monaco-menu').first().waitFor({ state: 'hidden', timeout: 10_000 });
}

/** The compare view's frame once it shows rows. */
export async function compareFrame(page: Page): Promise<Frame> {
  return until(page, 'the compare view with rows', async () => {
    for (const f of page.frames()) if ((await f.locator('.compare-row').count().catch(() => 0)) > 0) return f;
    return undefined;
  }, 90_000);
}

/** How much of a region of the page one colour covers: its most common colour (`#rrggbb`) and that colour's share. */
export interface Backdrop {
  colour: string;
  share: number;
}

/**
 * The most common colour of a page screenshot's pixels in `box` (page coordinates; the PNG decoded by the page's own
 * Chromium): the background the user sees there, whatever CSS says.
 */
export async function backdrop(page: Page, png: Buffer, box: { x: number; y: number; width: number; height: number }): Promise<Backdrop> {
  return page.evaluate(async ([b64, r]) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const [x, y, w, h] = [Math.floor(r.x), Math.floor(r.y), Math.max(1, Math.floor(r.width)), Math.max(1, Math.floor(r.height))];
    const canvas = new OffscreenCanvas(w, h);
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(bmp, x, y, w, h, 0, 0, w, h);
    const { data } = ctx.getImageData(0, 0, w, h);
    const counts = new Map<number, number>();
    let n = 0;
    for (let i = 0; i < data.length; i += 4 * 3) {
      const rgb = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
      counts.set(rgb, (counts.get(rgb) ?? 0) + 1);
      n++;
    }
    let best = 0;
    let most = 0;
    for (const [c, k] of counts) if (k > most) [best, most] = [c, k];
    return { colour: `#${best.toString(16).padStart(6, '0')}`, share: most / Math.max(1, n) };
  }, [png.toString('base64'), box] as const);
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
