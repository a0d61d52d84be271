import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { viewerSuite } from './harness';
import { WRITER_CORPUS } from '../helpers/corpus';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const SESSION = join(WRITER_CORPUS, 'claude-code-2.1.332/subagent/projects/-home-user-project/87aba006-238f-4834-a6fa-3396f07d36f4.jsonl');
const SUBAGENT = join(WRITER_CORPUS, 'claude-code-2.1.332/subagent/projects/-home-user-project/87aba006-238f-4834-a6fa-3396f07d36f4/subagents/agent-a5c03940d33ae9f06.jsonl');

describe('viewer: a Claude Code session with a subagent (Chromium)', function () {
  this.timeout(120_000);
  const { view } = viewerSuite();

  for (const theme of ['dark', 'hc'] as const) {
    it(`${theme}: the header says the totals include the subagent and links to it; the Agent call's detail does too`, async () => {
      const v = await view(SESSION, { theme });
      await v.waitForHost('header', (m: Any) => (m.header.usage?.files?.length ?? 0) > 1);
      await v.settle();
      await v.page.waitForSelector('.fact-session');
      const fact = await v.page.$eval('.fact-session', (e: Any) => ({ text: e.textContent, title: e.title }));
      assert.match(fact.text, /^incl\. 1 subagent Say hello via shell$/);
      assert.match(fact.title, /agent-a5c03940d33ae9f06\.jsonl\): 7\.8k in, 47 out/);
      assert.match(await v.page.$eval('.header-facts', (e: Any) => e.textContent), /24k in → 141 out tokens/);
      // Keyboard: the link is a button, reached and pressed like one.
      await v.page.focus('.fact-session .session-file');
      await v.page.keyboard.press('Enter');
      await v.settle();
      assert.ok(v.hostCalls.includes(`openTrace:${SUBAGENT}`), v.hostCalls.join('\n'));

      const meta = JSON.parse(readFileSync(SUBAGENT.replace(/\.jsonl$/, '.meta.json'), 'utf8'));
      const callLine = readFileSync(SESSION, 'utf8').split('\n').findIndex((l) => l.includes(`"type":"tool_use","id":"${meta.toolUseId}"`)) + 1;
      await v.page.click(`.row[data-line="${callLine}"] .label`);
      await v.page.waitForFunction(() => [...(globalThis as Any).document.querySelectorAll('.overview dt')].some((d: Any) => d.textContent === 'Subagent'));
      const row = await v.page.evaluate(() => {
        const dt = [...(globalThis as Any).document.querySelectorAll('.overview dt')].find((d: Any) => d.textContent === 'Subagent');
        return dt.nextElementSibling.textContent;
      });
      assert.equal(row, 'Say hello via shell · agent-a5c03940d33ae9f06.jsonl · 7,757 in, 47 out, $0.0220');
      await v.screenshot(`session-subagent-${theme}`);

      // The Statistics tab: the session's files, then its models with the subagent counted in.
      const since = v.received.length;
      await v.page.click('.main-view-tab[data-view="statistics"]');
      await v.waitForHost('statistics', (m: Any) => m.stats.session !== undefined, since);
      await v.settle();
      const table = (section: string): Promise<string[][]> => v.page.$$eval(`.statistics-section[data-section="${section}"] tbody tr`, (trs: Any[]) => trs.map((tr) => [...tr.children].map((td: Any) => td.textContent)));
      const files = await table('Session files');
      assert.deepEqual(files.map((r) => r.slice(0, 3)), [['this file', '87aba006-238f-4834-a6fa-3396f07d36f4.jsonl', '3'], ['subagent: Say hello via shell', 'agent-a5c03940d33ae9f06.jsonl', '2']]);
      const models = await table('Models');
      assert.equal(models[0][1], '5', 'five responses: three in the session file, two in the subagent\'s');
      await v.screenshot(`session-subagent-statistics-${theme}`);
    });
  }
});

describe('viewer: a session read with its subagent transcript inside it (Chromium)', function () {
  this.timeout(120_000);
  const { view } = viewerSuite();

  for (const theme of ['dark', 'hc'] as const) {
    it(`${theme}: the Agent call's row holds the subagent's turn; its detail names its file; the transcript reads it under the call`, async () => {
      const v = await view(SESSION, { theme, sessionParts: true, height: 900 });
      await v.settle();
      const sub = readFileSync(SUBAGENT, 'utf8').split('\n').filter((l) => l !== '');
      // Line 1 of each file is its own row; the subagent's prompt is one level under the Agent call's row.
      const rows = await v.page.$$eval('.row', (rs: Any[]) => rs.map((r) => ({ node: Number(r.dataset.node), line: Number(r.dataset.line), depth: Number(r.getAttribute('aria-level')), label: r.querySelector('.label')?.textContent ?? '' })));
      const prompt = rows.find((r) => r.label.includes('SUBAGENT-TASK') && r.label.startsWith('user'));
      assert.ok(prompt, rows.map((r) => r.label).join('\n'));
      const call = rows.find((r) => /^Agent\b/.test(r.label) && !r.label.includes(' → '))!;
      assert.equal(prompt!.line, 1);
      assert.equal(prompt!.depth, call.depth + 1, 'one level under the Agent call');
      assert.ok(Math.max(...rows.map((r) => r.depth)) <= 8);
      await v.page.click(`.row[data-node="${prompt!.node}"] .label`);
      await v.page.waitForFunction(() => [...(globalThis as Any).document.querySelectorAll('.overview dt')].some((d: Any) => d.textContent === 'File'));
      const file = await v.page.evaluate(() => {
        const dt = [...(globalThis as Any).document.querySelectorAll('.overview dt')].find((d: Any) => d.textContent === 'File');
        return dt.nextElementSibling.textContent;
      });
      assert.equal(file, 'agent-a5c03940d33ae9f06.jsonl · subagent "Say hello via shell"');
      await v.screenshot(`session-parts-tree-${theme}`);
      // Keyboard: the line link reveals the subagent's own file at its line; the file link opens it alone.
      await v.page.focus('.overview dd .link-button');
      await v.page.keyboard.press('Enter');
      await v.settle();
      assert.ok(v.hostCalls.includes(`revealInTextEditor:1:${SUBAGENT}`), v.hostCalls.join('\n'));
      await v.page.click('#main-tab-transcript');
      await v.page.waitForSelector('.transcript-block.subagent-block');
      await v.settle();
      const blocks = await v.page.$$eval('.transcript-block', (bs: Any[]) => bs.map((b) => ({ node: Number(b.dataset.node), sub: b.classList.contains('subagent-block'), indent: parseFloat(getComputedStyle(b).marginLeft) })));
      const subs = blocks.filter((b) => b.sub);
      assert.ok(subs.length >= 3 && subs.every((b) => b.indent > 0), JSON.stringify(blocks));
      const first = blocks.findIndex((b) => b.sub);
      assert.equal(blocks.slice(first, first + subs.length).filter((b) => b.sub).length, subs.length, 'together');
      assert.ok(blocks.slice(0, first).some((b) => b.node === call.node), 'after the Agent call');
      assert.equal(new Set(blocks.map((b) => b.node)).size, blocks.length, 'each once');
      assert.ok(sub.length > subs.length);
      await v.page.evaluate((n: number) => (globalThis as Any).document.querySelector(`.transcript-block[data-node="${n}"]`).scrollIntoView({ block: 'start' }), call.node);
      await v.settle();
      await v.screenshot(`session-parts-transcript-${theme}`);
    });
  }
});
