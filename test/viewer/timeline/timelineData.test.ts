import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { loadTrace } from '../../../src/core/loadTrace';
import type { TraceModel } from '../../../src/core/traceModel';
import { barStart, buildTimeline, endOf, Timeline, timelineDensity, timelineSlice } from '../../../src/viewer/timeline/timelineData';
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
  const startOf = (i: number): number => barStart(model.format, t.timeOf(i)!, t.get(i).durationMs);
  const t0 = Math.min(...timed.map(startOf));
  assert.equal(tl.t0, t0);
  for (let b = 0; b < tl.nodes.length; b++) {
    const e = t.get(tl.nodes[b]);
    assert.equal(tl.start[b], startOf(e.index) - t0, `bar ${b} starts at its event's start`);
    assert.equal(tl.duration[b], e.durationMs ?? -1, `bar ${b} lasts the event's duration (or is a tick)`);
    assert.equal(tl.barOf[tl.nodes[b]], b);
    // Tree order: a timed parent comes before its child and the child is one level deeper.
    const p = e.parent >= 0 ? tl.barOf[e.parent] : -1;
    if (p >= 0) {
      assert.ok(p < b, `parent bar ${p} before child bar ${b}`);
      assert.equal(tl.depth[b], tl.depth[p] + 1);
    }
  }
  const span = Math.max(...timed.map((i) => startOf(i) + Math.max(0, t.get(i).durationMs ?? 0))) - t0;
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

  it('murmur writes a record when the work ends: session_end\'s bar starts with the session, tool_call\'s ends at its line', async () => {
    const model = await loadTrace(FILES.murmur);
    const tl = buildTimeline(model);
    const t = model.events;
    const barOfKind = (k: string): number => tl.barOf[[...tl.nodes].find((i) => t.kindOf(i) === k)!];
    const end = barOfKind('session_end'), start = barOfKind('session_start'), tool = barOfKind('tool_call');
    // duration_ms is measured from the writer's open, a moment before session_start is written.
    assert.ok(Math.abs(tl.start[end] - tl.start[start]) < 50, `session_end from ${tl.start[end]} vs session_start at ${tl.start[start]}`);
    assert.equal(tl.start[tool] + tl.duration[tool], t.timeOf(tl.nodes[tool])! - tl.t0);
    assert.ok(tl.span <= (Math.max(...[...tl.nodes].map((i) => t.timeOf(i)!)) - tl.t0) + 1e-9, 'nothing ends after the last line');
  });

  it('otlp spans start at their start time: every child lies within its parent', async () => {
    const model = await loadTrace(FILES.otlp);
    const tl = buildTimeline(model);
    for (let b = 0; b < tl.nodes.length; b++) {
      const p = model.events.parent(tl.nodes[b]);
      if (p < 0 || tl.barOf[p] < 0) continue;
      assert.ok(tl.start[b] >= tl.start[tl.barOf[p]] && endOf(tl, b) <= endOf(tl, tl.barOf[p]) + 1e-6, `bar ${b} within its parent`);
    }
  });

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
    // Recount by brute force: a bar is active in every bucket from its start's to its end's.
    const brute = new Array(50).fill(0);
    for (let b = 0; b < tl.nodes.length; b++) {
      const at = (ms: number): number => Math.min(49, Math.floor((ms * 50) / tl.span));
      for (let k = at(tl.start[b]); k <= at(endOf(tl, b)); k++) brute[k]++;
    }
    assert.deepEqual(density, brute);
  });
});
