import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { summarize, summarizeSession } from '../../src/core/summary';
import { usageReport } from '../../src/core/usage/usageReport';
import { writerFiles } from '../helpers/writerCorpus';
import { claudeCountedByHand as countedByHand } from '../helpers/claudeByHand';

type Obj = Record<string, any>;
const linesOf = (path: string): Obj[] => readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
const n = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** A session file's subagent files, found apart from the reader: `<session>/subagents/agent-*.jsonl`. */
function subagentsOf(session: string): string[] {
  const dir = join(dirname(session), basename(session, '.jsonl'), 'subagents');
  try {
    return readdirSync(dir).filter((f) => /^agent-.+\.jsonl$/.test(f)).sort().map((f) => join(dir, f));
  } catch {
    return [];
  }
}

const sessions = writerFiles('claude-code').filter((p) => /projects[\\/][^\\/]+[\\/][0-9a-f-]{36}\.jsonl$/.test(p));
const withSubagents = sessions.filter((s) => subagentsOf(s).length > 0);

describe('session usage: a Claude Code session counts its subagents, each response once', () => {
  it('finds the real-writer sessions, one with a subagent', () => {
    assert.ok(sessions.length >= 5, sessions.join('\n'));
    assert.ok(withSubagents.length >= 1, 'the corpus has a session with subagents/');
  });

  for (const path of sessions) {
    it(`${path.slice(path.indexOf('test'))}: usage = every message of the session's files once; totals agree`, async () => {
      const files = [path, ...subagentsOf(path)];
      const want = countedByHand(files);
      const s = await summarizeSession(await loadTrace(path));
      const u = s.usage;
      assert.deepEqual(
        [u.total.inputTokens, u.total.outputTokens, u.total.cacheReadTokens, u.total.cacheWriteTokens],
        [want.input, want.output, want.cacheRead, want.cacheWrite],
      );
      assert.equal(u.byModel.reduce((a, m) => a + m.calls, 0), want.responses, 'one call per response');
      assert.deepEqual([s.totals.inputTokens, s.totals.outputTokens], [u.total.inputTokens, u.total.outputTokens], 'totals and usage agree');
      assert.deepEqual(u.explain.files.map((f) => basename(f.file)), files.map((f) => basename(f)), 'explain lists the files summed');
      assert.equal(u.explain.records, want.responses);
      assert.equal(u.explain.snapshotsReplaced, want.repeats, 'later snapshots of a response are folded, and counted as such');
      assert.equal(u.explain.files.reduce((a, f) => a + (f.inputTokens ?? 0), 0), want.input, 'the breakdown adds up to the total');
    });
  }

  it('the session\'s recorded cost (cost-state, subagents included) is counted once, not plus the subagent\'s', async () => {
    for (const path of withSubagents) {
      const costState = linesOf(path).filter((v) => v.type === 'cost-state').pop();
      assert.ok(costState, 'the transcript records its cost');
      const model = await loadTrace(path);
      const s = await summarizeSession(model);
      assert.equal(s.usage.total.costUsd, costState!.totalCostUSD);
      assert.equal(s.totals.costUsd, s.usage.total.costUsd);
      assert.equal(s.usage.explain.files[0].costCoversSession, true);
      const sub = s.usage.explain.files[1];
      assert.equal(sub.role, 'subagent');
      assert.ok(sub.costUsd !== null && sub.costUsd > 0, 'the subagent\'s own cost is in its row');
      assert.match(s.usage.explain.cost, /not added again/);
      // The subagent row names the Agent call that started it, which the session file holds.
      const agentCalls = linesOf(path).flatMap((v) => (v.type === 'assistant' ? (v.message?.content ?? []) : [])).filter((c: Obj) => c.type === 'tool_use').map((c: Obj) => c.id);
      assert.ok(agentCalls.includes(sub.toolUseId), `${sub.toolUseId} is a tool call of the session`);
      // The file alone (what the sync summary counts) leaves the subagent out: the session total is larger.
      assert.ok(usageReport(model).total.inputTokens! < s.usage.total.inputTokens!);
    }
  });

  describe('on copies of a session', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'session-usage-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    function copySession(): string {
      const src = withSubagents[0];
      const to = join(dir, basename(src));
      cpSync(src, to);
      cpSync(join(dirname(src), basename(src, '.jsonl')), join(dir, basename(src, '.jsonl')), { recursive: true });
      return to;
    }

    it('a copy outside its tool\'s folder still counts its subagents', async () => {
      const copy = copySession();
      const s = await summarizeSession(await loadTrace(copy));
      assert.equal(s.usage.explain.files.length, 2);
      assert.deepEqual([s.totals.inputTokens, s.totals.outputTokens], [s.usage.total.inputTokens, s.usage.total.outputTokens]);
    });

    it('without its subagents folder the file counts alone, and says so', async () => {
      const copy = copySession();
      rmSync(join(dir, basename(copy, '.jsonl')), { recursive: true });
      const s = await summarizeSession(await loadTrace(copy));
      assert.equal(s.usage.explain.files.length, 1);
      assert.deepEqual(s.usage.total, summarize(await loadTrace(copy)).usage.total);
    });

    it('an unreadable subagent file is listed with its error and the usage is not complete', async () => {
      const copy = copySession();
      mkdirSync(join(dir, basename(copy, '.jsonl'), 'subagents', 'agent-broken.jsonl'));
      const s = await summarizeSession(await loadTrace(copy));
      const broken = s.usage.explain.files.find((f) => basename(f.file) === 'agent-broken.jsonl');
      assert.ok(broken?.error, JSON.stringify(s.usage.explain.files));
      assert.equal(s.usage.complete, false);
      assert.ok(s.usage.explain.notes.some((x) => /could not be read/.test(x)));
    });

    it('a cost-state written before the subagent ran (it covers the main file only): the subagent\'s cost is added to it', async () => {
      const copy = copySession();
      const own = usageReport(await loadTrace(copy)).explain.files[0];
      // The cost-state as Claude Code would have written it before the subagent: this file's tokens, a cost of 0.01.
      const edited = readFileSync(copy, 'utf8').split('\n').map((l) => {
        if (!l.includes('"type":"cost-state"')) return l;
        const v = JSON.parse(l);
        const cacheRead = own.cacheReadTokens!;
        const cacheWrite = own.cacheWriteTokens!;
        for (const m of Object.values(v.modelUsage) as Obj[]) {
          Object.assign(m, { inputTokens: own.inputTokens! - cacheRead - cacheWrite, outputTokens: own.outputTokens, cacheReadInputTokens: cacheRead, cacheCreationInputTokens: cacheWrite, costUSD: 0.01 });
        }
        v.totalCostUSD = 0.01;
        return JSON.stringify(v);
      });
      writeFileSync(copy, edited.join('\n'));
      const s = await summarizeSession(await loadTrace(copy));
      const sub = s.usage.explain.files[1];
      assert.ok(Math.abs(s.usage.total.costUsd! - (0.01 + sub.costUsd!)) < 1e-12, `${s.usage.total.costUsd} = 0.01 + ${sub.costUsd}`);
      assert.match(s.usage.explain.notes.join(' '), /cover this file only/);
    });

    it('a session file that records no cost: each file\'s cost is added once', async () => {
      const copy = copySession();
      // Drop the cost-state line: the session file then records no cost, and every file is priced from its events.
      writeFileSync(copy, readFileSync(copy, 'utf8').split('\n').filter((l) => !l.includes('"type":"cost-state"')).join('\n'));
      const s = await summarizeSession(await loadTrace(copy));
      const [main, sub] = s.usage.explain.files;
      assert.equal(main.costCoversSession, undefined);
      assert.ok(Math.abs(s.usage.total.costUsd! - (main.costUsd! + sub.costUsd!)) < 1e-12, 'each file\'s cost added once');
    });
  });
});

