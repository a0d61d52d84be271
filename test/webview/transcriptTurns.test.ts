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
    assert.deepEqual(await reading(v), [
      'Turn 1812→31 tokens700 ms', 'chat', 'execute_tool',
      'Turn 2901→22 tokens700 ms', 'chat [3 earlier messages (shown at line 1)]', 'execute_tool',
      'Turn 31.0k→27 tokens700 ms', 'chat [5 earlier messages (shown at line 1)]', 'invoke_agent',
    ]);
    const last = await v.page.$$eval('.transcript-block', (bs: Any[]) => bs[bs.length - 2].querySelector('.message:last-of-type')?.textContent ?? '');
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
});
