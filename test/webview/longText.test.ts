// Issue 41 b: a detail pane holding one long run of a single character (base64 of zeros, 'AAAA…', 2 MB) took seconds
// to lay out (15 s measured here under load) and the page did not answer meanwhile. Long texts are now laid out a
// chunk at a time (dom.ts chunkedText, TEXT_CHUNK), with "Show more" and "Copy whole value".
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TraceBlobs } from '../../src/viewer/blobResolver';
import type { SessionHost } from '../../src/viewer/sessionHost';
import { tempDir } from '../helpers/tmp';
import { viewerSuite, ViewerPage } from './harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const BIG = 'A'.repeat(2 * 1024 * 1024);

/** A generic trace whose second line holds 2 MB of 'A' twice: as message content and as a data field. */
function longTrace(): string {
  const file = join(tempDir(), 'long-run.jsonl');
  writeFileSync(file, [
    JSON.stringify({ type: 'session_start', id: 'root' }),
    JSON.stringify({ type: 'llm_call', id: 'e1', parent_id: 'root', content: BIG, data: BIG }),
    JSON.stringify({ type: 'tool_call', id: 'e2', parent_id: 'root', name: 'after' }),
  ].join('\n') + '\n');
  return file;
}

const lastCopy = (v: ViewerPage): string | undefined => v.hostCalls.filter((c) => c.startsWith('copy:')).pop()?.slice('copy:'.length);

/** The text of the next copy the page asks the host for (the message crosses to the host asynchronously). */
async function nextCopy(v: ViewerPage, act: () => Promise<void>): Promise<string | undefined> {
  const before = v.hostCalls.length;
  await act();
  for (let i = 0; i < 500 && !v.hostCalls.slice(before).some((c) => c.startsWith('copy:')); i++) await new Promise((r) => setTimeout(r, 20));
  return lastCopy(v);
}

/** A generic trace whose tool result's output is a blob of 100,000 'A' (not JSON), in `blobs/` beside it. */
function longBlobTrace(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'blobs'));
  const blob = 'A'.repeat(100_000);
  const digest = createHash('sha256').update(blob).digest('hex');
  writeFileSync(join(dir, 'blobs', digest), blob);
  const lines = [
    { type: 'session_start', id: 's0' },
    { type: 'tool_result', id: 't1', parent_id: 's0', output_sha256: digest },
  ];
  const path = join(dir, 'trace.jsonl');
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return path;
}

