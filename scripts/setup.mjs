// Set-up steps shared by `npm start`, `npm test` and the e2e tests: each is idempotent and quick when done.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** Installs code-server 4.100.3 into .vscode-test/code-server (cached) and returns its entry script. */
export function ensureCodeServer() {
  step('install code-server', 'bash', [join(ROOT, 'scripts', 'install-code-server.sh')], { stdio: ['ignore', 'ignore', 'inherit'] });
  return join(ROOT, '.vscode-test', 'code-server', 'bin', 'code-server');
}

/**
 * Lays the built extension out as an unpacked extension folder `<publisher>.<name>-<version>` inside
 * `extensionsDir`, which code-server loads at start.
 */
export function installExtensionInto(extensionsDir) {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const target = join(extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  for (const entry of ['package.json', 'dist', 'media', 'README.md', 'CHANGELOG.md']) {
    if (existsSync(join(ROOT, entry))) cpSync(join(ROOT, entry), join(target, entry), { recursive: true });
  }
  // code-server keeps a registry of installed extensions; an unpacked folder is picked up without it,
  // but a stale entry from an earlier version would hide it.
  const registry = join(extensionsDir, 'extensions.json');
  if (existsSync(registry)) writeFileSync(registry, '[]');
  return target;
}
