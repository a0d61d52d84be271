// Set-up steps shared by `npm start`, `npm test` and the e2e tests: each is idempotent and quick when done.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Runs a command in the project root, inheriting output; throws with the step's name on failure. */
export function step(name, cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', ...opts, env: { ...process.env, ...(opts.env ?? {}) } });
  if (r.status !== 0) throw new Error(`${name} failed (${cmd} ${args.join(' ')}: exit ${r.status ?? r.signal})`);
}

/** Installs npm dependencies when node_modules is missing or older than the lock file. */
export function ensureNodeModules() {
  const stamp = join(ROOT, 'node_modules', '.package-lock.json');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8').length > 0) return;
  step('npm ci', 'npm', ['ci', '--no-audit', '--no-fund']);
}

/** Installs Debian packages that are missing (Chromium for browser tests). Root only; says why when it can't. */
export function ensureDebianPackages(pkgs) {
  const missing = pkgs.filter((p) => spawnSync('dpkg', ['-s', p], { stdio: 'ignore' }).status !== 0);
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) throw new Error(`missing Debian packages: ${missing.join(' ')}; install them with: sudo apt-get install -y ${missing.join(' ')}`);
  step('apt-get update', 'apt-get', ['update', '-qq']);
  step(`apt-get install ${missing.join(' ')}`, 'apt-get', ['install', '-y', '-qq', ...missing], { env: { DEBIAN_FRONTEND: 'noninteractive' } });
}

/**
 * Installs code-server 4.100.3 into .vscode-test/code-server (cached) and returns its entry script. The
 * install's own step lines are shown as it goes; npm's and node-gyp's chatter (including `ERR!` lines of
 * optional native modules, harmless when the step succeeds) goes to .vscode-test/install-code-server.log,
 * whose tail is printed when the install fails.
 */
export async function ensureCodeServer() {
  const log = join(ROOT, '.vscode-test', 'install-code-server.log');
  mkdirSync(dirname(log), { recursive: true });
  const out = createWriteStream(log);
  const child = spawn('bash', [join(ROOT, 'scripts', 'install-code-server.sh')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const tail = [];
  const onLine = (line) => {
    out.write(`${line}\n`);
    tail.push(line);
    if (tail.length > 60) tail.shift();
    if (line.startsWith('[install-code-server]')) process.stderr.write(`  ${line}\n`);
  };
  for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', onLine);
  const code = await new Promise((resolve) => child.on('close', (c, signal) => resolve(c ?? signal)));
  await new Promise((resolve) => out.end(resolve));
  if (code !== 0) {
    process.stderr.write(`${tail.join('\n')}\n`);
    throw new Error(`install code-server failed (exit ${code}); the full log is in ${log}`);
  }
  return join(ROOT, '.vscode-test', 'code-server', 'bin', 'code-server');
}

/**
 * Lays the built extension out as an unpacked extension folder `<publisher>.<name>-<version>` inside
 * `extensionsDir`, which code-server loads at start, and registers it there so that a later start on the
 * same state folder keeps it: code-server lists installed extensions in `extensions.json` and marks a
 * folder missing from that list as removed (`.obsolete`), after which it is never loaded again.
 */
export function installExtensionInto(extensionsDir) {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const id = `${pkg.publisher}.${pkg.name}`;
  const folder = `${id}-${pkg.version}`;
  const target = join(extensionsDir, folder);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  // The same files the .vsix carries (.vscodeignore), docs/rules.md included: findings link to it.
  mkdirSync(join(target, 'docs'), { recursive: true });
  for (const entry of ['package.json', 'dist', 'media', 'README.md', 'CHANGELOG.md', 'docs/rules.md']) {
    if (existsSync(join(ROOT, entry))) cpSync(join(ROOT, entry), join(target, entry), { recursive: true });
  }
  registerExtension(extensionsDir, id, pkg.version, folder);
  return target;
}

/** Puts our entry (and only one) in `extensions.json` and takes every version of ours off `.obsolete`. */
export function registerExtension(extensionsDir, id, version, folder) {
  const registry = join(extensionsDir, 'extensions.json');
  const others = readJson(registry, []).filter((e) => e?.identifier?.id?.toLowerCase() !== id.toLowerCase());
  const location = { $mid: 1, path: join(extensionsDir, folder), scheme: 'file' };
  writeFileSync(registry, JSON.stringify([...others, { identifier: { id }, version, location, relativeLocation: folder }]));
  const obsoleteFile = join(extensionsDir, '.obsolete');
  const obsolete = readJson(obsoleteFile, {});
  const kept = Object.fromEntries(Object.entries(obsolete).filter(([k]) => !k.toLowerCase().startsWith(`${id.toLowerCase()}-`)));
  if (Object.keys(kept).length === 0) rmSync(obsoleteFile, { force: true });
  else writeFileSync(obsoleteFile, JSON.stringify(kept));
}

/** A JSON file's content, or `fallback` when it is missing or unreadable (code-server rewrites both files). */
function readJson(file, fallback) {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8'));
    return Array.isArray(fallback) === Array.isArray(v) && typeof v === 'object' && v !== null ? v : fallback;
  } catch {
    return fallback;
  }
}
