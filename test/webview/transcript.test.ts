import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TraceBlobs } from '../../src/viewer/blobResolver';
import type { SessionHost } from '../../src/viewer/sessionHost';
import { viewerSuite, ViewerPage } from './harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const CC = 'test/corpus/claude-code-2.1.332';
const CLAUDE_FAIL = resolve(`${CC}/shell-fail/projects/-home-user-project/3dc26acc-d87d-484b-8039-4fff8b8812ed.jsonl`);
const CODEX_FAIL = resolve('test/corpus/codex-0.171.0/shell-fail/sessions/2026/12/01/rollout-2026-12-01T16-25-02-01a2326c-85f2-7120-8246-9bbbb6d42b0e.jsonl');
const MURMUR = resolve('test/seed-corpus/murmur/ses_39263059f28c105d1fb17c2390c192cf/trace.jsonl');
const LUMEN = resolve('test/seed-corpus/lumen/.lumen/trace/55769ad7-ac9e-4d06-ae6b-d950d1e7c1bc.jsonl');

/** Opens the Transcript tab and waits for its first blocks. */
async function openTranscript(v: ViewerPage): Promise<void> {
  await v.page.click('#main-tab-transcript');
  await v.page.waitForSelector('.transcript-block');
  await v.settle();
}

/** The real Claude Code shell-fail session with its Bash call turned into an Edit (same line shapes). */
function claudeEdit(dir: string, oldText: string, newText: string, file = 'src/app.ts'): string {
  const lines = readFileSync(CLAUDE_FAIL, 'utf8').split('\n');
  const out = lines.map((l) => {
    if (!l.includes('"name":"Bash"')) return l;
    const v = JSON.parse(l);
    for (const b of Array.isArray(v.message?.content) ? v.message.content : []) if (b.type === 'tool_use') Object.assign(b, { name: 'Edit', input: { file_path: file, old_string: oldText, new_string: newText } });
    return JSON.stringify(v);
  });
  const path = join(dir, 'edit.jsonl');
  writeFileSync(path, out.join('\n'));
  return path;
}

