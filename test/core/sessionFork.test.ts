import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { summarizeSession } from '../../src/core/summary';
import { editJson, mutateLines, nodes, runAll } from '../fixtures/other/harness';
import { writerFiles } from '../helpers/writerCorpus';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const linesOf = (path: string): Obj[] => readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
const n = (v: unknown): number => (typeof v === 'number' ? v : 0);
const inTokens = (u: Obj) => n(u.input_tokens) + n(u.cache_read_input_tokens) + n(u.cache_creation_input_tokens);

/** The real-writer transcripts of a case folder (`fork`, `resume`, …) of Claude Code. */
const claudeCase = (name: string) => writerFiles('claude-code').filter((p) => p.split(/[\\/]/).includes(name) && /projects[\\/][^\\/]+[\\/][0-9a-f-]{36}\.jsonl$/.test(p));
/** The fork is the transcript whose lines name another session (`requestSessionId`); the origin is the other one. */
const claudeFork = claudeCase('fork');
const forkFile = claudeFork.find((p) => linesOf(p).some((v) => typeof v.requestSessionId === 'string' && v.requestSessionId !== v.sessionId))!;
const originFile = claudeFork.find((p) => p !== forkFile)!;

const codexFork = writerFiles('codex').filter((p) => p.split(/[\\/]/).includes('fork') && /rollout-.*\.jsonl$/.test(p));
const codexForkFile = codexFork.find((p) => linesOf(p)[0].payload?.forked_from_id)!;
const codexOriginFile = codexFork.find((p) => p !== codexForkFile)!;

describe('a forked Claude Code session (claude -p --resume <id> --fork-session, real files)', () => {
  const fork = () => linesOf(forkFile);
  const origin = () => linesOf(originFile);

  it('the corpus holds the fork and its origin beside it', () => {
    assert.ok(forkFile && originFile, claudeFork.join('\n'));
    assert.notEqual(fork()[0].sessionId, origin()[0].sessionId, 'the fork has a session id of its own');
  });

  it('is linked to its origin: its session id, the copied lines, the origin\'s file', async () => {
    const s = await summarizeSession(await loadTrace(forkFile));
    const originId = origin().find((v) => typeof v.sessionId === 'string')!.sessionId;
    // The copies are exactly the fork's lines whose uuid is one of the origin's (worked out from the raw lines).
    const uuids = new Set(origin().flatMap((v) => (typeof v.uuid === 'string' ? [v.uuid] : [])));
    const copied = fork().flatMap((v, k) => (uuids.has(v.uuid) ? [k + 1] : []));
    assert.ok(copied.length >= 3, `${copied.length} copied lines`);
    assert.deepEqual(s.origin, {
      relation: 'fork', sessionId: originId, inheritedEvents: copied.length,
      inheritedLines: { first: copied[0], last: copied[copied.length - 1] }, upToOrdinal: null, file: originFile,
    });
  });

  it('shows the inherited history once, under one row that says so', async () => {
    const m = await loadTrace(forkFile);
    const uuids = new Set(origin().flatMap((v) => (typeof v.uuid === 'string' ? [v.uuid] : [])));
    const copied = fork().flatMap((v, k) => (uuids.has(v.uuid) ? [k + 1] : []));
    const byLine = new Map(nodes(m).map((x) => [x.line, x]));
    const first = byLine.get(copied[0])!;
    assert.match(first.label, /^inherited history: user: /);
    for (const line of copied.slice(1)) assert.equal(byLine.get(line)!.parentLine, copied[0], `line ${line} under the boundary`);
    // The fork's own lines are not under it.
    for (const [line, x] of byLine) if (!copied.includes(line)) assert.notEqual(x.parentLine, copied[0], `own line ${line}`);
    assert.equal(m.events.lineOf(m.origin!.inherited!.first), copied[0], 'the model names the boundary event');
  });

  it('counts the inherited responses once: the fork\'s usage is its own calls, the origin\'s is the origin\'s', async () => {
    const f = await summarizeSession(await loadTrace(forkFile));
    const o = await summarizeSession(await loadTrace(originFile));
    const uuids = new Set(origin().flatMap((v) => (typeof v.uuid === 'string' ? [v.uuid] : [])));
    const own = fork().filter((v) => v.type === 'assistant' && !uuids.has(v.uuid) && v.message?.usage);
    assert.ok(own.length >= 1);
    assert.equal(f.usage.total.inputTokens, own.reduce((a, v) => a + inTokens(v.message.usage), 0), 'input: the fork\'s own responses');
    assert.equal(f.usage.total.outputTokens, own.reduce((a, v) => a + n(v.message.usage.output_tokens), 0));
    assert.equal(f.usage.byModel.reduce((a, m) => a + m.calls, 0), own.length, 'one call per own response');
    assert.deepEqual([f.totals.inputTokens, f.totals.outputTokens], [f.usage.total.inputTokens, f.usage.total.outputTokens], 'totals and usage agree');
    // The writer's running totals in the fork (its last cost-state) cover origin and fork: each counted once adds up to them.
    const cs = fork().filter((v) => v.type === 'cost-state').pop()!;
    const recorded = Object.values(cs.modelUsage as Obj).reduce((a: number, m: Obj) => a + n(m.inputTokens) + n(m.cacheReadInputTokens) + n(m.cacheCreationInputTokens), 0);
    assert.equal(o.usage.total.inputTokens! + f.usage.total.inputTokens!, recorded);
    assert.ok(Math.abs(o.usage.total.costUsd! + f.usage.total.costUsd! - cs.totalCostUSD) < 1e-9, `${o.usage.total.costUsd} + ${f.usage.total.costUsd} = ${cs.totalCostUSD}`);
    assert.equal(f.totals.costUsdWithOrigin, cs.totalCostUSD, 'the recorded total is kept, named as covering the origin');
    assert.match(f.usage.explain.notes.join('\n'), /copy the history of session .* not counted again/);
    assert.match(f.usage.explain.notes.join('\n'), /cost-state totals carry on from/);
    // Nothing reported as missing or double: no usage-totals finding.
    assert.deepEqual((await runAll(forkFile, 'check')).filter((x) => x.rule === 'generic/usage-totals'), []);
  });

  it('the origin and every other Claude Code file of the corpus is no fork', async () => {
    for (const p of writerFiles('claude-code').filter((x) => x !== forkFile)) {
      const m = await loadTrace(p);
      assert.equal(m.origin ?? null, null, p);
    }
  });
});

