import { strict as assert } from 'node:assert';
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { layOutAgentHome } from '../../helpers/agentHome';
import { WRITER_CORPUS } from '../../helpers/corpus';
import { tempDir } from '../../helpers/tmp';
import { agentHomeRoots } from '../../../src/core/sessions/agentHomes';
import { listSessions } from '../../../src/core/sessions/sessionCatalog';
import { parseSessionCache, SessionCacheStore, SessionRecord } from '../../../src/core/sessions/sessionCache';
import { usageCsv, usageOverTime } from '../../../src/core/sessions/usageOverTime';

const TOKENS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const;

/** A real Claude Code session with a subagent (its main file and `<id>/subagents/…`), from the real-writer corpus. */
const SESSION_ID = '87aba006-238f-4834-a6fa-3396f07d36f4';
const PROJECT = join(WRITER_CORPUS, 'claude-code-2.1.332', 'subagent', 'projects', '-home-user-project');

/** Every file of the session, under `dir` as under the corpus. */
function sessionFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sessionFiles(p));
    else out.push(p);
  }
  return out;
}

/** The session copied into a home's `.claude/projects/<project>/`, each line's text passed through `edit`. */
function copySession(edit: (line: string, file: string) => string): { home: string; main: string } {
  const home = tempDir('atv-usagecells-');
  const to = join(home, '.claude', 'projects', '-home-user-project');
  cpSync(join(PROJECT, `${SESSION_ID}.jsonl`), join(to, `${SESSION_ID}.jsonl`));
  cpSync(join(PROJECT, SESSION_ID), join(to, SESSION_ID), { recursive: true });
  for (const f of sessionFiles(to)) writeFileSync(f, readFileSync(f, 'utf8').split('\n').map((l) => edit(l, f)).join('\n'));
  return { home, main: join(to, `${SESSION_ID}.jsonl`) };
}

/** The assistant lines of the main file (or of all the session's files: its subagent's too), parsed, in file order. */
function assistantLines(all = false): { id: string; ms: number; usage: Record<string, number> }[] {
  const files = all ? [join(PROJECT, `${SESSION_ID}.jsonl`), ...sessionFiles(join(PROJECT, SESSION_ID))] : [join(PROJECT, `${SESSION_ID}.jsonl`)];
  return files.flatMap((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l.includes('"type":"assistant"')).map((l) => {
    const v = JSON.parse(l);
    return { id: v.message.id, ms: Date.parse(v.timestamp), usage: v.message.usage };
  }));
}

const sumOf = (r: SessionRecord, k: (typeof TOKENS)[number] | 'costUsd') => r.byDayModel.reduce<number | null>((a, c) => (c[k] === null ? a : (a ?? 0) + c[k]!), null);

async function listed(home: string): Promise<SessionRecord[]> {
  return (await listSessions({ roots: agentHomeRoots(home) })).records;
}

