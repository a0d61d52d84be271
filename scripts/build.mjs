// Bundles the extension host, the CLI (Node, CommonJS) and the webview (browser, IIFE).
// Type-checking is a separate step: `npm run typecheck`.
import * as esbuild from 'esbuild';
import { chmodSync, mkdirSync, copyFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning', absWorkingDir: root };
// Node bundles prefer a package's ES build (`module`) where it has one: the OpenTelemetry packages then tree-shake
// (about 330 KB less in each of extension.js and cli.js); packages with an `exports` map resolve as before.
const nodeMain = { mainFields: ['module', 'main'] };

const builds = [
  { ...common, entryPoints: ['src/vscode/extension.ts'], outfile: 'dist/extension.js', ...nodeMain, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] },
  // Checks on open run here, off the extension host's thread (src/viewer/checksOffThread.ts). Always minified: it
  // bundles the core a second time, and the package has a size budget (test/vscode/package.test.ts).
  // `agent-trace` is a small entry that loads the CLI's bundle with V8's code cache (src/cli/launch.ts).
  { ...common, entryPoints: ['src/cli/launch.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', target: 'node20', banner: { js: '#!/usr/bin/env node' } },
  { ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cliMain.js', ...nodeMain, platform: 'node', format: 'cjs', target: 'node20' },
  // The range-reading worker of src/core/parallel (the loader's and the streamed checks'; its entry src/node/rangeWorker.ts
  // registers the Node file system), started by the CLI and the
  // extension from beside their bundle.
  { ...common, entryPoints: ['src/node/rangeWorker.ts'], outfile: 'dist/rangeWorker.js', ...nodeMain, platform: 'node', format: 'cjs', target: 'node20' },
  // The Agent Traces view's worker (src/node/sessionsWorker.ts): the session listings (the loader, verify and check)
  // and the search index's SQLite, off the extension host's thread; node-sqlite3-wasm is bundled here, not in
  // extension.js. Minified: it bundles the core a second time, and the package has a size budget.
  { ...common, entryPoints: ['src/node/sessionsWorker.ts'], outfile: 'dist/sessionsWorker.js', ...nodeMain, platform: 'node', format: 'cjs', target: 'node20', minify: true },
  // The viewer's page. Always minified (a dev build keeps its source map, so the webview's developer tools still show
  // the sources and their stack frames): the HTML report inlines this file whole, and unminified it was 690 KB of it.
  { ...common, entryPoints: ['webview/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife', target: 'es2022', minify: true },
  { ...common, entryPoints: ['webview/styles.css'], outfile: 'dist/webview.css', loader: { '.css': 'css' }, minify: true },
  // The HTML report's in-page host (issue 18): the core and the viewer session in the browser, over a trace in memory.
  // The core imports no Node built-in: it reaches files and its platform through its seams (src/core/io), which the
  // page registers (an in-memory file system, src/report/platform); its `buffer` import is the npm package here.
  { ...common, entryPoints: ['src/report/reportHost.ts'], outfile: 'dist/reportHost.js', platform: 'browser', format: 'iife', target: 'es2022', minify: true, sourcemap: false },
  // The compare view (issue 17): its own entry, reusing the viewer's modules and, through @import, its styles.
  { ...common, entryPoints: ['webview/compare/main.ts'], outfile: 'dist/compare.js', platform: 'browser', format: 'iife', target: 'es2022' },
  { ...common, entryPoints: ['webview/compare/compare.css'], outfile: 'dist/compare.css', loader: { '.css': 'css' } },
  // The Agent Usage view (issue 39, part 3): its own entry with chart.js bundled (no CDN: the page's CSP loads only its own files).
  { ...common, entryPoints: ['webview/usage/main.ts'], outfile: 'dist/usage.js', platform: 'browser', format: 'iife', target: 'es2022', minify: true, sourcemap: false },
  { ...common, entryPoints: ['webview/usage/usage.css'], outfile: 'dist/usage.css', loader: { '.css': 'css' } },
];

mkdirSync(join(root, 'dist'), { recursive: true });
if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  chmodSync(join(root, 'dist/cli.js'), 0o755);
  copyFileSync(join(root, 'node_modules/@vscode/codicons/dist/codicon.css'), join(root, 'dist/codicon.css'));
  copyFileSync(join(root, 'node_modules/@vscode/codicons/dist/codicon.ttf'), join(root, 'dist/codicon.ttf'));
  // The search index's SQLite (node-sqlite3-wasm) loads its WebAssembly from the folder of the script that bundles
  // it (its locateFile: __dirname), so beside extension.js and cliMain.js.
  copyFileSync(join(root, 'node_modules/node-sqlite3-wasm/dist/node-sqlite3-wasm.wasm'), join(root, 'dist/node-sqlite3-wasm.wasm'));
}
