// @vscode/test-cli configuration for the in-editor mocha suite (test/integration).
//
// With a VS Code installed on the machine (no download):
//   npm run build && VSCODE_PATH=/path/to/code npx vscode-test
// VSCODE_PATH is the VS Code executable (e.g. /usr/share/code/code, or
// ".../Visual Studio Code.app/Contents/MacOS/Electron"). Without VSCODE_PATH, vscode-test downloads VS Code stable.
// On machines without VS Code, `npm run test:integration` runs the same files in code-server's extension host.
import { defineConfig } from '@vscode/test-cli';
import { fileURLToPath } from 'node:url';
import { buildIntegrationTests } from './scripts/run-integration.mjs';

// Compiles test/integration/*.ts into out/test/integration (the extension host loads JavaScript).
await buildIntegrationTests();

const vscodePath = process.env.VSCODE_PATH;

export default defineConfig({
  tests: [
    {
      label: 'integration',
      files: 'out/test/integration/suite/**/*.test.js',
      workspaceFolder: 'samples',
      ...(vscodePath ? { useInstallation: { fromPath: vscodePath } } : {}),
      // Only the extension under test; no trust prompt for the samples folder.
      launchArgs: ['--disable-extensions', '--disable-workspace-trust'],
      // test/reporter.js writes test-results/integration.json, like every other suite.
      env: { TEST_SUITE_NAME: 'integration' },
      mocha: {
        ui: 'tdd',
        timeout: 60_000,
        color: false,
        reporter: fileURLToPath(new URL('./test/reporter.js', import.meta.url)),
      },
    },
  ],
});
