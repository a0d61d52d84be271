// The compare view on a large generated pair (Chromium): rows come in pages on request, F7 crosses pages, the
// timeline mode draws both runs' bars for the rows in view, and every control answers the keyboard.
import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { loadTrace } from '../../src/core/loadTrace';
import { diffTraces, TraceDiff } from '../../src/core/diff/diffTraces';
import { compareData, compareInit } from '../../src/viewer/compareSession';
import { MAX_COMPARE_PAGE } from '../../src/protocol/compare';
import { editedMurmurCopy, generateMurmurTrace } from '../bench/generateMurmur';
import { openCompare, selectedRow } from './compareHarness';
import { browserSuite, SCREENSHOTS } from './harness';
import { THEMES } from './themes';
import { claudeSession } from '../core/diff/diffPairs';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const EVENTS = 30_000;

type RowsAsk = { type: 'compareRows'; generation: number; from: number; count: number };
const asks = (sent: unknown[]): RowsAsk[] => sent.filter((m): m is RowsAsk => (m as RowsAsk).type === 'compareRows');
const waitSelected = (page: Page, row: number) => page.waitForFunction((r) => {
  const e = (globalThis as Any).document.querySelector('.compare-row.selected');
  // Selected and drawn from its page (not the placeholder of a page on its way).
  return e?.getAttribute('data-row') === String(r) && !e.classList.contains('compare-pending');
}, row);

