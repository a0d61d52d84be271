// Runs the in-editor mocha suite (test/integration) inside the extension host of the project's code-server:
// code-server serves VS Code's web workbench, and the workbench reads `extensionDevelopmentPath` and
// `extensionTestsPath` from the page URL's `payload` parameter; with vscode-remote:// URIs the server's
// (Node) extension host loads the extension from the project folder and runs the tests. The workbench
// then calls `window.codeAutomationExit(code)`, which this script exposes through Chromium.
//
//   npm run build && npm run test:integration
//
// Needs: dist/ (npm run build), code-server (scripts/install-code-server.sh), /usr/bin/chromium.
// Writes test-results/integration.json (test/reporter.js); on failure also the workbench log and a screenshot
// under test-results/integration/. Exit 0 when every test passed. Every process started here is stopped.
// CHROMIUM_PATH overrides the browser, INTEGRATION_TIMEOUT_MS the overall limit (default 300000).
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { format } from 'node:util';
import { DEMO_SETTINGS } from './demoState.mjs';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const TEST_SRC = join(ROOT, 'test', 'integration');
/** Where the compiled tests go; `.vscode-test.mjs` points vscode-test at the same files. */
export const TEST_OUT = join(ROOT, 'out', 'test', 'integration');
const RESULTS = join(ROOT, 'test-results');
const ARTIFACTS = join(RESULTS, 'integration');
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
// Same markers as test/integration/index.ts: the extension host's output between them is mocha's report.
const OUTPUT_START = '[integration] mocha start';
const OUTPUT_END = '[integration] mocha end';

/** Compiles test/integration/**.ts to out/test/integration (one CommonJS file per entry; vscode and mocha stay external). */
export async function buildIntegrationTests() {
  const esbuild = await import('esbuild');
  const suites = readdirSync(join(TEST_SRC, 'suite')).filter((n) => n.endsWith('.test.ts')).map((n) => join(TEST_SRC, 'suite', n));
  rmSync(TEST_OUT, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: [join(TEST_SRC, 'index.ts'), ...suites],
    outdir: TEST_OUT,
    outbase: TEST_SRC,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'mocha'],
    sourcemap: 'inline',
    logLevel: 'warning',
    absWorkingDir: ROOT,
  });
}

/** Fresh workspace (a copy of samples/), user data and extensions folders for one run. */
function prepareState() {
  const state = mkdtempSync(join(tmpdir(), 'atv-integration-'));
  const workspace = join(state, 'samples');
  cpSync(join(ROOT, 'samples'), workspace, { recursive: true });
  const userDataDir = join(state, 'user-data');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  // The quiet workbench of `npm start`: no welcome page, no trust prompt, no update or gallery checks.
  const settings = { ...DEMO_SETTINGS, 'window.restoreWindows': 'none' };
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  return { state, workspace, userDataDir, extensionsDir: join(state, 'extensions') };
}

/** The workbench URL whose payload makes the server's extension host run our tests. */
function testUrl(baseUrl, workspace) {
  const u = new URL(baseUrl);
  const remote = (p) => `vscode-remote://${u.host}${pathToFileURL(p).pathname}`;
  const payload = [
    ['extensionDevelopmentPath', remote(ROOT)],
    ['extensionTestsPath', remote(join(TEST_OUT, 'index.js'))],
    ['skipWelcome', 'true'],
  ];
  u.searchParams.set('folder', workspace);
  u.searchParams.set('payload', JSON.stringify(payload));
  return u.toString();
}

