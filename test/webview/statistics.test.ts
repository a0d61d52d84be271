import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { runStatistics } from '../../src/core/usage/runStatistics';
import { usageReport } from '../../src/core/usage/usageReport';
import { WRITER_CORPUS } from '../helpers/corpus';
import { viewerSuite } from './harness';
import { THEMES } from './themes';

/** `#rrggbb` as the browser's computed `rgb(r, g, b)`. */
const rgb = (hex: string): string => `rgb(${[1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16)).join(', ')})`;

const OTLP = join(WRITER_CORPUS, 'otel-js-2.12.1', 'otlp-traces.jsonl');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

describe('statistics tab (Chromium)', function () {
  this.timeout(120_000);
  const { view } = viewerSuite();

  it('otlp: models, tools, slowest calls, latency, errors and the histogram; a row jumps to its event', async () => {
    const model = await loadTrace(OTLP);
    const stats = runStatistics(model);
    const report = usageReport(model);
    assert.ok(stats.slowestToolCalls.length >= 2 && report.byModel.length >= 1, 'the fixture has tool and model calls');
    const v = await view(OTLP);
    let since = v.received.length;
    await v.page.click('.main-view-tab[data-view="statistics"]');
    await v.waitForHost('statistics', () => true, since);
    await v.settle();
    const table = (section: string): Promise<string[][]> => v.page.$$eval(`.statistics-section[data-section="${section}"] tbody tr`, (trs: Any[]) => trs.map((tr) => [...tr.children].map((td: Any) => td.textContent)));
    assert.deepEqual((await table('Models')).map((r) => [r[0], r[1]]), report.byModel.map((m) => [m.model, String(m.calls)]));
    assert.deepEqual((await table('Tools')).map((r) => [r[0], r[1], r[2]]), report.byTool.map((t) => [t.tool, String(t.calls), String(t.errors)]));
    const slow = await table('Slowest tool calls');
    assert.deepEqual(slow.map((r) => [r[0], r[2]]), stats.slowestToolCalls.map((c) => [c.name, String(c.line)]));
    assert.deepEqual((await table('Latency by tool')).map((r) => r[0]), stats.latencyByTool.map((l) => l.name));
    const note = await v.page.$eval('.statistics-note', (e: Any) => e.textContent);
    assert.ok(note.startsWith(`${stats.errors} error`), note);
    const bins = await v.page.$$eval('.statistics-bin', (bs: Any[]) => bs.map((b) => Number(b.dataset.count)));
    assert.deepEqual(bins, stats.histogram.map((b) => b.count));
    await v.screenshot('statistics-otlp');
    since = v.received.length;
    await v.page.click('.statistics-section[data-section="Slowest tool calls"] tbody tr:nth-child(2)');
    const d = await v.waitForHost('detail', (m) => m.detail.node === stats.slowestToolCalls[1].index, since);
    assert.equal(d.detail.line, stats.slowestToolCalls[1].line, 'the second-slowest call is selected');
  });

  it('keyboard: ↓/↑ move between rows that jump, across tables, Enter selects; the focused row is drawn in the theme\'s focus colours', async () => {
    const file = join(__dirname, '..', 'seed-corpus', 'other', 'claude-code', 'sample_session.json');
    const report = usageReport(await loadTrace(file));
    const v = await view(file, { theme: 'light' });
    let since = v.received.length;
    await v.page.click('.main-view-tab[data-view="statistics"]');
    await v.waitForHost('statistics', () => true, since);
    await v.page.waitForSelector('.statistics-row.jump');
    const jumpRows = await v.page.$$eval('.statistics-row.jump', (trs: Any[]) => trs.map((tr) => Number(tr.dataset.node)));
    assert.ok(jumpRows.length > report.byModel.length + 2, 'models, tools and calls all jump');
    await v.page.focus('.statistics-row.jump');
    const focused = (): Promise<number> => v.page.evaluate(() => Number((document.activeElement as Any)?.dataset?.node ?? -2));
    // Past the last row of the Models and Tools tables: the first of the slowest calls, in the next table.
    const steps = report.byModel.length + report.byTool.length;
    for (let k = 0; k < steps; k++) await v.page.keyboard.press('ArrowDown');
    assert.equal(await focused(), jumpRows[steps]);
    assert.equal(await v.page.evaluate(() => (document.activeElement as Any).closest('section').dataset.section), 'Slowest tool calls');
    await v.page.keyboard.press('ArrowUp');
    assert.equal(await focused(), jumpRows[steps - 1]);
    await v.page.keyboard.press('End');
    assert.equal(await focused(), jumpRows[jumpRows.length - 1]);
    const colours = await v.page.evaluate(() => {
      const got = getComputedStyle(document.activeElement as HTMLElement);
      return { bg: got.backgroundColor, outline: got.outlineColor, style: got.outlineStyle };
    });
    // Light Modern has no list.focusBackground: the row falls back to the hover colour, outlined in the focus colour.
    assert.equal(colours.bg, rgb(THEMES.light['list-hoverBackground']), 'focus background from the theme');
    assert.equal(colours.outline, rgb(THEMES.light['list-focusOutline']), 'focus outline from the theme');
    assert.equal(colours.style, 'solid');
    const tools = await v.page.$$eval('.statistics-section[data-section="Tools"] tbody tr', (trs: Any[]) => trs.map((tr) => [tr.children[0].textContent, tr.children[3].textContent]));
    assert.deepEqual(tools, report.byTool.map((t) => [t.tool, String(t.retries)]), 'retries per tool as the usage report counts them');
    await v.screenshot('statistics-keyboard-light');
    since = v.received.length;
    await v.page.keyboard.press('Enter');
    await v.waitForHost('detail', (m) => m.detail.node === jumpRows[jumpRows.length - 1], since);
  });
});
