import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { viewerSuite } from './harness';
import { corpusPath } from '../helpers/corpus';
import { tempFile } from '../helpers/tmp';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** A real Claude Code transcript: long message labels. */
const CLAUDE = resolve('test/corpus/claude-code-2.1.332/subagent/projects/-home-user-project/87aba006-238f-4834-a6fa-3396f07d36f4.jsonl');

const width = (sel: string) => (globalThis as Any).document.querySelector(sel).getBoundingClientRect().width;

describe('viewer layout: resizable detail pane and Event column (Chromium)', function () {
  this.timeout(120_000);
  const { view } = viewerSuite();

  it('the tree | detail splitter moves with the keyboard and by drag, and is kept across a reload', async () => {
    const v = await view(CLAUDE, { width: 1200, height: 700 });
    const w0 = await v.page.evaluate(width, '.tree-pane');
    assert.ok(Math.abs(w0 - 1200 * 0.55) < 8, `default 55%: ${w0}`);
    await v.page.focus('.split-handle');
    for (let k = 0; k < 4; k++) await v.page.keyboard.press('ArrowRight');
    const w1 = await v.page.evaluate(width, '.tree-pane');
    assert.ok(Math.abs(w1 - (w0 + 64)) < 3, `4 × 16 px wider: ${w0} → ${w1}`);
    assert.match(v.savedState?.splitPosition ?? '', /^\d+\.\d%$/);
    const box = (await (await v.page.$('.split-handle'))!.boundingBox())!;
    await v.page.mouse.move(box.x + 2, box.y + 200);
    await v.page.mouse.down();
    await v.page.mouse.move(box.x + 2 - 300, box.y + 200, { steps: 5 });
    await v.page.mouse.up();
    const w2 = await v.page.evaluate(width, '.tree-pane');
    assert.ok(Math.abs(w2 - (w1 - 300)) < 4, `dragged 300 px left: ${w1} → ${w2}`);
    const saved = v.savedState?.splitPosition;
    await v.show();
    await v.settle();
    assert.equal(v.savedState?.splitPosition ?? saved, saved);
    const w3 = await v.page.evaluate(width, '.tree-pane');
    assert.ok(Math.abs(w3 - w2) < 3, `kept across the reload: ${w2} → ${w3}`);
    const arrowsStillMoveRows = v.sent.filter((m) => m.type === 'select').length;
    assert.equal(arrowsStillMoveRows, 0, 'arrows on the splitter do not move the tree selection');
  });

  it('the Event column widens by drag and keyboard, labels use the room, and a double click resets it', async () => {
    const v = await view(CLAUDE, { width: 1200, height: 700 });
    // The row whose label is cut the most at the default width.
    const line = await v.page.$$eval('.row[data-node]', (rs: Any[]) => rs.map((r) => ({ l: r.dataset.line, cut: r.querySelector('.label').scrollWidth - r.querySelector('.label').clientWidth })).sort((a, b) => b.cut - a.cut)[0]);
    assert.ok(line.cut > 50, `a label is cut at the default width by ${line.cut} px`);
    const label = `.row[data-line="${line.l}"] .label`;
    const before = await v.page.evaluate(width, label);
    await v.page.focus('.column-handle');
    await v.page.keyboard.press('ArrowLeft');
    const sized = v.savedState?.eventColumnWidth;
    assert.ok(typeof sized === 'number' && sized > 100, `the width is kept in the webview state: ${sized}`);
    const box = (await (await v.page.$('.split-handle'))!.boundingBox())!;
    await v.page.mouse.move(box.x + 2, box.y + 200);
    await v.page.mouse.down();
    await v.page.mouse.move(box.x + 302, box.y + 200, { steps: 5 });
    await v.page.mouse.up();
    const col = (await (await v.page.$('.column-handle'))!.boundingBox())!;
    await v.page.mouse.move(col.x + 3, col.y + 5);
    await v.page.mouse.down();
    await v.page.mouse.move(col.x + 3 + 280, col.y + 5, { steps: 5 });
    await v.page.mouse.up();
    await v.settle();
    const after = await v.page.evaluate(width, label);
    assert.ok(after > before + 100, `the label has more room: ${before} → ${after}`);
    const cut = await v.page.$eval(label, (e: Any) => e.scrollWidth - e.clientWidth);
    assert.ok(cut <= Math.max(0, line.cut - 100), `the label is cut by ${cut} px instead of ${line.cut}: it uses the room`);
    const head = await v.page.evaluate(() => {
      const d = (globalThis as Any).document;
      return [d.querySelector('.tree-columns .col-duration').getBoundingClientRect().left, d.querySelector('.row[data-node] .col-duration').getBoundingClientRect().left];
    });
    assert.ok(Math.abs(head[0] - head[1]) < 2, `the column headers stay over their columns: ${head}`);
    await v.screenshot('layout-wide-event-column');
    await v.page.dblclick('.column-handle');
    assert.equal(v.savedState?.eventColumnWidth, null, 'reset to the space the other columns leave');
  });

  it('metric columns no event fills give their room to the Event column (lumen records no tokens)', async () => {
    const v = await view(corpusPath('lumen/.lumen/trace/ef05f773-1151-4c7a-817e-a78bf76ed21e.jsonl'), { width: 1200, height: 700 });
    const shown = await v.page.$$eval('.tree-columns .col', (cs: Any[]) => cs.filter((c) => c.getBoundingClientRect().width > 0).map((c) => c.textContent));
    assert.deepEqual(shown, ['Duration', 'Time']);
    assert.equal(await v.page.$$eval('.row[data-node] .col-tokens', (cs: Any[]) => cs.filter((c) => c.getBoundingClientRect().width > 0).length), 0);
    const head = await v.page.evaluate(() => {
      const d = (globalThis as Any).document;
      return [d.querySelector('.tree-columns .col-offset').getBoundingClientRect().left, d.querySelector('.row[data-node] .col-offset').getBoundingClientRect().left];
    });
    assert.ok(Math.abs(head[0] - head[1]) < 2, `headers stay over their columns: ${head}`);
  });

  it('a new viewer in the workspace starts from the sizes last used (the host keeps them)', async () => {
    const store = { layout: null as null | { splitPosition: string | null; eventColumnWidth: number | null } };
    const a = await view(CLAUDE, { width: 1200, height: 700, layoutStore: store });
    await a.page.focus('.split-handle');
    for (let k = 0; k < 5; k++) await a.page.keyboard.press('ArrowLeft');
    await a.page.focus('.column-handle');
    await a.page.keyboard.press('ArrowLeft');
    await a.settle();
    assert.ok(store.layout, 'the sizes went to the host');
    assert.match(store.layout.splitPosition ?? '', /^\d+\.\d%$/);
    assert.equal(typeof store.layout.eventColumnWidth, 'number');
    const b = await view(corpusPath('murmur/ses_39263059f28c105d1fb17c2390c192cf/trace.jsonl'), { width: 1200, height: 700, layoutStore: store });
    const sizes = await b.page.evaluate(() => {
      const p = (globalThis as Any).document.querySelector('.tree-pane');
      return { split: p.style.flexBasis, event: p.style.getPropertyValue('--event-width') };
    });
    assert.deepEqual(sizes, { split: store.layout.splitPosition, event: `${store.layout.eventColumnWidth}px` }, 'another trace opens with the same panes');
  });

  it('durations and offsets of hours fit their columns, beside each other', async () => {
    const day = [
      { id: 'a', type: 'run', timestamp: '2026-01-01T00:00:00Z', duration_ms: 77_160_000 },
      { id: 'b', parent_id: 'a', type: 'step', timestamp: '2026-01-01T21:26:00Z', duration_ms: 86_399_000 },
    ];
    const v = await view(tempFile('day.jsonl', day.map((e) => JSON.stringify(e)).join('\n') + '\n'), { width: 1000, height: 500 });
    const cells = await v.page.$$eval('.row[data-node] .col-duration, .row[data-node] .col-offset', (cs: Any[]) => cs.map((c) => ({ text: c.textContent, cut: c.scrollWidth - c.clientWidth })));
    assert.deepEqual(cells.map((c: Any) => c.text), ['21 h 26 min', '+0 ms', '24 h 0 min', '+21:26:00.000']);
    assert.deepEqual(cells.filter((c: Any) => c.cut > 0), [], `no text cut: ${JSON.stringify(cells)}`);
    await v.screenshot('layout-hours');
  });
});

