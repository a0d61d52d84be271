import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { buildTimeline } from '../../src/viewer/timeline/timelineData';
import { corpusPath, WRITER_CORPUS } from '../helpers/corpus';
import { viewerSuite, ViewerPage } from './harness';

const MURMUR = corpusPath('murmur', 'ses_39263059f28c105d1fb17c2390c192cf', 'trace.jsonl');
const LUMEN = corpusPath('lumen', '.lumen', 'trace', '55769ad7-ac9e-4d06-ae6b-d950d1e7c1bc.jsonl');
const OTLP = join(WRITER_CORPUS, 'otel-js-2.12.1', 'otlp-traces.jsonl');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

interface Shown { total: number; viewStart: number; viewEnd: number; width: number; nameWidth: number; timeLeft: number; timeRight: number; items: { node: number; x: number; text: string }[] }

async function shown(v: ViewerPage): Promise<Shown> {
  return v.page.$eval('.timeline-view', (e: Any) => ({
    total: Number(e.dataset.total), viewStart: Number(e.dataset.viewStart), viewEnd: Number(e.dataset.viewEnd),
    width: e.querySelector('.timeline-canvas').clientWidth, nameWidth: Number(e.dataset.nameWidth), timeLeft: Number(e.dataset.timeLeft), timeRight: Number(e.dataset.timeRight),
    items: [...e.querySelectorAll('.timeline-a11y li')].map((li: Any) => ({ node: Number(li.dataset.node), x: Number(li.dataset.x), text: li.textContent })),
  }));
}

async function openTimeline(v: ViewerPage): Promise<void> {
  const since = v.received.length;
  await v.page.click('.main-view-tab[data-view="timeline"]');
  await v.waitForHost('timeline', () => true, since);
  await v.settle();
}