describe('a resumed Claude Code session (claude -p --resume <id>, real files): appended to the same file, counted once', () => {
  const [resumed] = claudeCase('resume');

  it('every response once: usage = the writer\'s own running totals (its last cost-state)', async () => {
    const lines = linesOf(resumed);
    assert.ok(lines.filter((v) => v.type === 'queue-operation' && v.operation === 'enqueue').length >= 2, 'two runs in one file');
    const s = await summarizeSession(await loadTrace(resumed));
    const cs = lines.filter((v) => v.type === 'cost-state').pop()!;
    const recordedIn = Object.values(cs.modelUsage as Obj).reduce((a: number, m: Obj) => a + n(m.inputTokens) + n(m.cacheReadInputTokens) + n(m.cacheCreationInputTokens), 0);
    const recordedOut = Object.values(cs.modelUsage as Obj).reduce((a: number, m: Obj) => a + n(m.outputTokens), 0);
    assert.deepEqual([s.usage.total.inputTokens, s.usage.total.outputTokens], [recordedIn, recordedOut]);
    assert.equal(s.origin, undefined, 'a resume is no fork');
  });
});

describe('a forked Codex session (codex exec fork <id>, real files)', () => {
  it('is linked to its origin: forked_from_id, the ordinal it starts from, the origin\'s file beside it', async () => {
    const meta = linesOf(codexForkFile)[0].payload;
    const s = await summarizeSession(await loadTrace(codexForkFile));
    assert.deepEqual(s.origin, { relation: 'fork', sessionId: meta.forked_from_id, inheritedEvents: 0, inheritedLines: null, upToOrdinal: meta.forked_from_ordinal_exclusive, file: codexOriginFile });
    assert.equal(linesOf(codexOriginFile)[0].payload.id, meta.forked_from_id);
    assert.equal(basename(dirname(codexOriginFile)), basename(dirname(codexForkFile)));
  });

  it('counts the origin\'s share of the running totals once: origin + fork = the fork\'s running total', async () => {
    const f = await summarizeSession(await loadTrace(codexForkFile));
    const o = await summarizeSession(await loadTrace(codexOriginFile));
    const last = (p: string) => linesOf(p).filter((v) => v.payload?.type === 'token_count' && v.payload.info?.total_token_usage).pop()!.payload.info.total_token_usage;
    const written = last(codexForkFile);
    assert.equal(o.totals.inputTokens! + f.totals.inputTokens!, written.input_tokens);
    assert.equal(o.totals.outputTokens! + f.totals.outputTokens!, written.output_tokens);
    assert.deepEqual([f.totals.inputTokens, f.totals.outputTokens], [f.usage.total.inputTokens, f.usage.total.outputTokens], 'totals and usage agree');
    assert.match(f.usage.explain.notes.join('\n'), /forked from session .* running totals/);
    assert.deepEqual((await runAll(codexForkFile, 'check')).filter((x) => x.severity !== 'info' || x.rule === 'generic/usage-totals'), []);
  });

  it('no other Codex rollout of the corpus is a fork', async () => {
    for (const p of writerFiles('codex').filter((x) => x !== codexForkFile)) assert.equal((await loadTrace(p)).origin ?? null, null, p);
  });
});


describe('a fork\'s origin named by hostile or odd values', () => {
  it('a Codex forked_from_id that is a path is named as written, with no file; an ordinal that is no number is left out', async () => {
    const bad = mutateLines(codexForkFile, (ls) => editJson(ls, 0, (v) => {
      v.payload.forked_from_id = '../../../etc/passwd';
      v.payload.forked_from_ordinal_exclusive = 'fourteen';
      delete v.payload.history_base;
    }), basename(codexForkFile));
    const s = await summarizeSession(await loadTrace(bad));
    assert.deepEqual(s.origin, { relation: 'fork', sessionId: '../../../etc/passwd', inheritedEvents: 0, inheritedLines: null, upToOrdinal: null, file: null });
  });

  it('a Claude Code copy whose requestSessionId is not a string still reads as inherited, its origin unnamed', async () => {
    const lines = linesOf(forkFile);
    const k = lines.findIndex((v) => typeof v.requestSessionId === 'string' && v.requestSessionId !== v.sessionId);
    const bad = mutateLines(forkFile, (ls) => editJson(ls, k, (v) => (v.requestSessionId = { constructor: 1 })), basename(forkFile));
    const s = await summarizeSession(await loadTrace(bad));
    assert.equal(s.origin?.sessionId, null);
    assert.ok(s.origin!.inheritedEvents > 0);
    assert.equal(s.origin!.file, null);
    assert.match(s.usage.explain.notes.join('\n'), /the session it was forked from/);
  });
});
