import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { diffTraces } from '../../src/core/diff/diffTraces';
import { buildTimeline, timelineRows } from '../../src/viewer/timeline/timelineData';
import { TIMELINE_FILES } from '../helpers/timelineFiles';
import { openCompare } from './compareHarness';
import { browserSuite, SCREENSHOTS, viewerSuite, ViewerPage } from './harness';
import { THEMES } from './themes';
import { WRITER_CORPUS } from '../helpers/corpus';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

interface Shown { total: number; viewStart: number; viewEnd: number; span: number; nameWidth: number; timeLeft: number; timeRight: number; drawn: number; hidden: number; width: number; items: { node: number; x: number; text: string; onScreen: boolean }[] }

async function shown(v: ViewerPage): Promise<Shown> {
  return v.page.$eval('.timeline-view', (e: Any) => ({
    total: Number(e.dataset.total), viewStart: Number(e.dataset.viewStart), viewEnd: Number(e.dataset.viewEnd), span: Number(e.dataset.span),
    nameWidth: Number(e.dataset.nameWidth), timeLeft: Number(e.dataset.timeLeft), timeRight: Number(e.dataset.timeRight), drawn: Number(e.dataset.drawn), hidden: Number(e.dataset.hidden),
    width: e.querySelector('.timeline-canvas').clientWidth,
    items: [...e.querySelectorAll('.timeline-a11y li')].map((li: Any) => ({ node: Number(li.dataset.node), x: Number(li.dataset.x), text: li.textContent, onScreen: li.dataset.onScreen === 'true' })),
  }));
}

/** Records what the canvas draws as text, with its x, from now on. */
async function recordText(v: ViewerPage): Promise<void> {
  await v.page.evaluate(() => {
    const g = globalThis as Any;
    g.__drawn = [];
    if (g.__recording) return;
    g.__recording = true;
    const proto = g.CanvasRenderingContext2D.prototype;
    const fillText = proto.fillText;
    proto.fillText = function (this: unknown, text: string, x: number, ...rest: unknown[]) {
      g.__drawn.push({ text, x });
      return fillText.call(this, text, x, ...rest);
    };
  });
}

const drawnText = (v: ViewerPage): Promise<{ text: string; x: number }[]> => v.page.evaluate(() => (globalThis as Any).__drawn);

async function openTimeline(v: ViewerPage): Promise<void> {
  const since = v.received.length;
  await v.page.click('.main-view-tab[data-view="timeline"]');
  await v.waitForHost('timeline', () => true, since);
  await v.settle();
}

/** Every row on screen has its name drawn in the name column (a prefix of its label, left of the column's edge). */
async function assertNamesDrawn(v: ViewerPage, model: Awaited<ReturnType<typeof loadTrace>>): Promise<void> {
  const s = await shown(v);
  const drawn = await drawnText(v);
  assert.ok(s.items.length > 0);
  for (const it of s.items) {
    const label = model.events.labelOf(it.node);
    const hit = drawn.find((d) => d.x < s.nameWidth && d.text.length >= 2 && label.startsWith(d.text.replace(/…$/, '')));
    assert.ok(hit, `the name of "${label.slice(0, 40)}" is drawn in the name column: ${JSON.stringify(drawn.slice(0, 30))}`);
  }
}