describe('timeline tab (Chromium)', function () {
  this.timeout(120_000);
  const { view } = viewerSuite();

  for (const [name, file] of [['murmur', MURMUR], ['otlp', OTLP], ['lumen', LUMEN]] as const) {
    it(`${name}: one row per bar, placed at its start right of the name column`, async () => {
      const model = await loadTrace(file);
      const tl = buildTimeline(model);
      const v = await view(file);
      await openTimeline(v);
      const s = await shown(v);
      assert.equal(s.total, tl.nodes.length, 'bars counted');
      assert.ok(s.items.length > 0 && s.items.length <= s.total);
      assert.ok(s.nameWidth >= 80, 'a name column');
      for (const [k, it] of s.items.entries()) {
        assert.equal(it.node, tl.nodes[k], `row ${k} is bar ${k} in tree order`);
        const start = tl.start[k];
        const x = s.timeLeft + ((start - s.viewStart) / (s.viewEnd - s.viewStart)) * (s.timeRight - s.timeLeft);
        assert.ok(Math.abs(it.x - x) <= 1, `${name} row ${k}: x ${it.x} vs the event's time at ${x}`);
        assert.ok(it.text.startsWith(model.events.labelOf(it.node)), 'the hidden list reads the label as text');
      }
      await v.screenshot(`timeline-${name}`);
      if (name === 'otlp') {
        // The minimap under the legend: its runs' own spans are active all along, so they are its floor; a band of
        // them filled two thirds of the strip and hid where the calls are.
        const filled = await v.page.$eval('.timeline-minimap', (c: Any) => {
          const ctx = c.getContext('2d');
          const { data } = ctx.getImageData(0, 0, c.width, c.height);
          let n = 0;
          for (let k = 3; k < data.length; k += 4) if (data[k] > 0) n++;
          return n / (c.width * c.height);
        });
        assert.ok(filled > 0.02 && filled < 0.6, `the minimap is ${(filled * 100).toFixed(0)}% filled`);
      }
    });
  }

  it('zooms with +, − and Fit; a run that does one thing at a time marks no critical path', async () => {
    const model = await loadTrace(MURMUR);
    const tl = buildTimeline(model);
    const v = await view(MURMUR);
    await openTimeline(v);
    const fit = await shown(v);
    await v.page.focus('.timeline-canvas');
    await v.page.keyboard.press('+');
    await v.settle();
    const zoomed = await shown(v);
    assert.ok(Math.abs((zoomed.viewEnd - zoomed.viewStart) * 2 - (fit.viewEnd - fit.viewStart)) < 1e-6, 'zoom in halves the visible span');
    await v.page.click('.timeline-button[title="Zoom out"]');
    await v.page.click('.timeline-button[title="Zoom out"]');
    await v.settle();
    const out = await shown(v);
    assert.ok(Math.abs((out.viewEnd - out.viewStart) - 2 * (fit.viewEnd - fit.viewStart)) < 1e-6, 'two zoom-outs double the fitted span');
    await v.page.click('.timeline-button[title="Fit the whole run"]');
    await v.settle();
    assert.deepEqual([(await shown(v)).viewStart, (await shown(v)).viewEnd], [fit.viewStart, fit.viewEnd]);
    const critical = (await shown(v)).items.filter((i) => i.text.includes('critical path')).map((i) => i.node);
    assert.equal(tl.critical.indexOf(1), -1);
    assert.deepEqual(critical, []);
  });

  it('a click or Enter on a bar selects its event; a selection in the tree highlights its bar', async () => {
    const model = await loadTrace(MURMUR);
    const tl = buildTimeline(model);
    const v = await view(MURMUR);
    await openTimeline(v);
    const box = (await v.page.$('.timeline-canvas'))!;
    const r = (await box.boundingBox())!;
    let since = v.received.length;
    await v.page.mouse.click(r.x + (await shown(v)).nameWidth + 40, r.y + 18 + 2 * 20 + 10);
    const d = await v.waitForHost('detail', (m) => m.detail.node === tl.nodes[2], since);
    assert.equal(d.detail.node, tl.nodes[2], 'the third bar\'s event is selected');
    await v.settle();
    assert.ok((await shown(v)).items[2].text.endsWith('selected'));
    since = v.received.length;
    await v.page.keyboard.press('ArrowDown');
    await v.page.keyboard.press('Enter');
    await v.waitForHost('detail', (m) => m.detail.node === tl.nodes[3], since);
    // Now from the tree: select another timed event there, then look at the timeline.
    await v.page.click('.main-view-tab[data-view="tree"]');
    const target = tl.nodes[1];
    since = v.received.length;
    await v.page.click(`.row[data-node="${target}"] .label`);
    await v.waitForHost('detail', (m) => m.detail.node === target, since);
    await v.page.click('.main-view-tab[data-view="timeline"]');
    await v.settle();
    const items = (await shown(v)).items;
    assert.deepEqual(items.filter((i) => i.text.endsWith('selected')).map((i) => i.node), [target]);
    await v.screenshot('timeline-selected');
  });

  it('hostile names stay text in the timeline\'s list and the statistics tables; nothing runs', async () => {
    const hostile = [`<img src=x onerror="window.__pwned='img'">`, `<script>window.__pwned='script'</script>`, `\u202eexe.pdf`];
    const file = join(mkdtempSync(join(tmpdir(), 'timeline-')), 'hostile.jsonl');
    writeFileSync(file, hostile.map((name, k) => JSON.stringify({ type: 'llm_call', model: name, name, timestamp: 1_700_000_000_000 + k * 100, duration_ms: 50, input_tokens: 10, output_tokens: 5 })).join('\n') + '\n');
    const model = await loadTrace(file);
    const v = await view(file, { format: 'generic' });
    // Record what the canvas draws: its text is pixels, so the bidi override must be replaced before it is drawn.
    await v.page.evaluate(() => {
      const proto = (globalThis as Any).CanvasRenderingContext2D.prototype;
      const fillText = proto.fillText;
      (globalThis as Any).__drawn = [];
      proto.fillText = function (this: unknown, text: string, ...rest: unknown[]) {
        (globalThis as Any).__drawn.push(text);
        return fillText.call(this, text, ...rest);
      };
    });
    await openTimeline(v);
    const items = (await shown(v)).items;
    assert.equal(items.length, 3);
    // The hidden list shows each label as text, a bidi override as the marker the other views use.
    const marked = (label: string) => label.replace(/\u202e/g, 'U+202E');
    for (const [k, it] of items.entries()) assert.ok(it.text.startsWith(marked(model.events.labelOf(tl(model)[k]))), `label ${k} as text: ${it.text}`);
    // Twice: in the label and in the bar's facts, which name the model (the same hostile text here).
    assert.deepEqual(await v.page.$$eval('.timeline-a11y .invisible-char', (es: Any[]) => es.map((e) => e.textContent)), ['U+202E', 'U+202E']);
    const drawn: string[] = await v.page.evaluate(() => (globalThis as Any).__drawn);
    assert.ok(drawn.some((t) => t.includes('[U+202E]exe.pdf')), `the canvas draws the override as a marker: ${JSON.stringify(drawn.filter((t) => /exe/.test(t)))}`);
    assert.ok(!drawn.some((t) => /[\u202a-\u202e\u2066-\u2069]/.test(t)), 'no bidi control reaches the canvas');
    await v.screenshot('timeline-bidi');
    assert.equal(await v.page.$$eval('.timeline-view img, .timeline-view script', (e: Any[]) => e.length), 0);
    const since = v.received.length;
    await v.page.click('.main-view-tab[data-view="statistics"]');
    await v.waitForHost('statistics', () => true, since);
    await v.settle();
    const models = await v.page.$$eval('.statistics-section[data-section="Models"] tbody tr td:first-child', (tds: Any[]) => tds.map((td) => td.textContent));
    assert.equal(models.length, 3, models.join(' | '));
    for (const h of hostile.slice(0, 2)) assert.ok(models.includes(h), `${h} shown as text`);
    assert.equal(await v.page.$$eval('.statistics-view img, .statistics-view script', (e: Any[]) => e.length), 0);
    assert.equal(await v.page.evaluate(() => (globalThis as Any).__pwned), undefined);    const hc = await view(file, { format: 'generic', theme: 'hc' });
    await openTimeline(hc);
    await hc.screenshot('timeline-bidi-hc');
  });
});

function tl(model: Awaited<ReturnType<typeof loadTrace>>): number[] {
  return [...buildTimeline(model).nodes];
}
