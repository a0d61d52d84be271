import { strict as assert } from 'node:assert';
import { loadTrace } from '../../../src/core/loadTrace';
import { runStatistics } from '../../../src/core/usage/runStatistics';
import type { HostMessage } from '../../../src/protocol';
import { buildTimeline } from '../../../src/viewer/timeline/timelineData';
import { MAX_TIMELINE_PAGE, SessionTimeline } from '../../../src/viewer/timeline/sessionTimeline';
import { parseViewMessage } from '../../../src/protocol/validate';
import { corpusPath, WRITER_CORPUS } from '../../helpers/corpus';
import { join } from 'node:path';

const LUMEN = corpusPath('lumen', '.lumen', 'trace', '55769ad7-ac9e-4d06-ae6b-d950d1e7c1bc.jsonl');
const CLAUDE = join(WRITER_CORPUS, 'claude-code-2.1.332/subagent/projects/-home-user-project/87aba006-238f-4834-a6fa-3396f07d36f4.jsonl');

describe('timeline session: pages, focus and statistics from the host', () => {
  it('answers a page, the page around a node with its bar as focus, and the statistics', async () => {
    const model = await loadTrace(CLAUDE);
    const tl = buildTimeline(model);
    const sent: HostMessage[] = [];
    const s = new SessionTimeline(() => model, () => 7, (m) => sent.push(m));
    s.request({ type: 'requestTimeline', requestId: 1, start: 0, count: 4, density: 10 });
    const a = sent[0] as Extract<HostMessage, { type: 'timeline' }>;
    assert.deepEqual([a.requestId, a.modelVersion, a.slice.nodes, a.focus, a.density!.length], [1, 7, [...tl.nodes.subarray(0, 4)], null, 10]);
    const node = tl.nodes[5];
    s.request({ type: 'requestTimeline', requestId: 2, start: 0, count: 4, node });
    const b = sent[1] as Extract<HostMessage, { type: 'timeline' }>;
    assert.equal(b.focus, 5);
    assert.ok(b.slice.start <= 5 && 5 < b.slice.start + b.slice.nodes.length, 'the page holds the bar');
    assert.equal(b.density, null);
    s.request({ type: 'requestTimeline', requestId: 3, start: 0, count: 10, node: model.events.size + 5 });
    assert.equal((sent[2] as Extract<HostMessage, { type: 'timeline' }>).focus, null, 'a node out of range is ignored, not thrown on');
    s.statistics();
    const st = sent[3] as Extract<HostMessage, { type: 'statistics' }>;
    const expected = runStatistics(model);
    assert.deepEqual(st.stats.slowestToolCalls, expected.slowestToolCalls);
    assert.deepEqual(st.stats.byTool.map((t) => [t.tool, t.calls, model.events.usageColumnsOf(t.first).tool]), expected.latencyByTool.map((l) => [l.name, l.count, l.name]));
  });

  it('the viewer\'s filter: hidden bars are not rows, counted; a filter change after the tab asked resets it; collapsed bars fold', async () => {
    const model = await loadTrace(CLAUDE);
    const tl = buildTimeline(model);
    const sent: HostMessage[] = [];
    const s = new SessionTimeline(() => model, () => 3, (m) => sent.push(m));
    s.setFilter((i) => model.events.categoryOf(i) === 'tool');
    assert.equal(sent.length, 0, 'nothing to reset before the tab asked');
    s.request({ type: 'requestTimeline', requestId: 1, start: 0, count: 100 });
    const a = (sent[0] as Extract<HostMessage, { type: 'timeline' }>).slice;
    assert.ok(a.hidden > 0);
    assert.equal(a.total + a.hidden, tl.nodes.length);
    assert.ok(a.nodes.filter((i) => model.events.categoryOf(i) === 'tool').length >= 1);
    s.setFilter(null);
    assert.deepEqual(sent[1], { type: 'timelineReset', modelVersion: 3 });
    const agent = a.nodes.find((i) => /^Agent: (?!.*→)/.test(model.events.labelOf(i)))!;
    s.request({ type: 'requestTimeline', requestId: 2, start: 0, count: 100, collapsed: [agent] });
    const b = (sent[2] as Extract<HostMessage, { type: 'timeline' }>).slice;
    assert.equal(b.hidden, 0);
    assert.equal(b.total, tl.nodes.length - tl.size[tl.barOf[agent]]);
    assert.equal(b.collapsed[b.nodes.indexOf(agent)], 1);
  });

  it('validates requestTimeline: bounds and types, a page no bigger than the host sends', () => {
    assert.ok(parseViewMessage('viewer', { type: 'requestTimeline', requestId: 1, start: 0, count: 500, node: null, density: 400 }));
    assert.ok(parseViewMessage('viewer', { type: 'requestStatistics' }));
    for (const bad of [{ start: -1 }, { count: 1e9 }, { density: 0 }, { node: 'x' }, { start: 1.5 }, { collapsed: ['x'] }, { collapsed: 3 }]) {
      assert.equal(parseViewMessage('viewer', { type: 'requestTimeline', requestId: 1, start: 0, count: 5, ...bad }), null, JSON.stringify(bad));
    }
    assert.ok(MAX_TIMELINE_PAGE <= 100_000);
  });
});
