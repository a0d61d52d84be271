import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { viewerSuite } from './harness';
import { writerFiles } from '../helpers/writerCorpus';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
const linesOf = (path: string): Any[] => readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));

/** The real `claude -p --resume <id> --fork-session` transcript (its lines name the origin) and its origin's id. */
const FORK = writerFiles('claude-code').find((p) => p.split(/[\\/]/).includes('fork') && linesOf(p).some((v) => typeof v.requestSessionId === 'string' && v.requestSessionId !== v.sessionId))!;
const ORIGIN_ID: string = linesOf(FORK).find((v) => typeof v.requestSessionId === 'string').requestSessionId;

describe('viewer header: a forked session (Chromium)', function () {
  this.timeout(120_000);
  const { view } = viewerSuite();

  for (const theme of ['dark', 'hc'] as const) {
    it(`${theme}: says "forked from", opens the origin and goes to the inherited history from the keyboard`, async () => {
      const v = await view(FORK, { theme });
      await v.waitForHost('header', (m) => m.header.origin?.hasFile === true);
      await v.settle();
      const fact = await v.page.$eval('.fact-origin', (e: Any) => ({ text: e.textContent, title: e.getAttribute('title'), buttons: [...e.querySelectorAll('button')].map((b: Any) => [b.textContent, b.getAttribute('type'), getComputedStyle(b).color]) }));
      assert.match(fact.text, new RegExp(`^forked from ${ORIGIN_ID.slice(0, 8)}…`));
      assert.match(fact.title, new RegExp(`forked from session ${ORIGIN_ID}`));
      assert.deepEqual(fact.buttons.map((b: Any) => [b[0], b[1]]), [['open origin', 'button'], ['10 inherited, not counted again', 'button']]);
      // Links in the theme's link colour (High Contrast too), not a fixed one.
      const link = await v.page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--vscode-textLink-foreground').trim());
      assert.ok(link !== '', 'the theme defines a link colour');
      for (const b of fact.buttons) assert.notEqual(b[2], 'rgb(0, 0, 0)');
      // The inherited history is one collapsed row.
      const labels = await v.rowLabels();
      assert.ok(labels.some((l) => l.startsWith('inherited history: user: ')), labels.join('\n'));
      assert.ok(!labels.includes('assistant 5.0k→7 tokens: Noted. The code word is PLUM.'), 'its response is inside, collapsed');
      await v.screenshot(`session-fork-${theme}`);
      // Keyboard: focus the "open origin" link and press Enter.
      await v.page.focus('.fact-origin .origin-file');
      await v.page.keyboard.press('Enter');
      await v.settle();
      assert.ok(v.sent.some((m) => m.type === 'openOriginFile'), 'Enter on the link asks the host to open the origin');
      await v.page.focus('.fact-origin .origin-inherited');
      await v.page.keyboard.press('Enter');
      await v.settle();
      assert.ok(v.sent.some((m) => m.type === 'revealLine' && (m as Any).line === 5), JSON.stringify(v.sent.filter((m) => m.type === 'revealLine')));
    });
  }
});