describe('transcript view (Chromium, issue 15)', function () {
  this.timeout(180_000);
  const { view } = viewerSuite();
  let dir = '';
  before(() => (dir = mkdtempSync(join(tmpdir(), 'transcript-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('Claude Code: the prompt, the Bash call as a command, its failure with exit code and stderr; a line link opens the Tree', async () => {
    const v = await view(CLAUDE_FAIL, { width: 1300, height: 800 });
    await openTranscript(v);
    const t = await v.page.evaluate(() => {
      const d = (globalThis as Any).document;
      return {
        blocks: d.querySelectorAll('.transcript-block').length,
        command: d.querySelector('.tool-view-shell .shell-command code')?.textContent,
        exit: d.querySelector('.shell-exit')?.textContent,
        stderr: d.querySelector('.shell-stderr pre')?.textContent,
        prompt: d.querySelector('.transcript-block.category-message .part-text')?.textContent,
        error: d.querySelectorAll('.transcript-block.status-error').length,
      };
    });
    assert.equal(t.blocks, 5);
    assert.equal(t.command, 'ls /nonexistent');
    assert.match(t.exit, /exit code 2/);
    assert.match(t.stderr, /cannot access '\/nonexistent': No such file or directory/);
    assert.match(t.prompt, /List the folder \/nonexistent/);
    assert.equal(t.error, 1, 'the failed tool result is marked as an error');
    assert.equal(v.savedState?.mainView, 'transcript', 'the view shown is kept in the webview state');
    await v.screenshot('transcript-claude-shell-fail');
    const mark = v.received.length;
    await v.page.click('.transcript-block.status-error .block-line');
    await v.waitForHost('detail', (m) => m.detail.line === 21, mark);
    assert.equal(await v.page.$eval('#main-tab-tree', (e: Any) => e.getAttribute('aria-selected')), 'true');
    await v.page.click('#main-tab-transcript');
    await v.page.waitForSelector('.transcript-block.selected[data-line="21"]');
  });

  it('the Transcript stays the view shown across a reload; the Content tab shows the same shell outcome', async () => {
    const v = await view(CLAUDE_FAIL, { width: 1300, height: 800 });
    await openTranscript(v);
    await v.show();
    await v.page.waitForSelector('.transcript-block');
    assert.equal(await v.page.$eval('#main-tab-transcript', (e: Any) => e.getAttribute('aria-selected')), 'true');
    assert.equal(await v.page.$eval('#main-panel-tree', (e: Any) => e.hidden), true);
    const mark = v.received.length;
    await v.page.click('.transcript-block.status-error .block-header');
    await v.waitForHost('detail', (m) => m.detail.line === 21, mark);
    await v.settle();
    assert.equal(await v.page.$eval('#main-tab-transcript', (e: Any) => e.getAttribute('aria-selected')), 'true', 'a click on a block selects without leaving the transcript');
    const content = await v.page.$eval('.detail-pane .shell-outcome', (e: Any) => e.textContent);
    assert.match(content, /exit code 2.*No such file or directory/s);
  });

  it('is keyboard-readable: an ARIA feed whose blocks ↓/↑ move between and Enter selects', async () => {
    const v = await view(CLAUDE_FAIL, { width: 1300, height: 800 });
    await openTranscript(v);
    await v.page.focus('.transcript');
    await v.page.keyboard.press('ArrowDown');
    await v.page.keyboard.press('ArrowDown');
    const focused = await v.page.evaluate(() => {
      const a = (globalThis as Any).document.activeElement;
      return [a.dataset.line, a.getAttribute('aria-posinset'), a.getAttribute('aria-setsize'), a.parentElement.parentElement.getAttribute('role')];
    });
    assert.deepEqual(focused, ['17', '2', '5', 'feed']);
    const mark = v.received.length;
    await v.page.keyboard.press('Enter');
    await v.waitForHost('detail', (m) => m.detail.line === 17, mark);
  });

  it('Codex: exec_command and its output with the exit code, the user and assistant messages', async () => {
    const v = await view(CODEX_FAIL, { width: 1300, height: 900 });
    await openTranscript(v);
    // The closing assistant message may sit in a later page, loaded as the transcript nears its end: scroll there
    // and wait for it (reading once raced the page under load).
    await v.page.waitForFunction(() => {
      const t = (globalThis as Any).document.querySelector('.transcript');
      if (!t) return false;
      t.scrollTop = t.scrollHeight;
      return /The command failed/.test(t.textContent ?? '');
    }, undefined, { polling: 100, timeout: 30_000 });
    const t = await v.page.evaluate(() => {
      const d = (globalThis as Any).document;
      return { command: d.querySelector('.tool-view-shell .shell-command code')?.textContent, exit: d.querySelector('.shell-exit')?.textContent, stdout: d.querySelector('.shell-stdout pre')?.textContent, text: d.querySelector('.transcript')?.textContent };
    });
    assert.equal(t.command, 'ls /nonexistent');
    assert.match(t.exit, /exit code 2/);
    assert.match(t.stdout, /No such file or directory/);
    assert.match(t.text, /The command failed/);
    await v.page.evaluate(() => ((globalThis as Any).document.querySelector('.transcript').scrollTop = 0));
    await v.page.waitForSelector('.setup-message');
    // The developer instructions are setup: collapsed to their first line until opened.
    const setup = await v.page.$eval('.setup-message', (d: Any) => ({ open: d.open, summary: d.querySelector('summary').textContent, parts: d.querySelectorAll('.part-text').length }));
    assert.deepEqual(setup, { open: false, summary: 'developer <skills_instructions>', parts: 0 });
    await v.page.click('.setup-message > summary');
    await v.page.waitForFunction(() => ((globalThis as Any).document.querySelector('.setup-message')?.querySelectorAll('.part-text').length ?? 0) > 0, undefined, { polling: 100, timeout: 10_000 });
    await v.screenshot('transcript-codex-shell-fail');
  });

  it('an Edit reads as a unified diff (jsdiff) with added and removed lines; code is highlighted', async () => {
    const v = await view(claudeEdit(dir, 'const a = 1;\nconst b = 2;\n', 'const a = 1;\nconst b = 3;\n'), { width: 1300, height: 800 });
    await openTranscript(v);
    const d = await v.page.evaluate(() => {
      const q = (s: string) => [...(globalThis as Any).document.querySelectorAll(s)].map((e: Any) => e.textContent.trimEnd());
      return { file: q('.tool-view-edit .tool-file'), add: q('.tool-view-edit .tx-diff-add'), del: q('.tool-view-edit .tx-diff-del'), hunk: q('.tool-view-edit .tx-diff-hunk') };
    });
    assert.deepEqual(d.file, ['src/app.ts']);
    assert.deepEqual(d.add, ['+const b = 3;']);
    assert.deepEqual(d.del, ['-const b = 2;']);
    assert.equal(d.hunk.length, 1);
    await v.screenshot('transcript-edit-diff');
  });

  it('murmur: messages from blobs with integrity badges, the tools blob shown once', async () => {
    const v = await view(MURMUR, { width: 1300, height: 900 });
    const blobs = new TraceBlobs(() => ({ extraRoots: [], workspaceFolders: [] }));
    (v.session as unknown as { host: SessionHost }).host.resolveBlob = (digest, algorithm) => blobs.answer(MURMUR, v.model ?? undefined, digest, algorithm);
    await openTranscript(v);
    await v.page.waitForSelector('.transcript .blob-state.blob-verified');
    const t = await v.page.evaluate(() => {
      const d = (globalThis as Any).document;
      return { tools: d.querySelectorAll('.transcript .blob-card[data-field="tools_sha"]').length, repeated: [...d.querySelectorAll('.repeated-refs summary')].map((s: Any) => s.textContent) };
    });
    assert.ok(t.tools <= 1, `the tools blob is drawn at most once: ${t.tools}`);
    await v.screenshot('transcript-murmur');
  });

  it('lumen: the run as a conversation', async () => {
    const v = await view(LUMEN, { width: 1300, height: 900 });
    await openTranscript(v);
    const n = await v.page.$$eval('.transcript-block', (b: Any[]) => b.length);
    assert.equal(n, 5, "run start, cell, tool call, error and run end");
    const err = await v.page.$eval('.transcript-block.category-error', (b: Any) => b.textContent);
    assert.match(err, /runtime error/);
    await v.screenshot('transcript-lumen');
  });

  it('hostile tool arguments, code and output stay text in the transcript', async () => {
    const payload = `<img src=x onerror="window.__pwned='edit'"><script>window.__pwned='s'</script>\u202e\u001b[31m`;
    const v = await view(claudeEdit(dir, `${payload}\n`, `<a href="javascript:window.__pwned='a'">x</a>\n`, 'x.html'), { width: 1300, height: 800 });
    await openTranscript(v);
    const r = await v.page.evaluate(() => {
      const d = (globalThis as Any).document;
      const root = d.querySelector('.transcript');
      return { pwned: (globalThis as Any).__pwned, loaders: root.querySelectorAll('img, script, a[href], iframe, svg').length, handlers: [...root.querySelectorAll('*')].filter((e: Any) => [...e.attributes].some((a: Any) => a.name.startsWith('on'))).length, text: root.textContent, markers: root.querySelectorAll('.invisible-char').length };
    });
    assert.equal(r.pwned, undefined);
    assert.equal(r.loaders, 0);
    assert.equal(r.handlers, 0);
    assert.ok(r.text.includes('<script>window.__pwned'), 'the payload is shown as text');
    assert.ok(r.markers >= 1, 'the bidi override is shown as a marker');
  });
});