describe('timeline waterfall (Chromium)', function () {
  this.timeout(180_000);
  const { view } = viewerSuite();
  const CASES = [
    ['claude-subagent', TIMELINE_FILES.claude],
    ['codex', TIMELINE_FILES.codex],
    ['gemini', TIMELINE_FILES.gemini],
    ['otlp', TIMELINE_FILES.otlp],
    ['lumen', TIMELINE_FILES.lumen],
  ] as const;

  for (const [name, file] of CASES) {
    it(`${name}: rows with names in the name column and bars at their times, in light, dark and high contrast`, async () => {
      const model = await loadTrace(file, { sessionParts: true });
      const tl = buildTimeline(model);
      for (const theme of ['light', 'dark', 'hc'] as const) {
        const v = await view(file, { theme, sessionParts: true, width: 1300, height: 520 });
        await recordText(v);
        await openTimeline(v);
        const s = await shown(v);
        assert.equal(s.total, tl.nodes.length, 'one row per bar');
        for (const [k, it] of s.items.entries()) {
          assert.equal(it.node, tl.nodes[k], `row ${k} is bar ${k} in tree order`);
          const x = s.timeLeft + ((tl.start[k] - s.viewStart) / (s.viewEnd - s.viewStart)) * (s.timeRight - s.timeLeft);
          assert.ok(Math.abs(it.x - x) <= 1, `${name} row ${k}: x ${it.x} vs ${x}`);
        }
        await assertNamesDrawn(v, model);
        await v.screenshot(`timeline-${name}-${theme}`);
      }
    });
  }

  it('zooming in three times keeps the names visible and the selected bar drawn; 0 fits the run\'s real span', async () => {
    const file = TIMELINE_FILES.claude;
    const model = await loadTrace(file, { sessionParts: true });
    const tl = buildTimeline(model);
    const v = await view(file, { sessionParts: true, width: 1300, height: 520 });
    await openTimeline(v);
    const fit = await shown(v);
    assert.deepEqual([fit.viewStart, fit.viewEnd], [0, tl.span], 'Fit is the first start to the last end, nothing more');
    // Select the subagent's Bash call (a click on its row), then zoom in three times.
    const bash = tl.barOf[[...tl.nodes].find((i) => /^Bash\b/.test(model.events.labelOf(i)) && !model.events.labelOf(i).includes(' → '))!];
    const box = (await (await v.page.$('.timeline-canvas'))!.boundingBox())!;
    const since = v.received.length;
    await v.page.mouse.click(box.x + fit.nameWidth + 200, box.y + 18 + bash * 20 + 10);
    await v.waitForHost('detail', (m) => m.detail.node === tl.nodes[bash], since);
    await v.page.focus('.timeline-canvas');
    for (let k = 0; k < 3; k++) await v.page.keyboard.press('+');
    await v.settle();
    await recordText(v);
    await v.page.keyboard.press('ArrowUp');
    await v.page.keyboard.press('ArrowDown');
    await v.settle();
    const zoomed = await shown(v);
    assert.ok(Math.abs((zoomed.viewEnd - zoomed.viewStart) * 8 - tl.span) < 1e-6, 'three zoom-ins: an eighth of the run');
    assert.equal(zoomed.nameWidth, fit.nameWidth, 'the name column stays');
    await assertNamesDrawn(v, model);
    const selected = zoomed.items.find((i) => i.node === tl.nodes[bash])!;
    assert.ok(selected.onScreen, `the selected bar stays in view: ${JSON.stringify(zoomed)}`);
    assert.ok(zoomed.drawn > 0);
    await v.screenshot('timeline-zoomed');
    await v.page.keyboard.press('0');
    await v.settle();
    const again = await shown(v);
    assert.deepEqual([again.viewStart, again.viewEnd], [0, tl.span]);
  });

  it('hovering a bar shows its tooltip; moving the keyboard focus shows the focused row\'s', async () => {
    const file = TIMELINE_FILES.claude;
    const model = await loadTrace(file, { sessionParts: true });
    const tl = buildTimeline(model);
    const v = await view(file, { sessionParts: true, width: 1300, height: 520 });
    await openTimeline(v);
    const s = await shown(v);
    const bash = tl.barOf[[...tl.nodes].find((i) => /^Bash\b/.test(model.events.labelOf(i)) && !model.events.labelOf(i).includes(' → '))!];
    const box = (await (await v.page.$('.timeline-canvas'))!.boundingBox())!;
    await v.page.mouse.move(box.x + s.items[bash].x + 2, box.y + 18 + bash * 20 + 10);
    await v.page.waitForSelector('.timeline-tooltip.shown');
    const tip = await v.page.$eval('.timeline-tooltip', (e: Any) => e.textContent as string);
    assert.ok(tip.startsWith(model.events.labelOf(tl.nodes[bash])), tip);
    assert.ok(tip.includes('for 60 ms') && tip.includes('Bash · 60 ms') && tip.includes('subagent lane 1'), tip);
    await v.screenshot('timeline-tooltip');
    await v.page.mouse.move(box.x + 5, box.y - 40);
    await v.page.waitForSelector('.timeline-tooltip:not(.shown)', { state: 'attached' });
    await v.page.focus('.timeline-canvas');
    await v.page.keyboard.press('ArrowDown');
    await v.settle();
    const focused = await v.page.$eval('.timeline-tooltip', (e: Any) => ({ shown: e.classList.contains('shown'), text: e.textContent as string }));
    assert.ok(focused.shown, 'the focused row\'s tooltip shows');
    assert.ok(focused.text.startsWith(model.events.labelOf(tl.nodes[1])), focused.text);
  });

  it('← collapses a subtree and → expands it again; the summary counts what is not drawn', async () => {
    const file = TIMELINE_FILES.claude;
    const model = await loadTrace(file, { sessionParts: true });
    const tl = buildTimeline(model);
    const v = await view(file, { sessionParts: true, width: 1300, height: 520 });
    await openTimeline(v);
    const summary = await v.page.$eval('.timeline-summary', (e: Any) => e.textContent as string);
    assert.match(summary, /bookkeeping lines not drawn \(\d+ attachment/);
    assert.match(summary, /2 results drawn on their calls/);
    const agent = tl.barOf[[...tl.nodes].find((i) => /^Agent\b/.test(model.events.labelOf(i)) && !model.events.labelOf(i).includes(' → '))!];
    await v.page.focus('.timeline-canvas');
    for (let k = 0; k < agent; k++) await v.page.keyboard.press('ArrowDown');
    let since = v.received.length;
    await v.page.keyboard.press('ArrowLeft');
    await v.waitForHost('timeline', () => true, since);
    await v.settle();
    assert.equal((await shown(v)).total, tl.nodes.length - tl.size[agent]);
    assert.ok((await shown(v)).items[agent].text.includes(`collapsed (${tl.size[agent]} below)`));
    since = v.received.length;
    await v.page.keyboard.press('ArrowRight');
    await v.waitForHost('timeline', () => true, since);
    await v.settle();
    assert.equal((await shown(v)).total, tl.nodes.length);
  });

  it('the viewer\'s filter applies: hidden rows are not drawn and counted', async () => {
    const file = TIMELINE_FILES.claude;
    const model = await loadTrace(file, { sessionParts: true });
    const tl = buildTimeline(model);
    const v = await view(file, { sessionParts: true, width: 1300, height: 520 });
    await v.waitForRows();
    await openTimeline(v);
    await v.page.click('vscode-toolbar-button[label="Filter by Kind or Status"]');
    await v.page.waitForSelector('.filter-expr', { state: 'visible' });
    const since = v.received.length;
    await v.page.fill('.filter-expr', 'kind:assistant');
    await v.waitForHost('timelineReset', () => true, since);
    await v.waitForHost('timeline', () => true, since);
    await v.settle();
    const expected = timelineRows(tl, (i) => model.events.kindOf(i) === 'assistant', new Set());
    const s = await shown(v);
    assert.equal(s.total, expected.bars.length);
    assert.equal(s.hidden, expected.hidden);
    assert.ok(expected.hidden > 0);
    assert.deepEqual(s.items.map((i) => i.node), [...expected.bars].map((b) => tl.nodes[b]).slice(0, s.items.length));
    assert.equal(await v.page.$eval('.timeline-hidden', (e: Any) => e.textContent), `${expected.hidden} hidden by filter`);
    await v.screenshot('timeline-filtered');
  });
});

describe('compare view screenshots (Chromium)', function () {
  this.timeout(120_000);
  const suite = browserSuite();
  it('two Codex runs, in light, dark and high contrast', async () => {
    const a = await loadTrace(TIMELINE_FILES.codex);
    const b = await loadTrace(join(WRITER_CORPUS, 'codex-0.171.0/shell-fail/sessions/2026/12/01/rollout-2026-12-01T16-25-02-01a2326c-85f2-7120-8246-9bbbb6d42b0e.jsonl'));
    const diff = await diffTraces(a, b);
    for (const theme of ['light', 'dark', 'hc'] as const) {
      const page = await suite.browser().newPage({ viewport: { width: 1400, height: 600 } });
      const errors: string[] = [];
      await openCompare(page, suite.origin(), diff, errors, THEMES[theme]);
      await page.waitForSelector('.compare-row');
      await page.screenshot({ path: join(SCREENSHOTS, `compare-codex-${theme}.png`) });
      assert.deepEqual(errors, []);
      await page.close();
    }
  });
});