describe('compare view on a large pair, timeline, keyboard and theme (webview, Chromium)', () => {
  const suite = browserSuite();
  let large: TraceDiff;
  before(async function () {
    this.timeout(300_000);
    const dir = mkdtempSync(join(tmpdir(), 'atv-cmp-large-'));
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    await generateMurmurTrace(a, EVENTS);
    editedMurmurCopy(a, b);
    large = await diffTraces(await loadTrace(a), await loadTrace(b));
  });

  it('asks for rows in pages as they come into view; F7 crosses pages; End reaches the last row without the rows between', async () => {
    // The view's rows: the generated runs' bookkeeping rows folded, as in the tree.
    const ops = Array.from(compareData(large, 1).rows, (k) => large.ops[k]);
    const rows = ops.length;
    assert.ok(rows >= EVENTS * 0.9, `rows ${rows}`);
    // The first message is small: counts, hunks and one page, never every row.
    const init = JSON.stringify(compareInit(compareData(large, 1), false));
    assert.ok(init.length < 100_000, `first message ${init.length} bytes`);
    const page = await suite.browser().newPage({ viewport: { width: 1400, height: 800 } });
    const errors: string[] = [];
    const { sent } = await openCompare(page, suite.origin(), large, errors, THEMES.dark);
    const starts = ops.map((o, i) => (o.op !== 'equal' && (i === 0 || ops[i - 1].op === 'equal') ? i : -1)).filter((i) => i >= 0);
    assert.equal(await selectedRow(page), starts[0]);
    await page.focus('.compare-scroll');
    // F7 until the next change is on another page: it is drawn from its page, with its own label.
    const pageOf = (r: number) => Math.floor(r / 200);
    const labelAt = (r: number) => {
      const op = ops[r];
      // The row's first label: A's, or B's on a row A has no event for.
      return op.a >= 0 ? large.a.events.labelOf(op.a) : large.b.events.labelOf(op.b);
    };
    const shownLabel = () => page.$eval('.compare-row.selected .compare-cell .label', (e) => e.textContent);
    let k = 0;
    while (k + 1 < starts.length && pageOf(starts[k + 1]) === pageOf(starts[0])) {
      await page.keyboard.press('F7');
      await waitSelected(page, starts[++k]);
    }
    assert.ok(k + 1 < starts.length, 'a change on a later page');
    await page.keyboard.press('F7');
    await waitSelected(page, starts[k + 1]);
    assert.equal(await shownLabel(), labelAt(starts[k + 1]));
    // Shift+F7 back to the first change, then once more: it wraps to the last change, on a page never asked for.
    for (let x = k + 1; x > 0; x--) {
      await page.keyboard.press('Shift+F7');
      await waitSelected(page, starts[x - 1]);
    }
    const last = starts[starts.length - 1];
    assert.ok(!asks(sent).some((m) => m.from <= last && last < m.from + m.count), 'the last change\'s page is not loaded yet');
    const before = asks(sent).length;
    await page.keyboard.press('Shift+F7');
    await waitSelected(page, last);
    const fresh = asks(sent).slice(before);
    assert.ok(fresh.some((m) => m.from <= last && last < m.from + m.count), `page of row ${last} asked for: ${JSON.stringify(fresh)}`);
    assert.equal(await shownLabel(), labelAt(last));
    // And F7 from the last change wraps to the first.
    await page.keyboard.press('F7');
    await waitSelected(page, starts[0]);
    assert.equal(await shownLabel(), labelAt(starts[0]));
    await page.keyboard.press('End');
    await waitSelected(page, rows - 1);
    await page.waitForSelector('.compare-detail:not(.compare-stale) .compare-json');
    const lastLine = large.b.events.lineOf(ops[rows - 1].b);
    assert.ok((await page.$eval('.compare-detail', (d) => d.textContent ?? '')).includes(`B · line ${lastLine}`));
    await page.screenshot({ path: join(SCREENSHOTS, 'compare-large-end.png') });
    const all = asks(sent);
    assert.ok(all.every((m) => m.count <= MAX_COMPARE_PAGE && m.generation === 1), JSON.stringify(all.slice(0, 5)));
    const asked = all.reduce((n, m) => n + m.count, 0);
    assert.ok(asked < rows / 10, `asked for ${asked} of ${rows} rows`);
    // The DOM holds the rows in view and a margin, not the list.
    assert.ok((await page.$$eval('.compare-row', (r) => r.length)) < 120);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('shows both runs on one time axis in the timeline mode, the selection shared with the trees', async () => {
    const diff = await diffTraces(await loadTrace(claudeSession('shell-ok')), await loadTrace(claudeSession('shell-fail')));
    const page = await suite.browser().newPage({ viewport: { width: 1400, height: 700 } });
    const errors: string[] = [];
    await openCompare(page, suite.origin(), diff, errors, THEMES.dark);
    const first = await selectedRow(page);
    // By keyboard: Tab to the Timeline button, Space presses it.
    await page.focus('.compare-mode[data-mode="trees"]');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => (globalThis as Any).document.activeElement?.getAttribute('data-mode')), 'timeline');
    await page.keyboard.press('Space');
    await page.waitForSelector('.compare-mode-timeline .compare-lanes');
    assert.equal(await page.$eval('.compare-mode[data-mode="timeline"]', (b) => b.getAttribute('aria-pressed')), 'true');
    assert.equal(await selectedRow(page), first);
    // Pixels of both runs: A's bars in the upper half of the lanes, B's in the lower half.
    const ink = await page.evaluate(() => {
      const c = (globalThis as Any).document.querySelector('.compare-lanes');
      const ctx = c.getContext('2d');
      const { data, width, height } = ctx.getImageData(0, 0, c.width, c.height);
      const dpr = c.width / c.clientWidth;
      let upper = 0;
      let lower = 0;
      for (let y = 0; y < height; y++) {
        const inRow = (y / dpr) % 22;
        for (let x = 0; x < width; x += 2) {
          if (data[(y * width + x) * 4 + 3] < 200) continue;
          if (inRow >= 4 && inRow < 9) upper++;
          else if (inRow >= 13 && inRow < 18) lower++;
        }
      }
      return { upper, lower };
    });
    assert.ok(ink.upper > 20 && ink.lower > 20, JSON.stringify(ink));
    // Zoom in with the keyboard on the grid; the axis narrows; 0 shows the whole runs again.
    await page.focus('.compare-scroll');
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction((r) => (globalThis as Any).document.querySelector('.compare-row.selected')?.getAttribute('data-row') === String(r), first + 1);
    await page.screenshot({ path: join(SCREENSHOTS, 'compare-timeline.png') });
    await page.keyboard.press('+');
    await page.screenshot({ path: join(SCREENSHOTS, 'compare-timeline-zoomed.png') });
    await page.keyboard.press('0');
    // Back to the trees: the row selected in the timeline is still selected.
    await page.click('.compare-mode[data-mode="trees"]');
    await page.waitForFunction(() => !(globalThis as Any).document.querySelector('.compare-app.compare-mode-timeline'));
    assert.equal(await selectedRow(page), first + 1);
    assert.equal(await page.$eval('.compare-lanes', (c) => getComputedStyle(c).display), 'none');
    assert.deepEqual(errors, []);
    assert.deepEqual(await page.evaluate(() => (globalThis as Any).__cspViolations), []);
    await page.close();
  });

  it('reaches every control with Tab and colours rows with the diff editor theme colours', async () => {
    const diff = await diffTraces(await loadTrace(claudeSession('shell-ok')), await loadTrace(claudeSession('shell-fail')));
    const vars = { 'diffEditor-insertedLineBackground': 'rgb(1, 100, 1)', 'diffEditor-removedLineBackground': 'rgb(100, 1, 1)', 'editorGutter-modifiedBackground': 'rgb(1, 1, 100)' };
    const page = await suite.browser().newPage({ viewport: { width: 1400, height: 700 } });
    const errors: string[] = [];
    await openCompare(page, suite.origin(), diff, errors, vars);
    const bg = (sel: string) => page.$eval(sel, (e) => getComputedStyle(e).backgroundColor).catch(() => null);
    const ops = Array.from(compareData(diff, 1).rows, (k) => diff.ops[k]);
    const ins = ops.findIndex((o) => o.op === 'insert');
    const del = ops.findIndex((o) => o.op === 'delete');
    const selected = await selectedRow(page);
    // Not the selected row: the selection's colours are drawn over the mark.
    const chg = ops.findIndex((o, i) => o.op === 'change' && i !== selected);
    assert.ok(ins >= 0 || del >= 0 || chg >= 0);
    if (ins >= 0) assert.equal(await bg(`.compare-row[data-row="${ins}"] .compare-cell:nth-child(3)`), 'rgb(1, 100, 1)');
    if (del >= 0) assert.equal(await bg(`.compare-row[data-row="${del}"] .compare-cell:nth-child(2)`), 'rgb(100, 1, 1)');
    if (chg >= 0) {
      assert.equal(await bg(`.compare-row[data-row="${chg}"] .compare-cell:nth-child(2)`), 'rgb(100, 1, 1)');
      assert.equal(await bg(`.compare-row[data-row="${chg}"] .compare-cell:nth-child(3)`), 'rgb(1, 100, 1)');
      assert.equal(await page.$eval(`.compare-row[data-row="${chg}"] .compare-mark`, (e) => getComputedStyle(e).color), 'rgb(1, 1, 100)');
    }
    // Tab from the top of the page visits every control of the header and the rows' grid.
    await page.evaluate(() => (globalThis as Any).document.activeElement?.blur());
    const seen: string[] = [];
    for (let t = 0; t < 14; t++) {
      await page.keyboard.press('Tab');
      seen.push(await page.evaluate(() => {
        const e = (globalThis as Any).document.activeElement;
        return e?.getAttribute('aria-label') ?? e?.getAttribute('data-mode') ?? e?.id ?? e?.tagName;
      }));
    }
    for (const want of ['Previous change', 'Next change', 'trees', 'timeline', 'compare-bookkeeping', 'compare-volatile', 'Aligned events of A and B', 'Differences of the selected row']) assert.ok(seen.some((s) => s?.startsWith(want)), `${want} in ${JSON.stringify(seen)}`);
    // Enter on the Next change button moves the selection, as F7 does (with the bookkeeping rows shown: these runs
    // differ step after step, one place, until the equal bookkeeping rows between them part it).
    await page.click('#compare-bookkeeping');
    await page.waitForFunction(() => [...(globalThis as Any).document.querySelectorAll('.compare-row')].some((r: Any) => (r.textContent as string).includes('queue-operation enqueue')));
    const at = await selectedRow(page);
    await page.focus('button[aria-label^="Next change"]');
    await page.keyboard.press('Enter');
    await page.waitForFunction((r) => (globalThis as Any).document.querySelector('.compare-row.selected')?.getAttribute('data-row') !== String(r), at);
    await page.screenshot({ path: join(SCREENSHOTS, 'compare-theme.png') });
    assert.deepEqual(errors, []);
    await page.close();
  });
});