/** Turns one workbench log call into text: the extension host forwards console.log's raw arguments. */
function logText(args) {
  return (Array.isArray(args) ? format(...args) : String(args)).replace(/^%c\s*\w+\s+color:\s*#\w+\s*/, '');
}

/** Opens the workbench and resolves with the extension host's exit code (or rejects on timeout). */
async function runInBrowser(browser, url, log, timeoutMs, t0) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  let inReport = false;
  const onLog = (type, args) => {
    for (const line of logText(args).split('\n')) {
      if (line.includes(OUTPUT_END)) inReport = false;
      log.push(`${type}: ${line}`);
      if (inReport) process.stdout.write(`${line}\n`);
      if (line.includes(OUTPUT_START)) {
        inReport = true;
        console.log(`integration: workbench up, extension host running the tests after ${seconds(t0)}`);
      }
    }
  };
  let onExit;
  const exited = new Promise((r) => (onExit = r));
  // The workbench calls these when it runs extension tests (IAutomatedWindow).
  await page.exposeFunction('codeAutomationExit', (code) => onExit(code));
  await page.exposeFunction('codeAutomationLog', onLog);
  page.on('console', (m) => log.push(`console.${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => log.push(`pageerror: ${e.message}`));
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the extension host did not finish the tests within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([exited, timeout]);
  } catch (err) {
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'timeout.png') }).catch(() => undefined);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** Reads test-results/integration.json, or undefined when the suite never reported. */
function readCounts() {
  const file = join(RESULTS, 'integration.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}

/** Checks what the run needs and returns the browser path and overall timeout. */
function preflight() {
  if (!existsSync(join(ROOT, 'dist', 'extension.js'))) throw new Error('dist/extension.js is missing: run `npm run build` first');
  const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(chromiumPath)) throw new Error(`${chromiumPath} not found: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  return { chromiumPath, timeoutMs: Number(process.env.INTEGRATION_TIMEOUT_MS) || 300_000 };
}

/** Starts code-server and Chromium, runs the suite, and stops both (also on Ctrl-C). */
async function runSuite({ chromiumPath, timeoutMs }, log, t0) {
  const { startCodeServer } = await import('./start-code-server.mjs');
  const { chromium } = await import('playwright-core');
  const st = prepareState();
  let cs;
  let browser;
  const cleanup = async () => {
    await browser?.close().catch(() => undefined);
    await cs?.stop();
    rmSync(st.state, { recursive: true, force: true });
  };
  const onSignal = (sig) => void cleanup().finally(() => process.exit(sig === 'SIGINT' ? 130 : 143));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const run = { exitCode: undefined, failure: undefined, serverLog: '' };
  try {
    cs = await startCodeServer({ workspace: st.workspace, extensionsDir: st.extensionsDir, userDataDir: st.userDataDir, port: 0 });
    console.log(`integration: code-server on ${cs.url} after ${seconds(t0)}`);
    browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_FLAGS });
    run.exitCode = await runInBrowser(browser, testUrl(cs.url, st.workspace), log, timeoutMs, t0);
  } catch (err) {
    run.failure = err;
  } finally {
    run.serverLog = cs?.output() ?? '';
    await cleanup();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return run;
}

const seconds = (t0) => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

async function main() {
  const t0 = Date.now();
  const opts = preflight();
  await buildIntegrationTests();
  rmSync(join(RESULTS, 'integration.json'), { force: true });
  rmSync(ARTIFACTS, { recursive: true, force: true });
  const log = [];
  const { exitCode, failure, serverLog } = await runSuite(opts, log, t0);
  const counts = readCounts();
  const ok = !failure && exitCode === 0 && counts !== undefined && counts.failed === 0;
  if (!ok) {
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, 'workbench.log'), log.join('\n'));
    writeFileSync(join(ARTIFACTS, 'code-server.log'), serverLog);
    if (failure) console.error(`integration: ${failure.message}`);
    if (!counts) console.error('integration: the suite wrote no test-results/integration.json');
    console.error(`integration: extension host exit code ${exitCode}; logs in test-results/integration/`);
  }
  const summary = counts ? `${counts.passed} passed, ${counts.failed} failed, ${counts.pending} pending` : 'no results';
  console.log(`integration: ${summary}, all processes stopped, ${seconds(t0)} in all`);
  process.exitCode = ok ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(`integration: ${err.message}`);
    process.exitCode = 1;
  });
}
