/**
 * `agent-trace`'s entry (dist/cli.js): loads the CLI's bundle (dist/cliMain.js) with V8's code cache, so that a run
 * does not compile the 1.8 MB bundle again each time (about 0.1 s of a run on a small file, a third of it). Node 22's
 * own compile cache (`module.enableCompileCache`) is used where it exists; on older Nodes the bundle is compiled
 * through `vm.Script` with the cached data of the last run, and the data is written again when V8 refused it or
 * there was none. Without a private cache directory, or on any failure of the cache, the bundle loads as before.
 *
 * The cache is the user's (`AGENT_TRACE_CACHE_DIR`, else `$XDG_CACHE_HOME` or `~/.cache`, or `%LOCALAPPDATA%`, then
 * `agent-trace`): V8 runs what a cache file holds, so a directory that another user could write to is not used. A
 * file is named by the bundle's size and time and by the Node version and architecture; V8 itself refuses data
 * made by other flags. `AGENT_TRACE_CODE_CACHE=0` turns it off; `AGENT_TRACE_CODE_CACHE=debug` says on stderr what it did.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import * as vm from 'node:vm';
import Module = require('node:module');
import { cacheDir } from './userCacheDir';

type CliMain = { main(argv: string[]): Promise<number> };

const BUNDLE = path.join(__dirname, 'cliMain.js');
const setting = process.env.AGENT_TRACE_CODE_CACHE;
const say = (what: string): void => {
  if (setting === 'debug') process.stderr.write(`agent-trace code cache: ${what}\n`);
};

export { cacheDir };

function loadWithCache(dir: string): CliMain {
  const st = fs.statSync(BUNDLE);
  const runtime = `-${process.version}-${process.arch}.v8cache`;
  const name = `cli-${st.size}-${Math.floor(st.mtimeMs)}${runtime}`;
  const file = path.join(dir, name);
  let cached: Buffer | undefined;
  try {
    cached = fs.readFileSync(file);
  } catch {
    cached = undefined;
  }
  let source = fs.readFileSync(BUNDLE, 'utf8');
  // The bundle is a CommonJS module: wrapped as Node wraps it (a first line `#!` would then be a syntax error).
  if (source.startsWith('#!')) source = '//' + source.slice(2);
  // An `import()` in the bundle resolves as it would in a module Node loaded (where the Node has the constant).
  const dynamicImport = (vm as unknown as { constants?: { USE_MAIN_CONTEXT_DEFAULT_LOADER?: symbol } }).constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
  const script = new vm.Script(Module.wrap(source), { filename: BUNDLE, cachedData: cached, ...(dynamicImport ? { importModuleDynamically: dynamicImport as never } : {}) });
  const m = new Module(BUNDLE);
  m.filename = BUNDLE;
  m.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(__dirname);
  (script.runInThisContext() as (...args: unknown[]) => void).call(m.exports, m.exports, Module.createRequire(BUNDLE), m, BUNDLE, __dirname);
  const fresh = cached === undefined || script.cachedDataRejected === true;
  say(cached === undefined ? 'none yet' : fresh ? 'refused by V8' : 'used');
  if (fresh) {
    // At exit, with the functions this run compiled; written aside and renamed, so a reader never sees half a file.
    process.once('exit', () => {
      try {
        const tmp = `${file}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(tmp, file);
        // Older bundles' data for this Node (another Node's stays: a user may switch between two).
        for (const old of fs.readdirSync(dir)) if (old.startsWith('cli-') && old.endsWith(runtime) && old !== name) fs.rmSync(path.join(dir, old), { force: true });
        say(`written (${name})`);
      } catch (err) {
        say(`not written: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
  }
  return m.exports as CliMain;
}

function load(): CliMain {
  if (setting === '0') return require(BUNDLE) as CliMain;
  const dir = cacheDir();
  if (dir === null) {
    say('no private cache directory');
    return require(BUNDLE) as CliMain;
  }
  const nodeCache = (Module as unknown as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (nodeCache) {
    nodeCache(path.join(dir, 'node'));
    say('Node\'s compile cache');
    return require(BUNDLE) as CliMain;
  }
  try {
    return loadWithCache(dir);
  } catch (err) {
    say(`not used: ${err instanceof Error ? err.message : String(err)}`);
    return require(BUNDLE) as CliMain;
  }
}

if (require.main === module) {
  load().main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
