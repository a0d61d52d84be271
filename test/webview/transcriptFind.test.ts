import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { buildTranscriptIndex } from '../../src/viewer/transcript/transcriptIndex';
import { viewerSuite, type ViewerPage } from './harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const MURMUR = resolve('samples/murmur/ses_583584f8e94410c93669237ac44d5d21/trace.jsonl');
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

describe('transcript with find and filters (Chromium, issue 15)', function () {
  this.timeout(180_000);
  const { view } = viewerSuite();

  it('Find marks its matches in the transcript as text, the current one in view; page requests stay bounded; closing Find clears them', async () => {
    const v = await view(CLAUDE_FAIL, { width: 1300, height: 800 });
    await openTranscript(v);
    const before = pageRequests(v);
    await v.page.keyboard.press('Control+f');
    await v.findOpen();
    await v.page.keyboard.type('NONEXISTENT');
    await v.waitForHost('findResults', (m) => m.query === 'NONEXISTENT' && !m.searching);
    const marks = () => v.page.$$eval('.transcript mark.transcript-match', (ms: Any[]) => ms.map((m) => m.textContent));
    await v.page.waitForSelector('.transcript mark.transcript-match');
    const found = await marks();
    assert.ok(found.length >= 3 && found.every((t: string) => t === 'nonexistent'), `marks (case ignored): ${found}`);
    // Step through the matches until one sits in a transcript block: some are in bookkeeping lines the
    // transcript has no block for (a queue-operation echoing the prompt, progress lines), and which match is
    // current first depends on the selection when Find opened. Each step may load at most one page (its
    // event's), then nothing more is asked.
    const hasCurrent = () => v.page.$('.transcript mark.transcript-match.current').then((h) => h !== null);
    let steps = 0;
    while (steps < found.length && !(steps >= 1 && (await hasCurrent()))) {
      const mark = v.received.length;
      await v.page.keyboard.press('Enter');
      await v.waitForHost('detail', () => true, mark);
      await v.settle();
      steps++;
    }
    await v.page.waitForSelector('.transcript mark.transcript-match.current');
    const current = await v.page.$eval('.transcript mark.transcript-match.current', (m: Any) => {
      const r = m.getBoundingClientRect();
      const t = m.closest('.transcript').getBoundingClientRect();
      return { inView: r.top >= t.top && r.bottom <= t.bottom, block: Number(m.closest('.transcript-block').dataset.node) };
    });
    assert.ok(current.inView, 'the current match is scrolled into view');
    const total = await requestsStayWithin(v, before + steps);
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
    // Line 5 is an attachment record: not a conversation event, so it has no block; the tree folds such
    // bookkeeping lines until they are shown.
    await v.page.click('.bookkeeping-show');
    await v.page.waitForSelector('.row[data-line="5"]:not([hidden])');
    const mark = v.received.length;
    await v.page.click('.row[data-line="5"]');
    await v.waitForHost('detail', (m) => m.detail.line === 5, mark);
    const before = pageRequests(v);
    await v.page.click('#main-tab-transcript');
    await requestsStayWithin(v, before + 1);
    await v.page.waitForFunction(() => (globalThis as Any).document.querySelector('.transcript-status')?.hidden === true, undefined, { polling: 100, timeout: 10_000 });
    assert.ok((await v.page.$$('.transcript-block')).length > 0, 'blocks shown');
  });

  it('a filter expression narrows the transcript as it narrows the tree: the blocks are the events it keeps', async () => {
    const model = await loadTrace(MURMUR);
    const blocks = new Set(buildTranscriptIndex(model).nodes);
    const raw = readFileSync(MURMUR, 'utf8').split('\n');
    // What each expression keeps, read here from the events' kinds and the file's own lines.
    const keptLines = (pred: (kind: string, text: string) => boolean) => {
      const lines: number[] = [];
      for (let i = 0; i < model.events.size; i++) if (blocks.has(i) && pred(model.events.get(i).kind, raw[model.events.lineOf(i) - 1])) lines.push(model.events.lineOf(i));
      return lines.sort((a, b) => a - b);
    };
    const shell = keptLines((kind) => kind === 'shell');
    const greeting = keptLines((kind, text) => kind !== 'inference' && text.includes('src/greeting.ts'));
    assert.ok(shell.length === 2 && greeting.length >= 1, `expected: ${shell} / ${greeting}`);
    const v = await view(MURMUR, { compactChains: false, width: 1300, height: 800 });
    await openTranscript(v);
    const all = await transcriptTotal(v);
    await v.page.click('vscode-toolbar-button[label="Filter by Kind or Status"]');
    await v.page.fill('.filter-expr', 'kind:shell');
    await v.waitForHost('rowsState', (m) => m.totalRows === 6);
    assert.deepEqual(await shownLines(v, shell.length), shell);
    await v.screenshot('transcript-filtered');
    // text: is looked up in the background: the transcript follows when the lookup is done.
    await v.page.fill('.filter-expr', 'text:"src/greeting.ts" -kind:inference');
    assert.deepEqual(await shownLines(v, greeting.length, greeting), greeting);
    await v.page.fill('.filter-expr', 'kind:no_such_kind');
    await v.page.waitForFunction(() => /No conversation event matches the filter/.test((globalThis as Any).document.querySelector('.transcript-status')?.textContent ?? ''), undefined, { polling: 100, timeout: 20_000 });
    await v.page.fill('.filter-expr', '');
    await v.page.waitForFunction((n) => (globalThis as Any).document.querySelector('.transcript-block')?.getAttribute('aria-setsize') === String(n), all, { polling: 100, timeout: 20_000 });
  });
});

/** The transcript's block count (aria-setsize of its blocks). */
async function transcriptTotal(v: ViewerPage): Promise<number> {
  return Number(await v.page.$eval('.transcript-block', (b: Any) => b.getAttribute('aria-setsize')));
}

/** Lines of the transcript's blocks once it shows `n` (and, when given, exactly `want`). */
async function shownLines(v: ViewerPage, n: number, want?: number[]): Promise<number[]> {
  const lines = () => v.page.$$eval('.transcript-block', (bs: Any[]) => bs.map((b) => Number(b.dataset.line)));
  await v.page.waitForFunction(([count, w]) => {
    const bs = [...(globalThis as Any).document.querySelectorAll('.transcript-block')];
    return bs.length === count && bs[0].getAttribute('aria-setsize') === String(count) && (!w || bs.every((b: Any, i: number) => Number(b.dataset.line) === w[i]));
  }, [n, want ?? null] as const, { polling: 100, timeout: 20_000 }).catch(async (e) => {
    throw new Error(`${e.message}: shown ${await lines()}`);
  });
  return lines();
}
