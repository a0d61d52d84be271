import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { runStatistics } from '../../src/core/usage/runStatistics';
import { usageReport } from '../../src/core/usage/usageReport';
import { contextSplit } from '../../src/core/usage/contextSplit';
import { usageRollupOf } from '../../src/core/usage/rollup';
import { WRITER_CORPUS } from '../helpers/corpus';
import { claudeWithOneHourWrites, geminiWithModel } from '../helpers/derivedTraces';
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

describe('statistics tab: costs that explain themselves (Chromium, issue 37)', function () {
  this.timeout(120_000);
  const { view } = viewerSuite();
  let dir = '';
  before(() => (dir = mkdtempSync(join(tmpdir(), 'stats-view-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const headers = (v: { page: Any }, section: string): Promise<string[]> => v.page.$$eval(`.statistics-section[data-section="${section}"] thead th`, (ths: Any[]) => ths.map((th) => th.textContent));
  const rows = (v: { page: Any }, section: string): Promise<string[][]> => v.page.$$eval(`.statistics-section[data-section="${section}"] tbody tr`, (trs: Any[]) => trs.map((tr) => [...tr.children].map((td: Any) => td.textContent)));

  for (const theme of ['dark', 'hc'] as const) {
    it(`${theme}: per model input, cache read, cache write, output, reasoning, cost and its source; the rates used; a hint on the unpriced model`, async () => {
      const file = geminiWithModel(dir, 'acme-coder-1');
      const report = usageReport(await loadTrace(file));
      const v = await view(file, { theme });
      const since = v.received.length;
      await v.page.click('.main-view-tab[data-view="statistics"]');
      await v.waitForHost('statistics', () => true, since);
      await v.settle();
      assert.deepEqual(await headers(v, 'Models'), ['Model', 'Calls', 'Input', 'Cache read', 'Cache write', 'Output', 'Reasoning', 'Cost', 'Cost from', 'Retries']);
      const models = await rows(v, 'Models');
      const g = report.byModel.find((m) => m.model === 'gemini-2.5-pro')!;
      const f = (n: number): string => n.toLocaleString('en-US');
      const gRow = models.find((r) => r[0] === 'gemini-2.5-pro')!;
      assert.deepEqual(gRow.slice(2, 7), [f(g.inputTokens! - g.cacheReadTokens!), f(g.cacheReadTokens!), '—', f(g.outputTokens!), f(g.reasoningTokens!)]);
      assert.equal(gRow[8], 'computed from prices');
      const aRow = models.find((r) => r[0] === 'acme-coder-1')!;
      assert.deepEqual([aRow[7], aRow[8]], ['unpriced', '—']);
      const hint = await v.page.$eval('.statistics-unpriced[data-model="acme-coder-1"]', (e: Any) => ({ text: e.textContent, role: e.getAttribute('role'), colour: getComputedStyle(e).color }));
      assert.ok(hint.text.includes('No price for acme-coder-1: add it in agentTrace.pricing.'), hint.text);
      assert.equal(hint.role, 'note');
      assert.equal(hint.colour, rgb(THEMES[theme]['editorWarning-foreground']), 'the hint is in the theme\'s warning colour');
      assert.equal(await v.page.$('.statistics-unpriced[data-model="gemini-2.5-pro"]'), null, 'no hint on a priced model');
      const share = await v.page.$eval('.statistics-unpriced-share', (e: Any) => e.textContent);
      assert.ok(share.startsWith(`${Math.round((1 - report.priced!) * 1000) / 10}% of the run's tokens are unpriced`), share);
      assert.deepEqual(await headers(v, 'Rates used'), ['Model', 'Price from', 'Input', 'Cache read', 'Cache write 5 min', 'Cache write 1 h', 'Output', 'Reasoning']);
      const rates = await rows(v, 'Rates used');
      assert.deepEqual(rates.find((r) => r[0] === 'gemini-2.5-pro'), ['gemini-2.5-pro', '@pydantic/genai-prices google/gemini-2.5-pro (tiered by prompt size: at its last call)', '$1.25', '$0.125', '$1.25', '—', '$10', '$10']);
      assert.deepEqual(rates.find((r) => r[0] === 'acme-coder-1')!.slice(1, 3), ['no price', '—']);
      const source = await v.page.$eval('.statistics-price-source', (e: Any) => e.textContent);
      assert.ok(source.includes(`${report.priceSource.name} ${report.priceSource.version}, published ${report.priceSource.date}`), source);
      await v.page.$eval('.statistics-section[data-section="Rates used"]', (e: Any) => e.scrollIntoView({ block: 'center' }));
      await v.screenshot(`statistics-prices-${theme}`);
    });
  }

  it('Claude Code with 1-hour cache writes: 5-minute and 1-hour writes in their own columns; the cost recorded by the trace says so', async () => {
    const file = claudeWithOneHourWrites(dir, (w) => Math.floor(w / 3));
    const model = await loadTrace(file);
    const report = usageReport(model);
    const v = await view(file);
    const since = v.received.length;
    await v.page.click('.main-view-tab[data-view="statistics"]');
    await v.waitForHost('statistics', () => true, since);
    await v.settle();
    assert.deepEqual(await headers(v, 'Models'), ['Model', 'Calls', 'Input', 'Cache read', 'Cache write 5 min', 'Cache write 1 h', 'Output', 'Reasoning', 'Cost', 'Cost from', 'Retries']);
    // Each response once, at its last line's snapshot.
    const last = new Map<string, number>();
    for (const l of readFileSync(file, 'utf8').split('\n').filter((x) => x)) {
      const x = JSON.parse(l);
      if (x.type === 'assistant') last.set(x.message.id, x.message.usage.cache_creation.ephemeral_1h_input_tokens);
    }
    const oneHour = [...last.values()].reduce((a, b) => a + b, 0);
    const m = report.byModel[0];
    const row = (await rows(v, 'Models'))[0];
    assert.deepEqual(row.slice(4, 6), [(m.cacheWriteTokens! - oneHour).toLocaleString('en-US'), oneHour.toLocaleString('en-US')]);
    assert.equal(row[9], m.costSource === 'trace' ? 'recorded by the trace' : 'computed from prices');
    // Context per model call: the main thread's sparkline, its text alternative and the same facts as text.
    const split = contextSplit(model, usageRollupOf(model));
    const calls = split.calls.filter((c) => c.via === -1);
    const ctx = await v.page.$$eval('.statistics-section[data-section="Context"] tbody tr', (trs: Any[]) => trs.map((tr) => ({
      node: Number(tr.dataset.node), cells: [...tr.children].map((td: Any) => td.textContent), alt: tr.querySelector('svg').getAttribute('aria-label'), role: tr.querySelector('svg').getAttribute('role'),
      points: tr.querySelector('polyline')?.getAttribute('points').split(' ').length,
    })));
    const mainRow: Any = ctx.find((r: Any) => r.cells[0] === 'main');
    const peak = calls.reduce((a, b) => (b.total > a.total ? b : a));
    const f = (n: number): string => n.toLocaleString('en-US');
    assert.equal(mainRow.cells[2], `${calls.length} calls: first ${f(calls[0].total)}, last ${f(calls[calls.length - 1].total)}, largest ${f(peak.total)} tokens at line ${peak.line}`);
    assert.equal(mainRow.alt, `Context of the main thread per call, ${mainRow.cells[2]}`);
    assert.equal(mainRow.role, 'img');
    assert.equal(mainRow.points, calls.length);
    assert.equal(mainRow.node, peak.index, 'the row jumps to the largest call');
    await v.page.$eval('.statistics-section[data-section="Context"]', (e: Any) => e.scrollIntoView({ block: 'center' }));
    await v.screenshot('statistics-context-dark');
  });
});
