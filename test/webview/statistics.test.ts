import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { runStatistics } from '../../src/core/usage/runStatistics';
import { usageReport } from '../../src/core/usage/usageReport';
import { WRITER_CORPUS } from '../helpers/corpus';
import { viewerSuite } from './harness';

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
});
