import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { viewerSuite } from './harness';
import { WRITER_CORPUS } from '../helpers/corpus';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const MAIN = join(WRITER_CORPUS, 'opencode-1.18.33/subagent/export.json');
const SUBAGENT = join(WRITER_CORPUS, 'opencode-1.18.33/subagent/export-subagent.json');

describe('viewer: an opencode export read with its subagent session\'s export (Chromium)', function () {
  this.timeout(120_000);
  const { view } = viewerSuite();

  for (const theme of ['dark', 'hc'] as const) {
    it(`${theme}: the task call's row holds the subagent session; its detail names its file; the line link reveals it by keyboard`, async () => {
      const v = await view(MAIN, { theme, sessionParts: true, height: 900 });
      await v.settle();
      const sub = JSON.parse(readFileSync(SUBAGENT, 'utf8'));
      const rows = await v.page.$$eval('.row', (rs: Any[]) => rs.map((r) => ({ node: Number(r.dataset.node), line: Number(r.dataset.line), depth: Number(r.getAttribute('aria-level')), label: r.querySelector('.label')?.textContent ?? '' })));
      const call = rows.find((r) => r.label.startsWith('task: '));
      const session = rows.find((r) => r.label.startsWith('subagent session'));
      assert.ok(call && session, rows.map((r) => r.label).join('\n'));
      assert.equal(session!.depth, call!.depth + 1, 'one level under the task call');
      // Its own export's line of the session id (line 3 of a pretty-printed export).
      const line = readFileSync(SUBAGENT, 'utf8').split('\n').findIndex((l) => l.includes(`"id": "${sub.info.id}"`)) + 1;
      assert.equal(session!.line, line);
      await v.page.click(`.row[data-node="${session!.node}"] .label`);
      await v.page.waitForFunction(() => [...(globalThis as Any).document.querySelectorAll('.overview dt')].some((d: Any) => d.textContent === 'File'));
      const file = await v.page.evaluate(() => {
        const dt = [...(globalThis as Any).document.querySelectorAll('.overview dt')].find((d: Any) => d.textContent === 'File');
        return dt.nextElementSibling.textContent;
      });
      assert.equal(file, `export-subagent.json · subagent "${sub.info.title}"`);
      await v.screenshot(`opencode-session-parts-${theme}`);
      await v.page.focus('.overview dd .link-button');
      await v.page.keyboard.press('Enter');
      await v.settle();
      assert.ok(v.hostCalls.includes(`revealInTextEditor:${line}:${SUBAGENT}`), v.hostCalls.join('\n'));
    });
  }
});
