// `npm start [-- FOLDER]`: installs what is missing, builds the extension, installs it into the project's
// own code-server and opens FOLDER (default: the sample traces in samples/) at a loopback URL.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureCodeServer, ensureNodeModules, installExtensionInto, ROOT, step } from './setup.mjs';

const args = process.argv.slice(2);
const portArg = args.find((a) => a.startsWith('--port='));
const folder = resolve(args.find((a) => !a.startsWith('--')) ?? join(ROOT, 'samples'));
const port = Number(portArg?.slice('--port='.length) ?? process.env.ATV_PORT ?? 8080);

try {
  if (!existsSync(folder)) throw new Error(`${folder}: no such folder`);
  console.log('• npm dependencies');
  ensureNodeModules();
  console.log('• build');
  step('build', 'npm', ['run', '--silent', 'build']);
  console.log('• code-server 4.100.3 (first time: a few minutes)');
  ensureCodeServer();
  const state = join(ROOT, '.vscode-test', 'demo');
  const extensionsDir = join(state, 'extensions');
  mkdirSync(extensionsDir, { recursive: true });
  installExtensionInto(extensionsDir);
  const { startCodeServer } = await import('./start-code-server.mjs');
  const cs = await startCodeServer({ workspace: folder, extensionsDir, userDataDir: join(state, 'user-data'), port });
  console.log(`\nAgent Trace Viewer is running in VS Code (code-server) on ${folder}\n\n  Open ${cs.url}\n\nListening on 127.0.0.1 only. Press Ctrl+C to stop.`);
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
