import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { viewerSuite, type ViewerPage } from './harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const OTLP_MESSAGES = resolve('test/corpus/otel-js-2.12.1/otlp-traces-messages.jsonl');
const CLAUDE_FAIL = resolve('test/corpus/claude-code-2.1.332/shell-fail/projects/-home-user-project/3dc26acc-d87d-484b-8039-4fff8b8812ed.jsonl');

async function openTranscript(v: ViewerPage): Promise<void> {
  await v.page.click('#main-tab-transcript');
  await v.page.waitForSelector('.transcript-block');
  await v.settle();
}

/** The transcript as the reader meets it: turn lines and blocks in order. */
const reading = (v: ViewerPage) => v.page.$$eval('.transcript-turn, .transcript-block', (es: Any[]) => es.map((e) => (e.classList.contains('transcript-turn') ? e.textContent : `${e.querySelector('.block-kind').textContent}${e.querySelector('.earlier-messages') ? ` [${e.querySelector('.earlier-messages').textContent.trim()}]` : ''}`)));

describe('transcript turns (Chromium, issue 15)', function () {
  this.timeout(120_000);
  const { view } = viewerSuite();

  it('OTLP GenAI: turns with tokens and model latency; each chat shows its new messages, the re-sent history collapsed', async () => {
    const v = await view(OTLP_MESSAGES, { width: 1300, height: 900 });
    await openTranscript(v);
    // Spans in the order they started (the agent's span opens its run); a chat's re-sent history is collapsed, the
    // tool result the execute_tool span before it showed included (each result shows once).
    assert.deepEqual(await reading(v), [
      'Turn 1812→31 tokens700 ms', 'invoke_agent', 'chat', 'execute_tool',
      'Turn 2901→22 tokens700 ms', 'chat [4 earlier messages (shown at line 1)]', 'execute_tool',
      'Turn 31.0k→27 tokens700 ms', 'chat [6 earlier messages (shown at line 1)]',
    ]);
    const last = await v.page.$$eval('.transcript-block', (bs: Any[]) => bs[bs.length - 1].querySelector('.message:last-of-type')?.textContent ?? '');
    assert.match(last, /src\/ holds 42 TypeScript files/);
    await v.screenshot('transcript-turns-otlp');
  });

  it('Claude Code: two turns, the second opened by the failed tool result', async () => {
    const v = await view(CLAUDE_FAIL, { width: 1300, height: 800 });
    await openTranscript(v);
    const r = await reading(v);
    assert.deepEqual(r.map((x: string) => x.replace(/tokens.*/, 'tokens')), ['Turn 15.0k→42 tokens', 'user', 'assistant', 'assistant', 'Turn 25.1k→19 tokens', 'user', 'assistant']);
    await v.screenshot('transcript-turns-claude');
  });

  it('OTLP GenAI: a collapsed history opens in place by keyboard and mouse, and stays open when the blocks are made again (issue 15 item 3)', async () => {
    const v = await view(OTLP_MESSAGES, { width: 1300, height: 900 });
    await openTranscript(v);
    const toggles = '.transcript-block .earlier-toggle';
    assert.equal((await v.page.$$(toggles)).length, 2);
    const node = await v.page.locator('.transcript-block:has(.earlier-toggle) >> nth=1').getAttribute('data-node');
    const second = `.transcript-block[data-node="${node}"]`;
    const opened = (n: number) => v.page.waitForFunction(([sel, want]) => {
      const b = (globalThis as Any).document.querySelector(sel);
      const body = b?.querySelector('.earlier-body');
      return b?.querySelector('.earlier-toggle').getAttribute('aria-expanded') === 'true' && !body.hidden && body.querySelectorAll('.message').length === want;
    }, [second, n] as const, { polling: 100, timeout: 20_000 });
    // Keyboard: focus the button and press Enter (a native button: Space works too).
    await v.page.locator(second).locator('.earlier-toggle').focus();
    await v.page.keyboard.press('Enter');
    await opened(6);
    const roles = await v.page.locator(second).locator('.earlier-body .message').evaluateAll((ms: Any[]) => ms.map((m) => m.getAttribute('aria-label')));
    assert.deepEqual(roles, ['system message', 'user message', 'assistant message', 'tool message', 'assistant message', 'tool message']);
    assert.match(await v.page.locator(second).locator('.earlier-body').innerText(), /list the files|src/i);
    await v.screenshot('transcript-earlier-open');
    assert.equal(v.sent.filter((m) => m.type === 'requestEarlierMessages').length, 1);
    // Closed by a click, opened again from what was sent: no second request.
    await v.page.locator(second).locator('.earlier-toggle').click();
    await v.page.waitForFunction(() => [...(globalThis as Any).document.querySelectorAll('.earlier-body')].every((b: Any) => b.hidden), undefined, { polling: 100 });
    await v.page.locator(second).locator('.earlier-toggle').click();
    await opened(6);
    // A filter that keeps other blocks makes every block again: the history opened stays open.
    const all = await v.page.$eval('.transcript-block', (b: Any) => b.getAttribute('aria-setsize'));
    await v.page.click('vscode-toolbar-button[label="Filter by Kind or Status"]');
    await v.page.fill('.filter-expr', 'kind:chat');
    await v.page.waitForFunction(() => (globalThis as Any).document.querySelector('.transcript-block')?.getAttribute('aria-setsize') === '3', undefined, { polling: 100, timeout: 20_000 });
    // Without the execute_tool blocks, the last tool result is the chat's own new message again: 5 earlier.
    await opened(5);
    await v.page.fill('.filter-expr', '');
    await v.page.waitForFunction((n) => (globalThis as Any).document.querySelector('.transcript-block')?.getAttribute('aria-setsize') === n, all, { polling: 100, timeout: 20_000 });
    await opened(6);
    assert.deepEqual(v.errors, []);
  });
});
