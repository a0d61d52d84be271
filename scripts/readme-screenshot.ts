// Takes the README's screenshot (media/screenshot.png) in a real workbench: code-server with the built extension,
// the samples as the workspace, the murmur session opened from the Explorer, its tool call on line 4 selected and
// both check verdicts shown in the header. Needs `npm run build` and code-server (scripts/install-code-server.sh;
// `npm start` or `npm test` installs it). Usage: node --require tsx/cjs scripts/readme-screenshot.ts [OUT.png]
import { join, resolve } from 'node:path';
import { makeWorkspace, openFromExplorer, removeWorkspace, runCommand, startWorkbench, until, viewerFrame } from '../test/e2e/workbench';

const MURMUR = 'murmur/ses_583584f8e94410c93669237ac44d5d21/trace.jsonl';

async function main(): Promise<void> {
  const out = resolve(process.argv[2] ?? join(__dirname, '..', 'media', 'screenshot.png'));
  const wb = await startWorkbench(makeWorkspace());
  try {
    const { page } = wb;
    await openFromExplorer(page, MURMUR.split('/'));
    const frame = await viewerFrame(page, join(wb.workspace, MURMUR), 'murmur');
    await frame.locator('.tree-scroll .row[data-line="4"]').click();
    await frame.locator('.detail-pane .detail-label').filter({ hasText: /^tool_call read_file/ }).waitFor({ state: 'visible' });
    // Both verdicts (verification, then conformance) are in the header once the checks on open are done.
    await until(page, 'both check verdicts in the header', async () => (await frame.locator('.header .check-chip').count()) >= 2, 60_000);
    await runCommand(page, 'Notifications: Clear All Notifications');
    await frame.locator('.tree-scroll .row[data-line="4"]').click();
    await page.screenshot({ path: out });
    console.log(`wrote ${out}`);
  } finally {
    await wb.stop();
    removeWorkspace(wb.workspace);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
