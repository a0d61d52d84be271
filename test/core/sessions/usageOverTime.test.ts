import { strict as assert } from 'node:assert';
import { isoWeek, parseSince, usageOverTime } from '../../../src/core/sessions/usageOverTime';
import type { SessionRecord } from '../../../src/core/sessions/sessionCache';

function rec(file: string, startTime: string | null, usage: { inputTokens: number | null; outputTokens: number | null; costUsd: number | null }, byModel: SessionRecord['byModel'], priced: number | null, error: string | null = null): SessionRecord {
  return {
    entry: { agent: 'codex', file, sessionId: file, title: null, project: null, startTime, endTime: startTime, events: 1, subagents: 0, usage, errors: 0, error },
    byModel,
    // Each model's usage on the session's start day (the catalog's cells; test/core/sessions/usageCells.test.ts reads real ones).
    byDayModel: byModel.map((m) => ({ day: startTime?.slice(0, 10) ?? null, model: m.model, inputTokens: m.inputTokens, outputTokens: m.outputTokens, cacheReadTokens: null, cacheWriteTokens: null, costUsd: m.costUsd })),
    priced,
    stamp: { path: file, size: 1, mtimeMs: 1 },
    parts: [],
  };
}

const RECORDS = [
  rec('a', '2026-12-01T10:00:00Z', { inputTokens: 100, outputTokens: 10, costUsd: 0.5 }, [{ model: 'm1', inputTokens: 100, outputTokens: 10, costUsd: 0.5 }], 1),
  // Two models, one unpriced: the session is partly priced; each model's share is priced or not as a whole.
  rec('b', '2026-12-01T23:59:59Z', { inputTokens: 200, outputTokens: 20, costUsd: 0.25 }, [{ model: 'm1', inputTokens: 50, outputTokens: 5, costUsd: 0.25 }, { model: 'm2', inputTokens: 150, outputTokens: 15, costUsd: null }], 0.25),
  rec('c', '2026-12-02T00:00:00Z', { inputTokens: 7, outputTokens: 1, costUsd: null }, [{ model: 'm2', inputTokens: 7, outputTokens: 1, costUsd: null }], 0),
  rec('d', null, { inputTokens: null, outputTokens: null, costUsd: null }, [], null),
  rec('broken', null, { inputTokens: null, outputTokens: null, costUsd: null }, [], null, 'cannot read'),
];

describe('usage over time: the session catalog\'s records per bucket', () => {
  it('by day: each session whole in its start day (UTC), buckets adding up to the total, no cost counted as 0', () => {
    const u = usageOverTime(RECORDS, 'day');
    assert.deepEqual(u.buckets.map((b) => [b.key, b.sessions, b.inputTokens, b.outputTokens, b.costUsd]), [
      ['(none)', 1, null, null, null],
      ['2026-12-01', 2, 300, 30, 0.75],
      ['2026-12-02', 1, 7, 1, null],
    ]);
    assert.deepEqual(u.buckets[2].sessionsWithoutCost, ['c']);
    assert.deepEqual(u.buckets[1].sessionsPartlyPriced, ['b']);
    assert.deepEqual([u.total.sessions, u.total.inputTokens, u.total.outputTokens, u.total.costUsd], [4, 307, 31, 0.75]);
    assert.deepEqual(u.total.sessionsWithoutCost, ['c']);
  });

  it('by model: each session adds its per-model usage; a model\'s share is never "partly priced"', () => {
    const u = usageOverTime(RECORDS, 'model');
    assert.deepEqual(u.buckets.map((b) => [b.key, b.sessions, b.inputTokens, b.costUsd, b.sessionsWithoutCost, b.sessionsPartlyPriced]), [
      ['(none)', 1, null, null, [], []],
      ['m1', 2, 150, 0.75, [], []],
      ['m2', 2, 157, null, ['b', 'c'], []],
    ]);
  });

  it('by week and month', () => {
    assert.deepEqual(usageOverTime(RECORDS, 'week').buckets.map((b) => b.key), ['(none)', '2026-W49']);
    assert.deepEqual(usageOverTime(RECORDS, 'month').buckets.map((b) => b.key), ['(none)', '2026-12']);
    assert.equal(isoWeek(Date.parse('2027-01-03')), '2026-W53');
    assert.equal(isoWeek(Date.parse('2027-01-04')), '2027-W01');
    assert.equal(isoWeek(Date.parse('2024-12-30')), '2025-W01');
  });

  it('reads --since as a date, a time or an age', () => {
    const now = Date.parse('2026-12-07T00:00:00Z');
    assert.equal(parseSince('2026-12-01', now), Date.parse('2026-12-01T00:00:00Z'));
    assert.equal(parseSince('2026-12-01T10:00:00Z', now), Date.parse('2026-12-01T10:00:00Z'));
    assert.equal(parseSince('7d', now), Date.parse('2026-11-30T00:00:00Z'));
    assert.equal(parseSince('12h', now), Date.parse('2026-12-06T12:00:00Z'));
    for (const bad of ['yesterday', '7', '', '2026-13-45']) assert.equal(parseSince(bad, now), null, bad);
  });
});
