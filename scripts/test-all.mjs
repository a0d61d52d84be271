// Runs every test suite in order (type-check and build first), then prints one closing line
// `N passed, N failed` over all of them. Exit code 1 when anything failed.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCodeServer, ensureDebianPackages, ensureNodeModules } from './setup.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const only = process.argv.slice(2);
const run = (cmd, args, env = {}) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

rmSync(join(root, 'test-results'), { recursive: true, force: true });
let failedSteps = 0;
// Everything the suites need is installed here, so `npm test` works on a fresh clone.
const wants = (n) => only.length === 0 || only.includes(n);
try {
  ensureNodeModules();
  if (wants('webview') || wants('e2e') || wants('integration')) ensureDebianPackages(['chromium']);
  if (wants('e2e') || wants('integration')) await ensureCodeServer();
} catch (err) {
  console.error(`set-up failed: ${err.message}`);
  failedSteps++;
}
for (const [name, args] of [['typecheck', ['run', 'typecheck']], ['build', ['run', 'build']]]) {
  if (run('npm', args) !== 0) {
    console.error(`${name} failed`);
    failedSteps++;
  }
}
const suites = [
  ['unit', ['run', 'test:unit']],
  ['webview', ['run', 'test:webview']],
  ['integration', ['run', 'test:integration']],
  ['e2e', ['run', 'test:e2e']],
].filter(([n]) => only.length === 0 || only.includes(n));
let passed = 0;
let failed = failedSteps;
for (const [name, args] of suites) {
  const status = failedSteps > 0 ? 1 : run('npm', args, { TEST_SUITE_NAME: name });
  const file = join(root, 'test-results', `${name}.json`);
  if (existsSync(file)) {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    passed += r.passed;
    failed += r.failed;
    if (status !== 0 && r.failed === 0) failed++; // crashed after reporting
  } else if (status !== 0 || failedSteps > 0) {
    console.error(`suite ${name} did not run to completion`);
    failed++;
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
