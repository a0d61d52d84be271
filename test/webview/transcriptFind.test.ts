import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { viewerSuite, type ViewerPage } from './harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const CLAUDE_FAIL = resolve('test/corpus/claude-code-2.1.332/shell-fail/projects/-home-user-project/3dc26acc-d87d-484b-8039-4fff8b8812ed.jsonl');

async function openTranscript(v: ViewerPage): Promise<void> {
  await v.page.click('#main-tab-transcript');
  await v.page.waitForSelector('.transcript-block');
  await v.settle();
}

const pageRequests = (v: ViewerPage) => v.sent.filter((m) => m.type === 'requestTranscript').length;

/**
 * Watches the transcript's page requests for `ms`: fails as soon as they pass `bound`, and returns the count.
 * A loop (an answer asking for the next page, endlessly) passes any bound within a few hundred milliseconds.
 */
async function requestsStayWithin(v: ViewerPage, bound: number, ms = 1500): Promise<number> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    await v.settle();
    assert.ok(pageRequests(v) <= bound, `transcript page requests: ${pageRequests(v)} > ${bound}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return pageRequests(v);
}

describe('transcript with find (Chromium, issue 15)', function () {
  this.timeout(180_000);
  const { view } = viewerSuite();

  it('Find marks its matches in the transcript as text, the current one in view; page requests stay bounded; closing Find clears them', async () => {
    const v = await view(CLAUDE_FAIL, { width: 1300, height: 800 });
    await openTranscript(v);
    const before = pageRequests(v);
    await v.page.keyboard.press('Control+f');
    await v.page.waitForSelector('.find-bar:not([hidden])');
    await v.page.keyboard.type('NONEXISTENT');
    await v.waitForHost('findResults', (m) => m.query === 'NONEXISTENT' && !m.searching);
    const marks = () => v.page.$$eval('.transcript mark.transcript-match', (ms: Any[]) => ms.map((m) => m.textContent));
    await v.page.waitForSelector('.transcript mark.transcript-match');
    const found = await marks();
    assert.ok(found.length >= 3 && found.every((t: string) => t === 'nonexistent'), `marks (case ignored): ${found}`);
    // Three steps through the matches: each may load at most one page (its event's), then nothing more is asked.
    for (let i = 0; i < 3; i++) {
      const mark = v.received.length;
      await v.page.keyboard.press('Enter');
      await v.waitForHost('detail', () => true, mark);
    }
    await v.page.waitForSelector('.transcript mark.transcript-match.current');
    const current = await v.page.$eval('.transcript mark.transcript-match.current', (m: Any) => {
      const r = m.getBoundingClientRect();
      const t = m.closest('.transcript').getBoundingClientRect();
      return { inView: r.top >= t.top && r.bottom <= t.bottom, block: Number(m.closest('.transcript-block').dataset.node) };
    });
    assert.ok(current.inView, 'the current match is scrolled into view');
    const total = await requestsStayWithin(v, before + 3);
    assert.ok(total >= before, 'counted');
    await v.screenshot('transcript-find-marks');
    await v.page.keyboard.press('Escape');
    await v.page.waitForSelector('.find-bar', { state: 'hidden' });
    assert.deepEqual(await marks(), [], 'closing Find clears the marks');
  });

  it('an event with no block selected (a tree row of "other" kind): the transcript shows the block before it, asks once, and the loading line goes', async () => {
    const v = await view(CLAUDE_FAIL, { width: 1300, height: 800 });
    await openTranscript(v);
    await v.page.click('#main-tab-tree');
    const mark = v.received.length;
    // Line 5 is an attachment record: not a conversation event, so it has no block.
    await v.page.click('.row[data-line="5"]');
    await v.waitForHost('detail', (m) => m.detail.line === 5, mark);
    const before = pageRequests(v);
    await v.page.click('#main-tab-transcript');
    await requestsStayWithin(v, before + 1);
    await v.page.waitForFunction(() => (globalThis as Any).document.querySelector('.transcript-status')?.hidden === true, undefined, { polling: 100, timeout: 10_000 });
    assert.ok((await v.page.$$('.transcript-block')).length > 0, 'blocks shown');
  });
});
