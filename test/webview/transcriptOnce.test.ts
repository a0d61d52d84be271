// Issue 37 in Chromium: the transcript of a real Claude Code, Codex and Gemini CLI session shows each message, tool
// call and result once (screenshots in test-results/screenshots/transcript-once-*.png).
import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { viewerSuite, ViewerPage } from './harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const CLAUDE_OK = resolve('test/corpus/claude-code-2.1.332/shell-ok/projects/-home-user-project/fd2851d8-4d90-46bd-89d6-038b3d980bdb.jsonl');
const CODEX_FAIL = resolve('test/corpus/codex-0.171.0/shell-fail/sessions/2026/12/01/rollout-2026-12-01T16-25-02-01a2326c-85f2-7120-8246-9bbbb6d42b0e.jsonl');
const GEMINI_OK = resolve('test/corpus/gemini-cli-0.61.0/shell-ok/tmp/project/chats/session-2026-12-01T16-25-ca4599da.jsonl');

/** Opens the Transcript, scrolls to its end until `last` shows, back to the top; returns its messages' text. */
async function transcriptText(v: ViewerPage, last: RegExp): Promise<string> {
  await v.page.click('#main-tab-transcript');
  await v.page.waitForSelector('.transcript-block');
  await v.page.waitForFunction((src: string) => {
    const t = (globalThis as Any).document.querySelector('.transcript');
    if (!t) return false;
    t.scrollTop = t.scrollHeight;
    return new RegExp(src).test(t.textContent ?? '');
  }, last.source, { polling: 100, timeout: 30_000 });
  await v.page.evaluate(() => ((globalThis as Any).document.querySelector('.transcript').scrollTop = 0));
  await v.settle();
  // The messages only: each block's header repeats its event's label (which quotes the start of its text).
  return v.page.$eval('.transcript', (t: Any) => {
    const copy = t.cloneNode(true);
    for (const h of copy.querySelectorAll('.block-header')) h.remove();
    return copy.textContent as string;
  });
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('transcript once (Chromium, issue 37)', function () {
  this.timeout(180_000);
  const { view } = viewerSuite();

  it('Claude Code shell-ok: the Bash call, its stdout and each reply once', async () => {
    const v = await view(CLAUDE_OK, { width: 1300, height: 900 });
    const text = await transcriptText(v, /printed: hello/);
    await v.screenshot('transcript-once-claude-code');
    assert.equal(count(text, 'toolu_mockmx4wri17005'), 2, 'the call and its result name the id once each');
    assert.equal(count(text, 'I will run the command.'), 1);
    assert.equal(count(text, 'printed: hello'), 1);
  });

  it('Codex shell-fail: the prompt, the reasoning, the call, its output and the answer once each', async () => {
    const v = await view(CODEX_FAIL, { width: 1300, height: 900 });
    const text = await transcriptText(v, /The command failed/);
    await v.screenshot('transcript-once-codex');
    assert.equal(count(text, 'List the folder /nonexistent.'), 1);
    assert.equal(count(text, 'I should list /nonexistent.'), 1);
    assert.equal(count(text, 'call_mockmx4wr2o700c'), 2, 'the call and its output');
    assert.equal(count(text, 'The command failed: /nonexistent does not exist'), 1);
  });

  it('Gemini CLI shell-ok chat: the run_shell_command call and its result once', async () => {
    const v = await view(GEMINI_OK, { width: 1300, height: 900 });
    const text = await transcriptText(v, /printed: hello/);
    await v.screenshot('transcript-once-gemini');
    assert.equal(count(text, 'Process Group PGID'), 1, 'the result once');
    assert.equal(count(text, 'I will run the command.'), 1);
    assert.equal(count(text, 'Run echo hello and tell me what it printed.'), 1);
  });
});
