// Mocha entry loaded by the extension host (`extensionTestsPath`) when scripts/run-integration.mjs runs the
// suite inside code-server. `vscode-test` (.vscode-test.mjs) uses @vscode/test-cli's own runner instead,
// over the same compiled files with the same reporter.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

/** Start/end markers: the runner script prints the extension host's log between them. */
export const OUTPUT_START = '[integration] mocha start';
export const OUTPUT_END = '[integration] mocha end';

/** Runs every compiled `suite/*.test.js`; rejects when a test fails so the extension host exits non-zero. */
export async function run(): Promise<void> {
  // Compiled to out/test/integration/index.js: the project root is three levels up.
  const root = path.resolve(__dirname, '..', '..', '..');
  // test/reporter.js writes test-results/<TEST_SUITE_NAME>.json, the file `npm test` adds up.
  process.env.TEST_SUITE_NAME = 'integration';
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60_000, reporter: path.join(root, 'test', 'reporter.js') });
  const suiteDir = path.join(__dirname, 'suite');
  for (const f of fs.readdirSync(suiteDir).filter((n) => n.endsWith('.test.js')).sort()) mocha.addFile(path.join(suiteDir, f));
  console.log(OUTPUT_START);
  try {
    const failures = await new Promise<number>((resolve) => mocha.run(resolve));
    if (failures > 0) throw new Error(`${failures} integration test(s) failed`);
  } finally {
    console.log(OUTPUT_END);
  }
}
