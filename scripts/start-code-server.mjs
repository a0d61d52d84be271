// Starts the project's private code-server (installed by scripts/install-code-server.sh) on loopback
// for end-to-end tests, and stops it again. Node built-ins only.
//
//   import { startCodeServer } from '../scripts/start-code-server.mjs';
//   const cs = await startCodeServer({ workspace, extensionsDir, userDataDir, port: 0 });
//   ... drive cs.url with playwright-core ...
//   await cs.stop();
//
// Self-test: node scripts/start-code-server.mjs --self-test

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Same location scripts/code-server-env.sh exports as CODE_SERVER_BIN. */
export const DEFAULT_CODE_SERVER_BIN =
  process.env.CODE_SERVER_BIN || path.join(PROJECT_ROOT, '.vscode-test', 'code-server', 'bin', 'code-server');

// Variables that make code-server act as a wrapper child, hand the folder to another running instance
// (e.g. when tests run inside a VS Code / code-server terminal) or override our flags.
const STRIPPED_ENV = [
  'CODE_SERVER_PARENT_PID', 'CODE_SERVER_SESSION_SOCKET', 'CODE_SERVER_CONFIG', 'CODE_SERVER_HOST',
  'VSCODE_IPC_HOOK_CLI', 'VSCODE_PROXY_URI', 'PORT', 'PASSWORD', 'HASHED_PASSWORD', 'GITHUB_TOKEN',
];

/** A port that was free on 127.0.0.1 a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function httpStatus(url, timeoutMs) {
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(0));
  });
}

function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

function killGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch {
    /* already gone */
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * @param {object} o
 * @param {string} o.workspace      folder (or .code-workspace file) to open
 * @param {string} o.extensionsDir  --extensions-dir; unpacked `publisher.name-version/` folders in it are loaded
 * @param {string} o.userDataDir    --user-data-dir; created if missing, use a fresh one per run
 * @param {number} [o.port=0]       0 = pick a free port
 * @param {boolean} [o.workspaceTrust=false]  false adds --disable-workspace-trust (no trust dialog, no Restricted Mode)
 * @param {string[]} [o.extraArgs]  more code-server flags
 * @param {string} [o.bin]          code-server entry; default DEFAULT_CODE_SERVER_BIN
 * @param {number} [o.timeoutMs=120000]
 * @returns {Promise<{url: string, port: number, pid: number, output: () => string, stop: () => Promise<void>}>}
 */
export async function startCodeServer({
  workspace,
  extensionsDir,
  userDataDir,
  port = 0,
  workspaceTrust = false,
  extraArgs = [],
  bin = DEFAULT_CODE_SERVER_BIN,
  timeoutMs = 120_000,
} = {}) {
  for (const [name, value] of Object.entries({ workspace, extensionsDir, userDataDir })) {
    if (!value) throw new Error(`startCodeServer: ${name} is required`);
  }
  if (!fs.existsSync(bin)) {
    throw new Error(`startCodeServer: ${bin} not found; run scripts/install-code-server.sh first`);
  }
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.mkdirSync(userDataDir, { recursive: true });
  // Our own config file, so code-server neither reads nor creates ~/.config/code-server/config.yaml.
  const configFile = path.join(userDataDir, 'code-server-config.yaml');
  fs.writeFileSync(configFile, 'auth: none\ncert: false\n');

  const env = { ...process.env };
  for (const k of STRIPPED_ENV) delete env[k];

  // A port picked here can be taken by someone else before code-server binds it: retry then.
  const attempts = port === 0 ? 3 : 1;
  for (let attempt = 1; ; attempt++) {
    const usePort = port === 0 ? await freePort() : port;
    try {
      return await launch({ bin, env, configFile, workspace, extensionsDir, userDataDir, workspaceTrust, extraArgs, port: usePort, timeoutMs });
    } catch (e) {
      if (attempt < attempts && e.addressInUse) continue;
      throw e;
    }
  }
}

async function launch({ bin, env, configFile, workspace, extensionsDir, userDataDir, workspaceTrust, extraArgs, port, timeoutMs }) {
  const args = [
    '--config', configFile,
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    ...extraArgs,
    workspace,
  ];
  const child = spawn(bin, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const pgid = child.pid;
  let out = '';
  const append = (d) => {
    out += d;
    if (out.length > 200_000) out = out.slice(-100_000);
  };
  child.stdout.setEncoding('utf8').on('data', append);
  child.stderr.setEncoding('utf8').on('data', append);

  let exited = null;
  const exitPromise = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      resolve();
    });
    child.once('error', (err) => {
      exited = { error: err };
      resolve();
    });
  });
  // Never leave a server behind when the test process ends without calling stop().
  const onParentExit = () => killGroup(pgid, 'SIGKILL');
  process.on('exit', onParentExit);

  let stopping = null;
  const stop = () => {
    stopping ??= (async () => {
      process.off('exit', onParentExit);
      if (pgid === undefined) return;
      killGroup(pgid, 'SIGTERM');
      const deadline = Date.now() + 10_000;
      while (groupAlive(pgid) && Date.now() < deadline) await sleep(100);
      if (groupAlive(pgid)) {
        killGroup(pgid, 'SIGKILL');
        while (groupAlive(pgid)) await sleep(50);
      }
      await Promise.race([exitPromise, sleep(1000)]);
    })();
    return stopping;
  };

  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) {
      await stop();
      const err = new Error(
        `code-server exited before answering (${JSON.stringify(exited.error?.message ?? exited)}):\n${out}`,
      );
      err.addressInUse = /EADDRINUSE/.test(out);
      throw err;
    }
    if ((await httpStatus(`${url}healthz`, 2000)) === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not answer on ${url} within ${timeoutMs} ms:\n${out}`);
    }
    await sleep(250);
  }
  return { url, port, pid: pgid, output: () => out, stop };
}

// ---- self-test ------------------------------------------------------------------------------------
async function selfTest() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-selftest-'));
  const workspace = path.join(tmp, 'ws');
  fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(workspace, 'hello.txt'), 'hello\n');
  const t0 = Date.now();
  const cs = await startCodeServer({
    workspace,
    extensionsDir: path.join(tmp, 'ext'),
    userDataDir: path.join(tmp, 'ud'),
    port: 0,
  });
  let failed = false;
  try {
    console.log(`code-server answered on ${cs.url} (pid ${cs.pid}) after ${Date.now() - t0} ms`);
    const html = await new Promise((resolve, reject) => {
      http
        .get(`${cs.url}?folder=${encodeURIComponent(workspace)}`, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (d) => (body += d)).on('end', () => resolve({ status: res.statusCode, body }));
        })
        .once('error', reject);
    });
    const checks = {
      'status 200': html.status === 200,
      'workbench.js referenced': /static\/out\/vs\/code\/browser\/workbench\/workbench\.js/.test(html.body),
      'web configuration present': html.body.includes('vscode-workbench-web-configuration'),
      'workspace trust disabled': html.body.includes('&quot;enableWorkspaceTrust&quot;:false'),
    };
    for (const [name, ok] of Object.entries(checks)) {
      console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}`);
      failed ||= !ok;
    }
  } finally {
    const t1 = Date.now();
    await cs.stop();
    const gone = !groupAlive(cs.pid);
    console.log(`${gone ? 'ok  ' : 'FAIL'} process group ${cs.pid} gone ${Date.now() - t1} ms after stop()`);
    failed ||= !gone;
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  if (failed) {
    console.error(cs.output());
    process.exitCode = 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) && process.argv.includes('--self-test')) {
  await selfTest();
}