describe('long unbroken text in the detail pane (Chromium)', function () {
  this.timeout(180_000);
  const { view } = viewerSuite();

  for (const theme of ['dark', 'hc'] as const) {
    it(`${theme}: 2 MB of 'A' is laid out a chunk at a time; the pane answers keys, and the whole value can be copied`, async () => {
      const v = await view(longTrace(), { format: 'generic', theme });
      await v.page.click('.row[data-line="2"] .label');
      await v.waitForHost('detail', (m) => m.detail.line === 2);
      await v.settle();
      await v.page.waitForSelector('.detail-title');
      // What is laid out is bounded: the Content tab's text, the JSON tree's strings and the Raw line are each cut.
      const paneText = await v.page.$eval('.detail-pane', (e: Any) => e.textContent.length as number);
      assert.ok(paneText < 100_000, `the pane holds ${paneText} characters`);
      const note = await v.page.$eval('.content-tab .chunked-note', (e: Any) => e.textContent);
      assert.equal(note, 'Showing 16,384 of 100,000 characters.');
      assert.ok(await v.page.$('.content-tab .chunked-text.long-run'), 'the unbroken run breaks anywhere (word-break: break-all)');
      await v.screenshot(`long-run-content-${theme}`);
      if (theme === 'hc') return;

      // The pane answers: the keyboard moves the selection to the next event and its detail shows.
      await v.page.focus('.row[data-line="2"]');
      let since = v.received.length;
      await v.page.keyboard.press('ArrowDown');
      await v.waitForHost('detail', (m) => m.detail.line === 3, since);
      await v.page.waitForFunction(() => (globalThis as Any).document.querySelector('.detail-title')?.textContent.includes('after'));
      since = v.received.length;
      await v.page.keyboard.press('ArrowUp');
      await v.waitForHost('detail', (m) => m.detail.line === 2, since);
      await v.settle();

      // Content: "Show more" until all of the part is shown (each click a chunk more, markdown of what is shown).
      for (let i = 0; i < 10 && (await v.page.isVisible('.content-tab .chunked-more')); i++) await v.page.click('.content-tab .chunked-more');
      assert.equal(await v.page.$eval('.content-tab .chunked-body', (e: Any) => e.textContent.length), 100_000);
      assert.equal(await v.page.$$eval('.content-tab .chunked-body > .markdown-part', (es: Any[]) => es.length), 7, 'one block per chunk');
      assert.equal(await v.page.$eval('.content-tab .chunked-note', (e: Any) => e.textContent), 'Showing 100,000 of 100,000 characters.');

      // Raw: the first chunk, one more with the keyboard, then the whole line copied.
      await v.page.click('vscode-tab-header[data-tab="raw"]');
      const rawLen = () => v.page.$eval('.raw-tab .chunked-body', (e: Any) => e.textContent.length as number);
      assert.equal(await rawLen(), 16_384);
      await v.page.focus('.raw-tab .chunked-more');
      await v.page.keyboard.press('Enter');
      await v.page.waitForFunction(() => (globalThis as Any).document.querySelector('.raw-tab .chunked-body').textContent.length === 32_768);
      assert.equal(await v.page.$eval('.raw-tab .chunked-note', (e: Any) => e.textContent), `Showing 32,768 of ${(1 << 20).toLocaleString('en-US')} characters.`);
      const raw = await nextCopy(v, () => v.page.click('.raw-tab .chunked-copy'));
      assert.equal(raw?.length, 1 << 20, 'Copy whole value copies the line as read (its first MiB, as the note above says)');

      // JSON: the string's preview, a chunk more per "more", and Copy Value gives all 2 MB.
      await v.page.click('vscode-tab-header[data-tab="json"]');
      const dataNode = '.json-tab .json-tree > .json-node:has(> .json-line > .json-key:text-is("data"))';
      const strLen = () => v.page.$eval(`${dataNode} .json-string`, (e: Any) => e.firstChild.textContent.length as number);
      assert.equal(await strLen(), 2002);
      await v.page.click(`${dataNode} .show-more`);
      assert.equal(await strLen(), 2000 + 16_384 + 2);
      await v.page.hover(`${dataNode} > .json-line`);
      assert.equal(await nextCopy(v, () => v.page.click(`${dataNode} > .json-line .json-actions button:first-child`)), BIG);
      await v.screenshot('long-run-json');
    });
  }

  it("a blob's long text is laid out a chunk at a time too, and copied whole", async () => {
    const trace = longBlobTrace();
    const v = await view(trace, { format: 'generic' });
    const blobs = new TraceBlobs(() => ({ extraRoots: [], workspaceFolders: [] }));
    const host = (v.session as unknown as { host: SessionHost }).host;
    host.resolveBlob = (digest, algorithm) => blobs.answer(trace, v.model ?? undefined, digest, algorithm);
    host.blobStore = () => blobs.store(trace, 'generic');
    await v.page.click('.row[data-line="2"] .label');
    await v.waitForHost('detail', (m) => m.detail.line === 2);
    await v.page.waitForSelector('.content-tab .blob-section .chunked-note');
    assert.equal(await v.page.$eval('.content-tab .blob-section .chunked-note', (e: Any) => e.textContent), 'Showing 16,384 of 100,000 characters.');
    assert.equal(await v.page.$eval('.content-tab .blob-section .chunked-body', (e: Any) => e.textContent.length), 16_384);
    assert.equal(await nextCopy(v, () => v.page.click('.content-tab .blob-section .chunked-copy')), 'A'.repeat(100_000));
  });
});
