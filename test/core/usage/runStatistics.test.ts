import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { loadTrace } from '../../../src/core/loadTrace';
import { durationHistogram, runStatistics } from '../../../src/core/usage/runStatistics';

const SAMPLE = join(__dirname, '..', '..', '..', 'samples', 'otlp', 'trace.otlp.json');

describe('run statistics (the data of the statistics panel)', () => {
  it('slowest tool calls, most expensive model calls and latency percentiles of the OTLP sample, by hand', async () => {
    const s = runStatistics(await loadTrace(SAMPLE), {}, 3);
    // Tool spans: read_file 3, 1, 2 ms; run_command 912, 874, 6300 ms; write_file 5120 ms.
    assert.deepEqual(s.slowestToolCalls.map((c) => [c.name, c.durationMs, c.line]), [['run_command', 6300, 836], ['write_file', 5120, 592], ['run_command', 912, 483]]);
    assert.deepEqual(s.latencyByTool.map((l) => [l.name, l.count, l.p50Ms, l.p95Ms]), [['run_command', 3, 912, 6300], ['write_file', 1, 5120, 5120], ['read_file', 3, 2, 3]]);
    // The last chat: 3610 in, 132 out at $3/$15 per million = 0.01281; then 2940/102, 2680/93.
    assert.deepEqual(s.mostExpensiveCalls.map((c) => [c.line, c.tokens]), [[907, 3742], [765, 3042], [656, 2773]]);
    assert.ok(Math.abs(s.mostExpensiveCalls[0].costUsd! - (3610 * 3 + 132 * 15) / 1e6) < 1e-12);
    // Eight chat spans of 1500, 1610, … 2400 ms: nearest-rank p50 is the 4th (1830), p95 the 8th.
    assert.deepEqual(s.latencyByModel.map((l) => [l.name, l.count, l.p50Ms, l.p95Ms]), [['claude-sonnet-4-5-20250929', 8, 1830, 2400]]);
    assert.equal(s.errors, 2);
    assert.equal(s.histogram.reduce((a, b) => a + b.count, 0), 7 + 8, 'every timed tool and model call is in one bin');
  });

  it('bins durations by powers of two, zero in the first bin, with empty bins between', () => {
    assert.deepEqual(durationHistogram([0, 1, 3, 3, 9]), [
      { fromMs: 0, toMs: 1, count: 1 }, { fromMs: 1, toMs: 2, count: 1 }, { fromMs: 2, toMs: 4, count: 2 }, { fromMs: 4, toMs: 8, count: 0 }, { fromMs: 8, toMs: 16, count: 1 },
    ]);
    assert.deepEqual(durationHistogram([]), []);
  });
});
