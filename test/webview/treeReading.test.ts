import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { lowContrast } from './contrast';
import { viewerSuite } from './harness';
import { CLAUDE_SHELL_FAIL, CODEX_SHELL_FAIL, corpusFile, GEMINI_SHELL_FAIL } from '../helpers/treeCorpus';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const SAMPLE = resolve('test/fixtures/viewer/sample.jsonl');

describe('tree reading: rows that say what happened, the first open (Chromium, real corpus files)', function () {
  this.timeout(120_000);
  const { view } = viewerSuite();

  it('a Claude Code transcript opens with its first message selected and shown; ArrowDown goes to the next row', async () => {
    const v = await view(corpusFile(CLAUDE_SHELL_FAIL));
    await v.waitForHost('detail', (m) => m.detail.line === 3);
    await v.settle();
    const title = await v.page.$eval('.detail-pane', (e: Any) => e.textContent as string);
    assert.doesNotMatch(title, /Select an event/);
    assert.ok(await v.page.$('.row[data-line="3"].selected.focused'), 'the first message row is focused and selected');
    const before = v.received.length;
    await v.page.keyboard.press('ArrowDown');
    const d = await v.waitForHost('detail', () => true, before);
    assert.ok(d.detail.line > 3, `ArrowDown moves past the selected row (to line ${d.detail.line})`);
  });
});

describe('tree reading: High Contrast Dark and Light (Chromium)', function () {
  this.timeout(180_000);
  const { view } = viewerSuite();

  for (const theme of ['hc', 'hcLight'] as const) {
    it(`${theme}: inline code, format and check chips are drawn in colours that stand apart from their background`, async () => {
      const v = await view(SAMPLE, { format: 'generic', theme });
      await v.page.click('.row[data-line="3"]');
      await v.waitForHost('detail', (m) => m.detail.line === 3);
      await v.settle();
      await v.page.waitForSelector('.markdown code');
      const bad = await v.page.evaluate(lowContrast, 3);
      await v.screenshot(`tree-contrast-${theme}`);
      assert.deepEqual(bad, [], 'every text stands apart from its background');
    });
  }
});

describe('tree reading: screenshots of the tree and the detail pane (Chromium, real corpus files)', function () {
  this.timeout(600_000);
  const { view } = viewerSuite();
  const traces = {
    claude: corpusFile(CLAUDE_SHELL_FAIL),
    codex: corpusFile(CODEX_SHELL_FAIL),
    gemini: corpusFile(GEMINI_SHELL_FAIL),
    otlp: resolve('test/corpus/otel-js-2.12.1/otlp-traces-messages.jsonl'),
    lumen: resolve('test/fixtures/lumen/7d3c2b1a-4e5f-4a6b-8c9d-0e1f2a3b4c5d.jsonl'),
  };
  for (const theme of ['light', 'dark', 'hc', 'hcLight'] as const) {
    it(`${theme}: Claude Code, Codex, Gemini, OTLP and lumen open with a row selected, its detail shown, every text readable`, async () => {
      for (const [name, file] of Object.entries(traces)) {
        const v = await view(file, { theme });
        await v.waitForHost('detail');
        await v.settle();
        assert.ok(await v.page.$('.row.selected'), `${name}: a row is selected on open`);
        await v.screenshot(`tree-detail-${name}-${theme}`);
        assert.deepEqual(await v.page.evaluate(lowContrast, 3), [], `${name} ${theme}: every text stands apart from its background`);
      }
    });
  }
});

describe('tree reading: a row label is read whole at the default width (Chromium, real corpus files, issue 40)', function () {
  this.timeout(120_000);
  const { view } = viewerSuite();

  const cases: [string, string, string][] = [
    ['Claude Code', CLAUDE_SHELL_FAIL, 'Bash: ls /nonexistent → exit 2, 65 ms'],
    // Three levels deep (turn → model step → call → result): cut by a few characters at 1280 px before the
    // indent per level and the number columns were narrowed.
    ['Codex', CODEX_SHELL_FAIL, 'exec_command: ls /nonexistent → exit 2, 0 ms'],
  ];
  for (const [name, dir, want] of cases) {
    it(`${name}: "${want}" is shown whole, not cut, and its hover says it all`, async () => {
      const v = await view(corpusFile(dir));
      await v.waitForHost('detail', () => true);
      await v.settle();
      const rows = await v.page.$$eval('.row .label', (els: Any[]) => els.map((e) => ({ text: e.textContent as string, cut: e.scrollWidth > e.clientWidth + 1, need: `${e.scrollWidth} px in ${e.clientWidth} px`, title: e.title as string })));
      const row = rows.find((r: Any) => r.text === want);
      assert.ok(row, `a row reads "${want}": ${rows.map((r: Any) => r.text).join(' | ')}`);
      assert.equal(row.cut, false, `the label fits the Event column (${row.need})`);
      assert.ok(row.title.startsWith(want), 'the hover holds the full label');
      // The folded bookkeeping leaves no row: neither Claude Code's attachments nor Codex's token reports.
      assert.ok(!rows.some((r: Any) => /^(attachment|queue-operation|token_count)\b/.test(r.text)), rows.map((r: Any) => r.text).join(' | '));
    });
  }
});

describe('tree reading: the tree says that bookkeeping lines are folded (Chromium, real corpus file, issue 40)', function () {
  this.timeout(180_000);
  const { view } = viewerSuite();

  for (const theme of ['dark', 'hc'] as const) {
    it(`${theme}: a status line under the rows counts the hidden lines; its Show button, reached by keyboard, shows them and Hide folds them again`, async () => {
      const v = await view(corpusFile(CLAUDE_SHELL_FAIL), { theme });
      await v.waitForHost('detail', () => true);
      await v.settle();
      const note = await v.page.$eval('.bookkeeping-note', (e: Any) => ({ hidden: e.hidden as boolean, text: e.textContent as string }));
      assert.equal(note.hidden, false, 'the note is shown while lines are folded');
      assert.match(note.text, /^[1-9][\d,]* bookkeeping lines? hidden\s*Show$/);
      assert.deepEqual(await v.page.evaluate(lowContrast, 3), [], 'the note stands apart from its background');
      await v.page.focus('.bookkeeping-show');
      assert.equal(await v.page.evaluate(() => (document.activeElement as Any)?.className), 'link-button bookkeeping-show', 'the button takes focus');
      await v.page.keyboard.press('Enter');
      await v.page.waitForFunction(() => Array.from(document.querySelectorAll('.row .label')).some((e) => /^attachment\b/.test(e.textContent ?? '')), { timeout: 20_000 });
      const shown = await v.page.$eval('.bookkeeping-note', (e: Any) => ({ hidden: e.hidden as boolean, text: e.textContent as string }));
      assert.equal(shown.hidden, false, 'the note stays while the lines are rows');
      assert.match(shown.text, /^[1-9][\d,]* bookkeeping lines? shown\s*Hide$/);
      // Hide folds them again, from the same button.
      await v.page.click('.bookkeeping-show');
      // Rows past the new end stay in the pool, hidden: only the shown ones are the tree.
      await v.page.waitForFunction(() => !Array.from(document.querySelectorAll('.row:not([hidden]) .label')).some((e) => /^attachment\b/.test(e.textContent ?? '')), { timeout: 20_000 });
      assert.match(await v.page.$eval('.bookkeeping-note', (e: Any) => e.textContent as string), /hidden\s*Show$/);
    });
  }
});