describe('session usage: explain says what was summed', () => {
  it('a Codex rollout written with every token_count twice: the repeats are counted as dropped', async () => {
    const doubled = resolve(__dirname, '..', 'fixtures', 'usage', 'rollout-2026-12-01T16-25-02-01a2326c-844c-72a2-8812-0ecf1e720fa2.jsonl');
    const lines = linesOf(doubled).filter((v) => v.payload?.type === 'token_count' && v.payload?.info);
    const distinct = new Set(lines.map((v) => JSON.stringify(v.payload.info.total_token_usage)));
    const u = usageReport(await loadTrace(doubled));
    assert.equal(u.explain.duplicatesDropped, lines.length - distinct.size);
    assert.ok(u.explain.duplicatesDropped > 0);
    assert.equal(u.explain.snapshotsReplaced, 0);
  });

  it('an unpriced model: its tokens and their share are named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'unpriced-'));
    try {
      const src = sessions[0];
      const copy = join(dir, basename(src));
      writeFileSync(copy, readFileSync(src, 'utf8').replace(/"model":"claude-[^"]+"/g, '"model":"claude-unreleased-9"').split('\n').filter((l) => !l.includes('"type":"cost-state"')).join('\n'));
      const u = usageReport(await loadTrace(copy));
      assert.equal(u.explain.unpricedTokens[0]?.model, 'claude-unreleased-9');
      assert.equal(u.explain.unpricedShare, 1);
      assert.equal(u.explain.unpricedTokens[0].tokens, u.total.inputTokens! + u.total.outputTokens!);
      assert.match(u.explain.cost, /unknown/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('session usage: a stream-json run whose background subagent streamed placeholder output counts', () => {
  it('the subagent scenario\'s stdout adds up to its transcript session (main file and subagent file), totals and usage alike', async () => {
    const stream = writerFiles('claude-code').find((p) => p.endsWith(join('subagent', 'stream-json.jsonl')))!;
    const session = withSubagents.find((p) => p.includes(`${join('subagent', 'projects')}`))!;
    const want = countedByHand([session, ...subagentsOf(session)]);
    const s = await summarizeSession(await loadTrace(stream));
    assert.deepEqual([s.usage.total.inputTokens, s.usage.total.outputTokens], [want.input, want.output], 'usage: the session\'s, its subagent\'s output included');
    assert.deepEqual([s.totals.inputTokens, s.totals.outputTokens], [want.input, want.output], 'totals agree');
  });

  it('a resumed run\'s stdout keeps its own results: the session\'s totals there include the run before it', async () => {
    const second = writerFiles('claude-code').find((p) => p.endsWith(join('resume', 'stream-json-2.jsonl')))!;
    const results = linesOf(second).filter((v) => v.type === 'result');
    const own = results.reduce((a, v) => a + n(v.usage.output_tokens), 0);
    const s = await summarizeSession(await loadTrace(second));
    assert.equal(s.usage.total.outputTokens, own);
    assert.equal(s.totals.outputTokens, own);
  });
});
