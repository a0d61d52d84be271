import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { loadTrace } from '../../../src/core/loadTrace';
import type { TraceModel } from '../../../src/core/traceModel';
import { buildTimeline, endOf, Timeline, timelineDensity, timelineSlice } from '../../../src/viewer/timeline/timelineData';
import { corpusPath, WRITER_CORPUS } from '../../helpers/corpus';

const FILES: Record<string, string> = {
  murmur: corpusPath('murmur', 'ses_39263059f28c105d1fb17c2390c192cf', 'trace.jsonl'),
  lumen: corpusPath('lumen', '.lumen', 'trace', '55769ad7-ac9e-4d06-ae6b-d950d1e7c1bc.jsonl'),
  otlp: join(WRITER_CORPUS, 'otel-js-2.12.1', 'otlp-traces.jsonl'),
};

/** Recomputes, independently of the module, what every bar must be: the events that have a time. */
function checkAgainstEvents(model: TraceModel, tl: Timeline): void {
  const t = model.events;
  const timed: number[] = [];
  for (let i = 0; i < t.size; i++) if (t.timeOf(i) !== null) timed.push(i);
  assert.equal(tl.nodes.length, timed.length, 'one bar per event with a time');
  assert.deepEqual([...tl.nodes].sort((a, b) => a - b), timed, 'each such event exactly once');
  const t0 = Math.min(...timed.map((i) => t.timeOf(i)!));
  assert.equal(tl.t0, t0);
  for (let b = 0; b < tl.nodes.length; b++) {
    const e = t.get(tl.nodes[b]);
    assert.equal(tl.start[b], e.time! - t0, `bar ${b} starts at its event's time`);
    assert.equal(tl.duration[b], e.durationMs ?? -1, `bar ${b} lasts the event's duration (or is a tick)`);
    assert.equal(tl.barOf[tl.nodes[b]], b);
    // Tree order: a timed parent comes before its child and the child is one level deeper.
    const p = e.parent >= 0 ? tl.barOf[e.parent] : -1;
    if (p >= 0) {
      assert.ok(p < b, `parent bar ${p} before child bar ${b}`);
      assert.equal(tl.depth[b], tl.depth[p] + 1);
    }
  }
  const span = Math.max(...timed.map((i) => t.timeOf(i)! + Math.max(0, t.get(i).durationMs ?? 0))) - t0;
  assert.equal(tl.span, span, 'the span reaches the latest end');
}

describe('timeline data: bars from the events\' own times', () => {
  for (const [name, file] of Object.entries(FILES)) {
    it(`${name}: bars, starts, durations, depths and span match the events`, async () => {
      const model = await loadTrace(file);
      const tl = buildTimeline(model);
      assert.ok(tl.nodes.length > 3, `${name} has timed events`);
      checkAgainstEvents(model, tl);
    });
  }

  it('murmur: the critical path is a parent→child chain ending last at every level', async () => {
    const model = await loadTrace(FILES.murmur);
    const tl = buildTimeline(model);
    const path = [...tl.critical.keys()].filter((b) => tl.critical[b] === 1);
    assert.ok(path.length >= 2, 'a chain of at least a root and a child');
    assert.equal(tl.depth[path[0]], 0);
    for (let k = 1; k < path.length; k++) {
      assert.equal(tl.depth[path[k]], tl.depth[path[k - 1]] + 1, 'each step one level down');
      const parent = model.events.get(tl.nodes[path[k]]).parent;
      assert.equal(tl.barOf[parent], path[k - 1], 'each step a child of the previous one');
    }
    const topEnds = [...tl.depth.keys()].filter((b) => tl.depth[b] === 0).map((b) => endOf(tl, b));
    assert.equal(endOf(tl, path[0]), Math.max(...topEnds), 'starts at the top-level bar that ends last');
  });

  it('a slice is clamped, carries labels, and the density counts every bar', async () => {
    const model = await loadTrace(FILES.lumen);
    const tl = buildTimeline(model);
    const s = timelineSlice(model, tl, 2, 3);
    assert.deepEqual(s.nodes, [...tl.nodes.subarray(2, 5)]);
    assert.deepEqual(s.labels, s.nodes.map((i) => model.events.labelOf(i)));
    assert.equal(timelineSlice(model, tl, tl.nodes.length - 1, 100).nodes.length, 1);
    assert.equal(timelineSlice(model, tl, -5, 2).start, 0);
    const density = timelineDensity(tl, 50);
    assert.equal(density.length, 50);
    assert.ok(density.reduce((a, b) => a + b, 0) >= tl.nodes.length, 'every bar counted at least once');
  });
});
