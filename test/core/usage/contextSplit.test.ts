import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTrace } from '../../../src/core/loadTrace';
import { usageRollupOf } from '../../../src/core/usage/rollup';
import { ContextCall, contextCallOf, contextSeries, contextSplit } from '../../../src/core/usage/contextSplit';
import type { TraceModel } from '../../../src/core/traceModel';
import { writerFiles } from '../../helpers/writerCorpus';

type Obj = Record<string, any>;
const rawLines = (path: string): string[] => readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '');
const linesOf = (path: string): Obj[] => rawLines(path).map((l) => JSON.parse(l));
const n = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** What the test expects of one call, worked out from the raw lines apart from the reader. */
interface Expected {
  thread: string;
  total: number;
  cacheRead: number;
  cacheWrite: number;
  uncached: number;
  delta: number | null;
}

/** Adds each thread's delta (its call's total minus the previous one's of the same thread). */
function withDeltas(calls: Omit<Expected, 'delta'>[]): Expected[] {
  const last = new Map<string, number>();
  return calls.map((c) => {
    const prev = last.get(c.thread);
    last.set(c.thread, c.total);
    return { ...c, delta: prev === undefined ? null : c.total - prev };
  });
}

/**
 * A Claude Code transcript: one call per message.id (in the order of its first line), at the usage of its LAST line
 * (Claude Code writes a line per content block, each with a snapshot). Context = input + cache read + cache creation.
 */
function claudeExpected(path: string): Expected[] {
  const order: string[] = [];
  const last = new Map<string, { thread: string; u: Obj }>();
  linesOf(path).forEach((v, k) => {
    if (v.type !== 'assistant' || !v.message?.usage) return;
    // A fork's copy of its origin's response (`requestSessionId`, the origin's id) is the origin's call, not the fork's.
    if (typeof v.requestSessionId === 'string' && v.requestSessionId !== v.sessionId) return;
    const id = v.message.id ?? `line ${k}`;
    if (!last.has(id)) order.push(id);
    last.set(id, { thread: v.isSidechain === true ? `${v.sessionId}/sidechain` : v.sessionId, u: v.message.usage });
  });
  return withDeltas(order.map((id) => {
    const { thread, u } = last.get(id)!;
    const cacheRead = n(u.cache_read_input_tokens);
    const cacheWrite = n(u.cache_creation_input_tokens);
    return { thread, total: n(u.input_tokens) + cacheRead + cacheWrite, cacheRead, cacheWrite, uncached: n(u.input_tokens) };
  }));
}

/** A Codex rollout: one call per `token_count` whose running total moved (0.60 writes each twice), its `last_token_usage`. */
function codexExpected(path: string): Expected[] {
  const out: Omit<Expected, 'delta'>[] = [];
  let session = '';
  let lastTotal = '';
  for (const v of linesOf(path)) {
    if (v.type === 'session_meta') session = v.payload?.id ?? session;
    const info = v.type === 'event_msg' && v.payload?.type === 'token_count' ? v.payload.info : null;
    if (!info?.last_token_usage) continue;
    const total = JSON.stringify(info.total_token_usage);
    if (total === lastTotal) continue;
    lastTotal = total;
    const u = info.last_token_usage;
    const cacheRead = n(u.cached_input_tokens);
    const cacheWrite = n(u.cache_write_input_tokens);
    out.push({ thread: session, total: n(u.input_tokens), cacheRead, cacheWrite, uncached: n(u.input_tokens) - cacheRead - cacheWrite });
  }
  return withDeltas(out);
}

/** A Gemini CLI chat: one call per `gemini` message id (a rewritten message at its last version); prompt includes cached. */
function geminiExpected(path: string): Expected[] {
  let session = '';
  const order: string[] = [];
  const last = new Map<string, Obj>();
  for (const v of linesOf(path)) {
    if (typeof v.sessionId === 'string' && session === '') session = v.sessionId;
    if (v.type !== 'gemini' || !v.tokens) continue;
    if (!last.has(v.id)) order.push(v.id);
    last.set(v.id, v.tokens);
  }
  return withDeltas(order.map((id) => {
    const t = last.get(id)!;
    return { thread: session, total: n(t.input), cacheRead: n(t.cached), cacheWrite: 0, uncached: n(t.input) - n(t.cached) };
  }));
}

