import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { contextSplit } from '../../src/core/usage/contextSplit';
import { usageRollupOf } from '../../src/core/usage/rollup';
import { writerFiles } from '../helpers/writerCorpus';
import { viewerSuite } from './harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const CLAUDE = writerFiles('claude-code').find((p) => p.includes(join('subagent', 'projects')) && !p.includes('subagents'))!;

describe('detail pane: what the model saw (Chromium)', function () {
  this.timeout(120_000);
  const { view } = viewerSuite();

  for (const theme of ['dark', 'hc'] as const) {
    it(`${theme}: a model step shows its context as a stacked bar with a text alternative and the numbers`, async () => {
      const model = await loadTrace(CLAUDE);
      const call = contextSplit(model, usageRollupOf(model)).calls[1];
      const v = await view(CLAUDE, { theme });
      const since = v.received.length;
      v.session.revealLine(call.line);
      await v.waitForHost('detail', (m) => m.detail.line === call.line, since);
      await v.settle();
      const got = await v.page.$eval('.detail-context', (box: Any) => ({
        alt: box.querySelector('.context-bar').getAttribute('aria-label'),
        role: box.querySelector('.context-bar').getAttribute('role'),
        widths: [...box.querySelectorAll('.context-seg')].map((s: Any) => [s.className, s.getBoundingClientRect().width]),
        barWidth: box.querySelector('.context-bar').getBoundingClientRect().width,
        legend: [...box.querySelectorAll('.context-legend dd')].map((d: Any) => d.textContent),
        text: box.textContent,
        colours: [...box.querySelectorAll('.context-seg')].map((s: Any) => getComputedStyle(s).backgroundColor),
      }));
      assert.equal(got.role, 'img');
      const f = (n: number): string => n.toLocaleString('en-US');
      assert.ok(got.alt.includes(`Context ${f(call.total)} tokens`) && got.alt.includes(`cache read ${f(call.cacheRead)}`) && got.alt.includes(`new input (not cached) ${f(call.uncached)}`), got.alt);
      assert.deepEqual(got.legend.map((s: string) => s.split(' ')[0]), [f(call.cacheRead), f(call.cacheWrite), f(call.uncached)]);
      assert.ok(got.text.includes(`+${f(call.delta!)} tokens since the previous call`), got.text);
      // Each segment's width is its share of the context (within a pixel, the bar's border aside).
      const shares = [call.cacheRead, call.cacheWrite, call.uncached].filter((x) => x > 0);
      got.widths.forEach(([, w]: Any[], k: number) => assert.ok(Math.abs(w - (shares[k] / call.total) * (got.barWidth - 2)) <= 1.5, `${w} vs share ${shares[k]}`));
      assert.equal(new Set(got.colours).size, 3, 'three different fills');
      await v.page.$eval('.detail-context', (e: Any) => e.scrollIntoView());
      await v.screenshot(`context-bar-${theme}`);
    });
  }

  it('a tool call has no context section', async () => {
    const v = await view(CLAUDE);
    const model = await loadTrace(CLAUDE);
    const tool = [...Array(model.events.size).keys()].find((i) => model.events.categoryOf(i) === 'tool')!;
    const line = model.events.lineOf(tool);
    const since = v.received.length;
    v.session.revealLine(line);
    await v.waitForHost('detail', (m) => m.detail.line === line && m.detail.node === tool, since);
    await v.settle();
    assert.equal(await v.page.$('.detail-context'), null);
  });
});
