import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TraceBlobs } from '../../src/viewer/blobResolver';
import type { SessionHost } from '../../src/viewer/sessionHost';
import { SCREENSHOTS, viewerSuite, ViewerPage } from './harness';
import { corpusPath } from '../helpers/corpus';

const SESSION = corpusPath('murmur/ses_39263059f28c105d1fb17c2390c192cf');
const SAMPLE_SESSION = resolve('samples/murmur/ses_583584f8e94410c93669237ac44d5d21');
const USER_MSG = 'a541255ba83f1a60aca6694511e5a9d9711c28557163223a615ebe4ca54863ed';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** Plugs the real blob resolver into the page's session, as the extension does with setBlobResolver. */
function withBlobs(v: ViewerPage, trace: string): void {
  const blobs = new TraceBlobs(() => ({ extraRoots: [], workspaceFolders: [] }));
  const host = (v.session as unknown as { host: SessionHost }).host;
  host.resolveBlob = (digest, algorithm) => blobs.answer(trace, v.model ?? undefined, digest, algorithm);
}

/** Selects the event on `line` and waits until every blob card of the Content tab has its answer. */
async function showLine(v: ViewerPage, line: number): Promise<void> {
  const since = v.received.length;
  v.session.revealLine(line);
  await v.waitForHost('detail', (m) => m.detail.line === line, since);
  await v.settle();
  await v.page.waitForFunction(() => {
    const d = (globalThis as Any).document;
    return d.querySelectorAll('.blob-card').length > 0 && d.querySelectorAll('.blob-card .blob-loading').length === 0 && [...d.querySelectorAll('.blob-card')].every((c: Any) => c.querySelector('.blob-state'));
  });
  await v.settle();
}

/** Field, badge and text of each blob card, top to bottom. */
async function cards(v: ViewerPage): Promise<{ field: string; state: string; role: string; text: string }[]> {
  return v.page.$$eval('.blob-card', (cs: Any[]) =>
    cs.map((c) => ({ field: c.dataset.field, state: c.querySelector('.blob-state').className.replace('blob-state blob-', ''), role: c.querySelector('.message-role').textContent, text: c.querySelector('.blob-body').textContent })),
  );
}

describe('trace viewer webview: content blobs (Chromium)', function () {
  this.timeout(120_000);
  const { view } = viewerSuite();
  const temps: string[] = [];
  after(() => {
    for (const t of temps) rmSync(t, { recursive: true, force: true });
  });

  it('shows a murmur inference as its conversation from the blobs, each verified', async () => {
    const trace = join(SESSION, 'trace.jsonl');
    const v = await view(trace);
    withBlobs(v, trace);
    await showLine(v, 5);
    const got = await cards(v);
    assert.deepEqual(got.map((c) => c.field), ['system_sha', 'tools_sha', 'message_shas[0]', 'message_shas[1]', 'message_shas[2]', 'response_sha']);
    assert.deepEqual(got.map((c) => c.state), ['verified', 'verified', 'verified', 'verified', 'verified', 'verified']);
    assert.deepEqual(got.map((c) => c.role), ['System prompt', 'Tools', 'Message 1 · user', 'Message 2 · assistant', 'Message 3 · user', 'Response']);
    assert.match(got[0].text, /Be terse\./);
    assert.match(got[2].text, /list the files/);
    assert.ok(await v.page.isVisible('.blob-card[data-field="message_shas[1]"] .part-tool-call .tool-name'), 'the assistant message shows its tool call');
    assert.match(got[3].text, /bash/);
    assert.match(got[4].text, /README\.md/);
    assert.match(got[5].text, /stop_reason/);
    await v.screenshot('blob-conversation-murmur');
    await v.page.locator('.blob-conversation').screenshot({ path: join(SCREENSHOTS, 'blob-conversation-murmur-cards.png') });
    await v.page.click('.blob-card[data-field="message_shas[0]"] .blob-open');
    await v.settle();
    assert.ok(v.hostCalls.includes(`openBlob:${USER_MSG}`), 'Open Blob asks the host to open it');
  });

  it('shows a tampered blob as a mismatch with the expected and actual digests', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atv-blobview-'));
    temps.push(dir);
    cpSync(SESSION, dir, { recursive: true });
    for (const f of readdirSync(join(dir, 'blobs'))) chmodSync(join(dir, 'blobs', f), 0o644);
    const blob = join(dir, 'blobs', USER_MSG);
    const tampered = readFileSync(blob, 'utf8').replace('list the files', 'list the FILES');
    writeFileSync(blob, tampered);
    const actual = createHash('sha256').update(tampered).digest('hex');
    const trace = join(dir, 'trace.jsonl');
    const v = await view(trace);
    withBlobs(v, trace);
    await showLine(v, 3);
    const got = await cards(v);
    assert.deepEqual(got.map((c) => `${c.field}:${c.state}`), ['system_sha:verified', 'tools_sha:verified', 'message_shas[0]:mismatch', 'response_sha:verified']);
    const digests = await v.page.$eval('.blob-card[data-field="message_shas[0]"] .blob-digests', (e: Any) => e.textContent);
    assert.ok(digests.includes(`Expectedsha256:${USER_MSG}`), digests);
    assert.ok(digests.includes(`Actualsha256:${actual}`), digests);
    assert.match(got[2].text, /list the FILES/, 'the tampered content is still shown, marked');
    await v.screenshot('blob-conversation-tampered');
    await v.page.locator('.blob-conversation').screenshot({ path: join(SCREENSHOTS, 'blob-conversation-tampered-cards.png') });
  });

  it('renders a real session’s blobs (markdown, tool calls, hostile HTML) as text', async () => {
    const trace = join(SAMPLE_SESSION, 'trace.jsonl');
    const v = await view(trace);
    withBlobs(v, trace);
    const line = readFileSync(trace, 'utf8').split('\n').findIndex((l) => l.includes('"inference"') && l.includes('message_shas')) + 1;
    assert.ok(line > 0);
    await showLine(v, line);
    const got = await cards(v);
    assert.ok(got.length >= 4 && got.every((c) => c.state === 'verified'), JSON.stringify(got.map((c) => c.state)));
    assert.equal(await v.page.evaluate(() => (globalThis as Any).__pwned), undefined);
    assert.equal(await v.page.$$eval('.blob-body script, .blob-body img, .blob-body iframe', (x: Any[]) => x.length), 0, 'no markup from blob content');
    await v.screenshot('blob-conversation-sample');
    await v.page.locator('.blob-conversation').screenshot({ path: join(SCREENSHOTS, 'blob-conversation-sample-cards.png') });
    for (const theme of ['light', 'hc'] as const) {
      const w = await view(trace, { theme });
      withBlobs(w, trace);
      await showLine(w, line);
      await w.screenshot(`blob-conversation-sample-${theme}`);
    }
  });
});