const actual = (calls: readonly ContextCall[]): Expected[] =>
  calls.map((c) => ({ thread: c.thread ?? '', total: c.total, cacheRead: c.cacheRead, cacheWrite: c.cacheWrite, uncached: c.uncached, delta: c.delta }));

async function splitOf(path: string): Promise<{ model: TraceModel; calls: ContextCall[] }> {
  const model = await loadTrace(path);
  return { model, calls: contextSplit(model, usageRollupOf(model)).calls };
}

describe('usage: the context split of each model call (what the model saw)', () => {
  const claude = writerFiles('claude-code').filter((p) => p.includes(join('projects', '')));
  const codex = writerFiles('codex').filter((p) => p.includes(join('sessions', '')));
  const gemini = writerFiles('gemini-cli').filter((p) => p.includes(join('chats', '')));

  it('finds the real-writer files', () => {
    assert.ok(claude.length >= 6, claude.join('\n'));
    assert.ok(codex.length >= 4, codex.join('\n'));
    assert.ok(gemini.length >= 4, gemini.join('\n'));
  });

  it('Claude Code: one call per message at its last snapshot, split into cache read, cache write and new input', async () => {
    for (const path of claude) {
      const want = claudeExpected(path);
      const { calls } = await splitOf(path);
      // The file's own threads (a session may show its subagents inside: those are under their Agent call).
      const threads = new Set(want.map((w) => w.thread));
      assert.deepEqual(actual(calls.filter((c) => c.via === -1 && threads.has(c.thread ?? ''))), want, path);
      assert.ok(want.length > 0, path);
    }
  });

  it('Codex: one call per token_count, cached input inside the input', async () => {
    for (const path of codex) {
      const want = codexExpected(path);
      assert.ok(want.length > 0, path);
      assert.deepEqual(actual((await splitOf(path)).calls), want, path);
    }
  });

  it('Gemini CLI: one call per model message, cached prompt tokens inside the prompt', async () => {
    for (const path of gemini) {
      const want = geminiExpected(path);
      assert.ok(want.length > 0, path);
      assert.deepEqual(actual((await splitOf(path)).calls), want, path);
    }
  });

  it('Claude Code stream-json: a subagent\'s calls are their own thread, the main thread\'s delta skips them', async () => {
    const path = writerFiles('claude-code').find((p) => p.includes(join('subagent', 'stream-json.jsonl')))!;
    const { calls } = await splitOf(path);
    const main = calls.filter((c) => c.via === -1);
    const sub = calls.filter((c) => c.via !== -1);
    assert.equal(main.length, 3);
    assert.equal(sub.length, 2);
    assert.deepEqual(main.map((c) => c.delta), [null, main[1].total - main[0].total, main[2].total - main[1].total]);
    assert.equal(sub[0].delta, null);
    assert.deepEqual(sub.map((c) => `${c.ordinal}/${c.ofThread}`), ['1/2', '2/2']);
  });

  it('the detail of a Codex response item finds the call its token_count records; a tool call has none', async () => {
    const cx = await splitOf(codex.find((p) => p.includes('shell-ok'))!);
    const r = usageRollupOf(cx.model);
    const t = cx.model.events;
    const reasoning = [...Array(t.size).keys()].find((i) => t.kindOf(i) === 'reasoning')!;
    assert.equal(contextCallOf(cx.model, r, reasoning), cx.calls[0]);
    // The response's message item (its usage on the token_count of its step; the step's row is Codex's UI copy).
    const message = [...Array(t.size).keys()].find((i) => t.kindOf(i) === 'message' && t.usageFactsOf(i)?.elsewhere === true)!;
    assert.equal(contextCallOf(cx.model, r, message), cx.calls[1]);
    const tool = [...Array(t.size).keys()].find((i) => t.categoryOf(i) === 'tool')!;
    assert.equal(contextCallOf(cx.model, r, tool), null);
  });

  describe('compaction points', () => {
    let dir = '';
    before(() => (dir = mkdtempSync(join(tmpdir(), 'context-split-'))));
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('Claude Code: a compact_boundary between two calls is marked on the next call with the tokens before it', async () => {
      // The real transcript with a boundary line, as Claude Code writes one, after its first response.
      const src = claude.find((p) => p.includes('subagent') && !p.includes('subagents'))!;
      const lines = rawLines(src);
      const v = linesOf(src);
      const firstMsg = v.find((x) => x.type === 'assistant')!.message.id;
      const after = v.map((x, k) => (x.type === 'assistant' && x.message.id === firstMsg ? k : -1)).filter((k) => k >= 0).pop()!;
      const boundary = { parentUuid: null, logicalParentUuid: v[after].uuid, isSidechain: false, type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', level: 'info', compactMetadata: { trigger: 'manual', preTokens: 5038 }, uuid: 'c0mpact0-0000-4000-8000-000000000001', timestamp: v[after].timestamp, sessionId: v[after].sessionId };
      lines.splice(after + 1, 0, JSON.stringify(boundary));
      const path = join(dir, `${v[after].sessionId}.jsonl`);
      writeFileSync(path, lines.join('\n') + '\n');
      const { model, calls } = await splitOf(path);
      const split = contextSplit(model, usageRollupOf(model));
      assert.equal(split.compactions.length, 1);
      assert.equal(split.compactions[0].preTokens, 5038);
      assert.equal(split.compactions[0].trigger, 'manual');
      assert.equal(split.compactions[0].line, after + 2);
      const main = calls.filter((c) => c.via === -1);
      assert.deepEqual(main.map((c) => c.compactedBefore.length), [0, 1, 0]);
      assert.equal(main[1].compactedBefore[0].preTokens, 5038);
      // The sparkline's series: one point per call, the compaction before the second; cut to two points, the first
      // stands for the first two calls (their larger context).
      const [series] = contextSeries(split).filter((x) => x.via === -1);
      assert.deepEqual(series.points, main.map((c) => c.total));
      assert.deepEqual(series.compactions, [1]);
      assert.deepEqual([series.first, series.last, series.calls], [main[0].total, main[2].total, 3]);
      const peak = main.reduce((a, b) => (b.total > a.total ? b : a));
      assert.deepEqual(series.peak, { total: peak.total, index: peak.index, line: peak.line });
      const [cut] = contextSeries(split, 20, 2).filter((x) => x.via === -1);
      assert.deepEqual(cut.points, [Math.max(main[0].total, main[1].total), main[2].total]);
      assert.deepEqual(cut.compactions, [0]);
    });

    it('Claude Code: a response\'s later text line (same message.id) shows its first line\'s call', async () => {
      // The real transcript with its first response's tool_use line turned into a second text block.
      const src = claude.find((p) => p.includes('subagent') && !p.includes('subagents'))!;
      const v = linesOf(src);
      const firstMsg = v.find((x) => x.type === 'assistant')!.message.id;
      const lines = v.map((x) => {
        if (x.type === 'assistant' && x.message.id === firstMsg && x.message.content[0]?.type === 'tool_use') x.message.content = [{ type: 'text', text: 'and more' }];
        return JSON.stringify(x);
      });
      const path = join(dir, `${v[0].sessionId ?? 'session'}-text.jsonl`);
      writeFileSync(path, lines.join('\n') + '\n');
      const { model, calls } = await splitOf(path);
      const t = model.events;
      const second = [...Array(t.size).keys()].find((i) => i !== calls[0].index && t.categoryOf(i) === 'inference' && t.labelOf(i).includes('and more'));
      assert.ok(second !== undefined);
      assert.equal(contextCallOf(model, usageRollupOf(model), second), calls[0]);
    });

    it('Codex: a compacted item is marked on the next call', async () => {
      const src = codex.find((p) => p.includes('shell-ok'))!;
      const lines = rawLines(src);
      const v = linesOf(src);
      const first = v.findIndex((x) => x.type === 'event_msg' && x.payload?.type === 'token_count');
      lines.splice(first + 1, 0, JSON.stringify({ timestamp: v[first].timestamp, type: 'compacted', payload: { message: 'summary of the conversation so far' } }));
      const path = join(dir, 'rollout-compacted.jsonl');
      writeFileSync(path, lines.join('\n') + '\n');
      const { calls } = await splitOf(path);
      assert.deepEqual(calls.map((c) => c.compactedBefore.length), [0, 1]);
      assert.equal(calls[1].compactedBefore[0].preTokens, null);
    });
  });
});
