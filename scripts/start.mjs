// `npm start [-- FOLDER]`: installs what is missing, builds the extension, installs it into the project's
// own code-server and opens FOLDER (default: the sample traces in samples/) at a loopback URL, with a trace
// of it already open in the viewer. The state folder (.vscode-test/demo, or ATV_STATE_DIR) is kept between
// runs: the extension stays installed and each start opens the folder it was given.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { firstTrace, rememberFolder, workbenchUrl, writeDemoSettings } from './demoState.mjs';
import { ensureCodeServer, ensureNodeModules, installExtensionInto, ROOT, step } from './setup.mjs';

const args = process.argv.slice(2);
const portArg = args.find((a) => a.startsWith('--port='));
const samples = join(ROOT, 'samples');
const folder = resolve(args.find((a) => !a.startsWith('--')) ?? samples);
const port = Number(portArg?.slice('--port='.length) ?? process.env.ATV_PORT ?? 8080);

try {
  if (!existsSync(folder)) throw new Error(`${folder}: no such folder`);
  console.log('• npm dependencies');
  ensureNodeModules();
  console.log('• build');
  step('build', 'npm', ['run', '--silent', 'build']);
  console.log('• code-server 4.100.3 (first time: a few minutes)');
  await ensureCodeServer();
  const state = resolve(process.env.ATV_STATE_DIR ?? join(ROOT, '.vscode-test', 'demo'));
  const extensionsDir = join(state, 'extensions');
  const userDataDir = join(state, 'user-data');
  mkdirSync(extensionsDir, { recursive: true });
  installExtensionInto(extensionsDir);
  writeDemoSettings(userDataDir);
  rememberFolder(userDataDir, folder);
  // No extension gallery: nothing to look up on the network, no "install recommended extensions" prompts.
  process.env.EXTENSIONS_GALLERY = '{}';
  const { startCodeServer } = await import('./start-code-server.mjs');
  const launchFile = firstTrace(folder, samples);
  // The extension shows this trace in the viewer when it starts (the launch URL alone may show it as text).
  if (launchFile) process.env.AGENT_TRACE_VIEWER_LAUNCH_FILE = launchFile;
  else delete process.env.AGENT_TRACE_VIEWER_LAUNCH_FILE;
  const cs = await startCodeServer({ workspace: folder, extensionsDir, userDataDir, port });
  const url = workbenchUrl(cs.url, folder, launchFile);
  console.log(`\nAgent Trace Viewer is running in VS Code (code-server) on ${folder}\n\n  Open ${url}\n\nListening on 127.0.0.1 only. Press Ctrl+C to stop.`);
  const stop = async () => {
    await cs.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (err) {
  console.error(`npm start: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}
