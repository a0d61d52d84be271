/**
 * Webview test harness: serves the built viewer page (the same HTML and CSP the extension renders) from a
 * loopback HTTP server, opens it in Debian's Chromium through playwright-core, stubs `acquireVsCodeApi`,
 * and answers the webview with the real host-side ViewerSession over a real trace.
 */
import { spawnSync } from 'node:child_process';
import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { extname, join, resolve } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import type { FormatName } from '../../src/core/model';
import { loadTrace, TraceModel } from '../../src/core/loadTrace';
import { parseViewMessage } from '../../src/protocol/validate';
import { ViewerSession } from '../../src/viewer/viewerSession';
import { renderViewerHtml } from '../../src/viewer/webviewHtml';
import type { HostMessage, PersistedViewState, ViewerLayout, WebviewMessage } from '../../src/protocol';
import { THEME_CLASS, THEMES } from './themes';

const ROOT = resolve(__dirname, '..', '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = join(ROOT, 'test-results', 'screenshots');
export type Theme = keyof typeof THEMES;

/** Builds dist/ once per run so the tests exercise the current sources. */
export function buildOnce(): void {
  if (process.env.ATV_SKIP_BUILD) return;
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('npm run build failed');
  process.env.ATV_SKIP_BUILD = '1';
}

/** Launches Chromium with the flags that work on these machines (playwright gives it a fresh profile directory). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Serves dist/ and the viewer page on 127.0.0.1. */
export async function startServer(): Promise<{ server: Server; origin: string }> {
  const types: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.map': 'application/json' };
  let origin = '';
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    if (url.pathname === '/viewer.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(renderViewerHtml({ cspSource: origin, scriptUri: `${origin}/dist/webview.js`, styleUri: `${origin}/dist/webview.css`, codiconUri: `${origin}/dist/codicon.css` }));
      return;
    }
    const m = /^\/dist\/([\w.-]+)$/.exec(url.pathname);
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = readFileSync(join(ROOT, 'dist', m[1]));
      res.writeHead(200, { 'content-type': types[extname(m[1])] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, origin };
}

/** Options for {@link openViewer}. */
export interface OpenOptions {
  theme?: Theme;
  format?: FormatName;
  width?: number;
  height?: number;
  /** Compact view of linear chains on or off (default: the format's own default). */
  compactChains?: boolean;
  /** The host's per-workspace pane sizes (shared between viewers of one test, as VS Code's workspaceState). */
  layoutStore?: { layout: ViewerLayout | null };
  /** The session's limit above which init comes with the header still counting (default: the viewer's). */
  countTotalsAfterRowsAbove?: number;
  /** Read the trace as the extension's viewer does, with its session's other files (LoadOptions.sessionParts). */
  sessionParts?: boolean;
}

/** One viewer page connected to a real session. */
export class ViewerPage {
  readonly sent: WebviewMessage[] = [];
  readonly received: HostMessage[] = [];
  readonly errors: string[] = [];
  readonly session: ViewerSession;
  readonly hostCalls: string[] = [];
  savedState: PersistedViewState | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  /** Number of the next host message to this page load (see {@link deliver}). */
  private seq = 0;

  constructor(readonly page: Page, private readonly origin: string, public model: TraceModel | null, private readonly theme: Theme, layoutStore?: { layout: ViewerLayout | null }, countTotalsAfterRowsAbove?: number) {
    this.session = new ViewerSession({
      post: (m) => {
        this.received.push(m);
        this.deliver(m);
      },
      revealInTextEditor: (line, path) => this.hostCalls.push(`revealInTextEditor:${line}${path === undefined ? '' : `:${path}`}`),
      copy: (text) => this.hostCalls.push(`copy:${text}`),
      openExternal: (url) => this.hostCalls.push(`openExternal:${url}`),
      runChecks: (mode) => this.hostCalls.push(`runChecks:${mode}`),
      openAsText: () => this.hostCalls.push('openAsText'),
      reload: () => this.hostCalls.push('reload'),
      openBlob: (d) => this.hostCalls.push(`openBlob:${d}`),
      openTrace: (path) => this.hostCalls.push(`openTrace:${path}`),
      ...(layoutStore ? { layout: { get: () => layoutStore.layout, set: (l: ViewerLayout) => (layoutStore.layout = l) } } : {}),
    }, countTotalsAfterRowsAbove === undefined ? undefined : { expandAllMaxEvents: 20_000, countTotalsAfterRowsAbove });
  }

  /**
   * Host → webview, as VS Code's `webview.postMessage` does it: asynchronous, serialized as JSON, each message sent
   * at once without waiting for the webview to take the one before (the page puts them back in order by number
   * and gets each as its own `message` event). Awaiting every `page.evaluate` before sending the next message (as
   * before) queued a scroll's row replies behind each other's round trips, seconds behind under load. Each
   * message still crosses processes on its own (Node → browser → renderer), as VS Code's IPC does.
   */
  private deliver(m: HostMessage): void {
    const n = this.seq++;
    const put = ([k, json]: readonly [number, string]) => (globalThis as unknown as { __atvDeliver(k: number, json: string): void }).__atvDeliver(k, json);
    this.queue = Promise.all([this.queue, this.page.evaluate(put, [n, JSON.stringify(m)] as const).catch(() => undefined)]);
  }

  /** Loads the page (again: a hide/show of the real webview reloads it with the saved state). */
  async show(): Promise<void> {
    this.session.webviewReset();
    this.seq = 0;
    await this.page.addInitScript(stubScript, { state: this.savedState, vars: THEMES[this.theme], bodyClass: THEME_CLASS[this.theme], post: '__atvPost', save: '__atvSaveState' });
    await this.page.goto(`${this.origin}/viewer.html`);
    await this.waitForRows();
  }

  /** Waits until the tree shows rows with data (or, unless `rowsOnly`, the status view shows something). */
  async waitForRows(rowsOnly = false): Promise<void> {
    await this.page.waitForFunction((only) => {
      const d = (globalThis as unknown as { document: { querySelector(s: string): { hidden?: boolean; textContent: string | null } | null } }).document;
      return d.querySelector('.row[data-node]') !== null || (!only && d.querySelector('.status-view')?.hidden === false && !!d.querySelector('.status-view .status-text')?.textContent);
    }, rowsOnly);
  }

  /**
   * Waits until the find bar is shown and its query field has the focus (the bar focuses it a frame after it
   * opens): keys typed before that went to the tree, which selected rows instead of searching.
   */
  async findOpen(): Promise<void> {
    await this.page.waitForSelector('.find-bar:not([hidden])');
    await this.page.waitForFunction(() => {
      const d = (globalThis as unknown as { document: { activeElement: { closest?(s: string): unknown } | null } }).document;
      return d.activeElement?.closest?.('.find-bar') != null;
    });
  }

  /** Resolves when the host has sent a message matching `pred` (after `since`). */
  async waitForHost<T extends HostMessage['type']>(type: T, pred: (m: Extract<HostMessage, { type: T }>) => boolean = () => true, since = 0): Promise<Extract<HostMessage, { type: T }>> {
    for (let i = 0; i < 500; i++) {
      const hit = this.received.slice(since).find((m): m is Extract<HostMessage, { type: T }> => m.type === type && pred(m as Extract<HostMessage, { type: T }>));
      if (hit) {
        await this.queue;
        return hit;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no ${type} from the host; got ${this.received.map((m) => m.type).join(', ')}`);
  }

  /** Lets queued host messages reach the page, the rows in view arrive and the page render them. */
  async settle(): Promise<void> {
    for (let round = 0; round < 3; round++) {
      await this.queue;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      await this.page.evaluate(() => new Promise((r) => (globalThis as any).requestAnimationFrame(() => (globalThis as any).requestAnimationFrame(() => r(null)))));
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      await this.page.waitForFunction(() => !(globalThis as any).document.querySelector('.row.placeholder:not([hidden])'), undefined, { timeout: 10_000 });
    }
    await this.queue;
  }

  /** Replaces the model, as the document does after an append or a rewrite. */
  async replaceModel(model: TraceModel, state: Parameters<ViewerSession['setModel']>[1], message: string | null): Promise<void> {
    this.model = model;
    this.session.setModel(model, state, message);
    await this.settle();
  }

  /** Texts of the rows in view, top to bottom. */
  async rowLabels(): Promise<string[]> {
    return this.page.$$eval('.row[data-node]:not([hidden])', (rows) =>
      rows
        .map((r) => ({ y: Number(/translateY\(([-\d.]+)px\)/.exec((r as unknown as { style: { transform: string } }).style.transform)?.[1] ?? 0), t: r.querySelector('.label')?.textContent ?? '' }))
        .sort((a, b) => a.y - b.y)
        .map((x) => x.t),
    );
  }

  async screenshot(name: string): Promise<string> {
    const path = join(SCREENSHOTS, `${name}.png`);
    await this.page.screenshot({ path });
    return path;
  }
}

/** What {@link stubScript} sets up: the saved state, theme variables and class, the bindings messages go to. */
export interface PageStub {
  state: unknown;
  vars: Record<string, string>;
  bodyClass?: string;
  /** The exposed binding that receives the page's `postMessage`s. */
  post: string;
  /** The exposed binding that receives `setState`, if the test keeps the state. */
  save?: string;
}

/** Runs in the page before any of its scripts: the VS Code API stub, theme variables, probes. */
function stubScript(arg: PageStub): void {
  // Runs in the browser; typed loosely because the Node-side tsconfig has no DOM library.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const w = globalThis as any;
  let state = arg.state;
  w.__pwned = undefined;
  w.__cspViolations = [];
  w.acquireVsCodeApi = () => ({
    postMessage: (m: unknown) => w[arg.post](m),
    getState: () => state,
    setState: (s: unknown) => {
      state = s;
      if (arg.save) w[arg.save](s);
    },
  });
  // Host messages in the order the host sent them (they may arrive out of it), each as its own message event.
  const held = new Map<number, string>();
  let next = 0;
  let gap = 0;
  w.__atvDeliver = (k: number, json: string) => {
    held.set(k, json);
    for (let j = held.get(next); j !== undefined; j = held.get(next)) {
      held.delete(next++);
      w.postMessage(JSON.parse(j), '*');
    }
    w.clearTimeout(gap);
    if (held.size > 0) gap = w.setTimeout(() => {
      console.error(`harness: host message ${next} never arrived`);
      next = Math.min(...held.keys());
      w.__atvDeliver(next, held.get(next));
    }, 5000);
  };
  w.document.addEventListener('securitypolicyviolation', (e: { violatedDirective: string; blockedURI: string }) => w.__cspViolations.push(`${e.violatedDirective}: ${e.blockedURI}`));
  w.document.addEventListener('DOMContentLoaded', () => {
    for (const [k, v] of Object.entries(arg.vars)) w.document.documentElement.style.setProperty(`--vscode-${k}`, v);
    if (arg.bodyClass) w.document.body.classList.add(...arg.bodyClass.split(' '));
    // The default styles VS Code puts in every webview (its pre/index.html) that colour text: the page's own CSS
    // must win over them, as in the real editor (High Contrast's black textPreformat foreground came from here).
    const defaults = new w.CSSStyleSheet();
    defaults.replaceSync([
      'a, a code { color: var(--vscode-textLink-foreground); }',
      'code { color: var(--vscode-textPreformat-foreground); background-color: var(--vscode-textPreformat-background); padding: 1px 3px; border-radius: 4px; }',
      'pre code { padding: 0; }',
      'blockquote { background: var(--vscode-textBlockQuote-background); border-color: var(--vscode-textBlockQuote-border); }',
    ].join('\n'));
    w.document.adoptedStyleSheets = [defaults, ...w.document.adoptedStyleSheets];
  });
}

/** Opens a trace in a new page of `browser`, served from `origin`. */
export async function openViewer(browser: Browser, origin: string, file: string, opts: OpenOptions = {}): Promise<ViewerPage> {
  const page = await browser.newPage({ viewport: { width: opts.width ?? 1280, height: opts.height ?? 760 } });
  const model = await loadTrace(file, { ...(opts.format ? { format: opts.format } : {}), ...(opts.sessionParts ? { sessionParts: true } : {}) });
  return connectViewer(page, origin, model, opts.theme ?? 'dark', opts.compactChains, opts.layoutStore, opts.countTotalsAfterRowsAbove);
}

/**
 * Prepares a page for a webview bundle: the VS Code API stub (see {@link PageStub}) and the helper tsx's keepNames
 * needs, and records script errors, console errors and dialogs in `errors`. The viewer and the compare page both.
 */
export async function stubPage(page: Page, stub: PageStub, errors: string[]): Promise<void> {
  await page.addInitScript(KEEP_NAMES);
  await page.addInitScript(stubScript, stub);
  watchErrors(page, errors);
}

// tsx compiles with keepNames, so functions handed to the page call esbuild's `__name` helper.
const KEEP_NAMES = { content: 'globalThis.__name = (f) => f;' };

/** Records a page's script errors, console errors and dialogs (dismissed) in `errors`. */
function watchErrors(page: Page, errors: string[]): void {
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('dialog', (d) => {
    errors.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
}

/** Connects a page to a new session showing `model` (or nothing yet: the page waits, as while indexing), and loads the viewer. */
export async function connectViewer(page: Page, origin: string, model: TraceModel | null, theme: Theme, compactChains?: boolean, layoutStore?: { layout: ViewerLayout | null }, countTotalsAfterRowsAbove?: number): Promise<ViewerPage> {
  const v = new ViewerPage(page, origin, model, theme, layoutStore, countTotalsAfterRowsAbove);
  // The stub itself is added by show(), with the state saved at each reload.
  await page.addInitScript(KEEP_NAMES);
  watchErrors(page, v.errors);
  await page.exposeBinding('__atvPost', (_src, raw: unknown) => {
    v.sent.push(raw as WebviewMessage);
    const msg = parseViewMessage('viewer', raw);
    if (!msg) v.errors.push(`invalid message from the webview: ${JSON.stringify(raw)}`);
    else void v.session.handle(msg);
  });
  await page.exposeBinding('__atvSaveState', (_src, s: unknown) => {
    v.savedState = s as PersistedViewState;
  });
  if (compactChains !== undefined) await v.session.handle({ type: 'setCompactChains', compact: compactChains });
  if (model) v.session.setModel(model);
  await v.show();
  return v;
}

/**
 * Registers a suite's hooks for Chromium and the page server: dist/ built once, the screenshot folder made, the
 * browser launched and the server started before its tests, both closed after. Read them inside tests or hooks.
 */
export function browserSuite(): { browser: () => Browser; origin: () => string } {
  let browser: Browser | undefined;
  let server: Server | undefined;
  let origin = '';
  before(async () => {
    buildOnce();
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchBrowser();
    ({ server, origin } = await startServer());
  });
  after(async () => {
    await browser?.close();
    server?.close();
  });
  return { browser: () => browser!, origin: () => origin };
}

/**
 * Registers a suite's browser and server hooks; `view` opens a trace in a fresh page. After each test the
 * page must have had no CSP violation, script error, dialog or invalid message (and a failure leaves a
 * screenshot in test-results/screenshots/).
 */
export function viewerSuite(): { view: (file: string, opts?: OpenOptions) => Promise<ViewerPage> } {
  const suite = browserSuite();
  const open: ViewerPage[] = [];
  afterEach(async function () {
    for (const v of open.splice(0)) {
      if (this.currentTest?.state === 'failed') await v.screenshot(`failed-${this.currentTest.title.replace(/\W+/g, '-').slice(0, 60)}`).catch(() => undefined);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const csp = await v.page.evaluate(() => (globalThis as any).__cspViolations as string[]).catch(() => []);
      await v.page.close();
      assert.deepEqual(csp, [], 'no Content Security Policy violations');
      assert.deepEqual(v.errors, [], 'no script errors, dialogs or invalid messages');
    }
  });
  return {
    view: async (file, opts = {}) => {
      const v = await openViewer(suite.browser(), suite.origin(), file, opts);
      open.push(v);
      await v.settle();
      return v;
    },
  };
}