describe('usage per day and model of each session (the catalog record\'s byDayModel), on real-writer sessions', function () {
  this.timeout(120000);

  it('every session of the corpus home: its days and models add up to its own totals, an unknown cost stays unknown', async () => {
    const home = tempDir('atv-usagecells-home-');
    layOutAgentHome(home);
    const records = (await listed(home)).filter((r) => r.entry.error === null);
    assert.ok(records.length >= 40, `${records.length} sessions`);
    let withUsage = 0;
    for (const r of records) {
      const u = r.entry.usage;
      if (u.inputTokens === null && u.outputTokens === null) continue;
      withUsage++;
      assert.equal(sumOf(r, 'inputTokens'), u.inputTokens, r.entry.file);
      assert.equal(sumOf(r, 'outputTokens'), u.outputTokens, r.entry.file);
      if (u.costUsd === null) assert.ok(r.byDayModel.every((c) => c.costUsd === null), `${r.entry.file}: no cost, none in its days`);
      else assert.ok(Math.abs(sumOf(r, 'costUsd')! - u.costUsd) < 1e-12, `${r.entry.file}: ${sumOf(r, 'costUsd')} ≠ ${u.costUsd}`);
      // Each call's model is one the session's per-model usage names.
      for (const c of r.byDayModel) assert.ok(r.byModel.some((m) => m.model === c.model), `${r.entry.file}: ${c.model}`);
      for (const c of r.byDayModel) assert.equal(c.day, r.entry.startTime?.slice(0, 10) ?? null, r.entry.file);
    }
    assert.ok(withUsage >= 40, `${withUsage} sessions with usage`);
    // Unpriced sessions are in the corpus (Qwen's model is not in the bundled prices): their cost stays missing.
    assert.ok(records.some((r) => r.entry.usage.inputTokens !== null && r.entry.usage.costUsd === null));
    const byDay = usageOverTime(records, 'day');
    const total = records.reduce((a, r) => a + (r.entry.usage.inputTokens ?? 0), 0);
    assert.equal(byDay.buckets.reduce((a, b) => a + (b.inputTokens ?? 0), 0), total);
    assert.equal(byDay.total.inputTokens, total);
  });

  it('a session shifted across midnight (UTC) is split over the two days, each call on its own day', async () => {
    // Midnight before the session's last model call (the main file's third), after every other call of its files.
    const calls = assistantLines();
    const ids = [...new Set(calls.map((c) => c.id))];
    assert.equal(ids.length, 3);
    const third = calls.filter((c) => c.id === ids[2]);
    assert.equal(third.length, 1, 'the last call is one line');
    const before = Math.max(...assistantLines(true).filter((c) => c.id !== ids[2]).map((c) => c.ms));
    assert.ok(before < third[0].ms);
    const midnight = Date.UTC(2026, 11, 2);
    const delta = midnight - (before + third[0].ms) / 2;
    const shift = (l: string) => l.replace(/"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)"/g, (_m, iso: string) => JSON.stringify(new Date(Date.parse(iso) + delta).toISOString()));
    const { home, main } = copySession(shift);
    const [r] = await listed(home);
    assert.equal(r.entry.file, main);
    assert.deepEqual([...new Set(r.byDayModel.map((c) => c.day))], ['2026-12-01', '2026-12-02']);
    const late = r.byDayModel.filter((c) => c.day === '2026-12-02');
    // The new day holds exactly the last call's usage, as its line records it.
    assert.equal(late.reduce((a, c) => a + (c.outputTokens ?? 0), 0), third[0].usage.output_tokens);
    assert.equal(late.reduce((a, c) => a + (c.cacheReadTokens ?? 0), 0), third[0].usage.cache_read_input_tokens);
    for (const k of TOKENS) assert.equal(sumOf(r, k) !== null, true, k);
    assert.equal(sumOf(r, 'inputTokens'), r.entry.usage.inputTokens);
    assert.equal(sumOf(r, 'outputTokens'), r.entry.usage.outputTokens);
    assert.ok(Math.abs(sumOf(r, 'costUsd')! - r.entry.usage.costUsd!) < 1e-12);
    // The same session, unshifted, has the same totals on one day.
    const { home: plainHome } = copySession((l) => l);
    const [plain] = await listed(plainHome);
    assert.deepEqual(plain.entry.usage, r.entry.usage);
    assert.equal(new Set(plain.byDayModel.map((c) => c.day)).size, 1);

    // By day it counts on both; by week and month once; the buckets add up to its totals.
    const byDay = usageOverTime([r], 'day');
    assert.deepEqual(byDay.buckets.map((b) => [b.key, b.sessions]), [['2026-12-01', 1], ['2026-12-02', 1]]);
    assert.equal(byDay.placedBy, 'events');
    assert.equal(byDay.buckets[0].outputTokens! + byDay.buckets[1].outputTokens!, r.entry.usage.outputTokens);
    assert.equal(byDay.buckets[1].outputTokens, third[0].usage.output_tokens);
    assert.deepEqual(usageOverTime([r], 'month').buckets.map((b) => [b.key, b.sessions, b.outputTokens]), [['2026-12', 1, r.entry.usage.outputTokens]]);
    assert.equal(byDay.total.sessions, 1);
  });

  it('a session that used two models is split between them, by each call\'s own model', async () => {
    const calls = assistantLines();
    const last = calls[calls.length - 1];
    // The last call of the main file made by another (priced) model.
    const { home } = copySession((l) => (l.includes(`"id":"${last.id}"`) ? l.replace('"model":"claude-opus-5-5"', '"model":"claude-sonnet-4-0"') : l));
    const [r] = await listed(home);
    assert.deepEqual(r.byDayModel.map((c) => c.model).sort(), ['claude-opus-5-5', 'claude-sonnet-4-0']);
    const sonnet = r.byDayModel.find((c) => c.model === 'claude-sonnet-4-0')!;
    assert.equal(sonnet.outputTokens, last.usage.output_tokens);
    assert.equal(sonnet.cacheReadTokens, last.usage.cache_read_input_tokens);
    assert.ok(sonnet.costUsd !== null && sonnet.costUsd > 0);
    const byModel = usageOverTime([r], 'model');
    assert.deepEqual(byModel.buckets.map((b) => [b.key, b.sessions]), [['claude-opus-5-5', 1], ['claude-sonnet-4-0', 1]]);
    assert.equal(byModel.buckets.reduce((a, b) => a + b.outputTokens!, 0), r.entry.usage.outputTokens);
    assert.ok(Math.abs(byModel.buckets.reduce((a, b) => a + b.costUsd!, 0) - r.entry.usage.costUsd!) < 1e-12);
    // A day broken down by model: the same two parts.
    const split = usageOverTime([r], 'day', 'model');
    assert.deepEqual(split.buckets[0].parts!.map((p) => [p.key, p.outputTokens]), byModel.buckets.map((b) => [b.key, b.outputTokens]));
  });

  it('keeps the breakdown in the cache, and drops a cache of the version before it', async () => {
    const { home } = copySession((l) => l);
    let text: string | null = null;
    const store: SessionCacheStore = { read: async () => text, write: async (t) => void (text = t) };
    const first = await listSessions({ roots: agentHomeRoots(home), cache: store });
    const again = await listSessions({ roots: agentHomeRoots(home), cache: store });
    assert.equal(again.fromCache, 1);
    assert.deepEqual(again.records[0].byDayModel, first.records[0].byDayModel);
    assert.ok(first.records[0].byDayModel.length > 0);
    // A version 1 cache (no byDayModel) is not used: the file is read again.
    const old = JSON.parse(text!);
    old.key = old.key.replace(/^v\d+;/, 'v1;');
    for (const r of old.records) delete r.byDayModel;
    assert.equal(parseSessionCache(JSON.stringify(old)).records.size, 0);
  });

  it('writes CSV with unknown figures as empty fields, never 0', () => {
    const rec = (file: string, cost: number | null, project: string): SessionRecord => ({
      entry: { agent: 'codex', file, sessionId: file, title: null, project, startTime: '2026-12-01T10:00:00Z', endTime: null, events: 1, subagents: 0, usage: { inputTokens: 10, outputTokens: 2, costUsd: cost }, errors: 0, error: null },
      byModel: [{ model: 'm', inputTokens: 10, outputTokens: 2, costUsd: cost }],
      byDayModel: [{ day: '2026-12-01', model: 'm', inputTokens: 10, outputTokens: 2, cacheReadTokens: null, cacheWriteTokens: null, costUsd: cost }],
      priced: cost === null ? 0 : 1,
      stamp: { path: file, size: 1, mtimeMs: 1 },
      parts: [],
    });
    const u = usageOverTime([rec('a', 0.5, 'p,"q"'), rec('b', null, '=cmd')], 'day', 'project');
    assert.equal(usageCsv(u), [
      'day,project,sessions,inputTokens,outputTokens,cacheReadTokens,cacheWriteTokens,costUsd,sessionsWithoutCost,sessionsPartlyPriced',
      "2026-12-01,'=cmd,1,10,2,,,,1,0",
      '2026-12-01,"p,""q""",1,10,2,,,0.5,0,0',
      'total,,2,20,4,,,0.5,1,0',
      '',
    ].join('\r\n'));
  });
});
