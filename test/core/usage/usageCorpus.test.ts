import { strict as assert } from 'node:assert';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrace } from '../../../src/core/loadTrace';
import { usageReport } from '../../../src/core/usage/usageReport';
import { usageMismatches } from '../../../src/core/usage/usageChecks';
import { summarize } from '../../../src/core/summary';
import { corpusPath, WRITER_CORPUS } from '../../helpers/corpus';

const writer = (...p: string[]): string => join(WRITER_CORPUS, ...p);
/** The one transcript file a case's projects/<cwd>/ folder holds. */
function transcript(tool: string, scenario: string): string {
  const dir = writer(tool, scenario, 'projects', '-home-user-project');
  return join(dir, readdirSync(dir).find((n) => n.endsWith('.jsonl'))!);
}
function rollout(scenario: string): string {
  const dir = writer('codex-0.171.0', scenario, 'sessions', '2026', '12', '01');
  return join(dir, readdirSync(dir).find((n) => n.startsWith('rollout-'))!);
}
const close = (a: number | null, b: number): void => assert.ok(a !== null && Math.abs(a - b) < 1e-9, `${a} ≈ ${b}`);

// Every expected number below is summed by hand from the file's lines (see each comment).
describe('usage rollups on real files, checked against their own totals lines', () => {
  it('murmur: two inferences (812+871 in, 64+12 out) = task_end = session_end; priced at claude-sonnet-4-5 $3/$15', async () => {
    const m = await loadTrace(corpusPath('murmur', 'ses_39263059f28c105d1fb17c2390c192cf', 'trace.jsonl'));
    const u = usageReport(m);
    assert.deepEqual([u.total.inputTokens, u.total.outputTokens, u.total.cacheReadTokens], [1683, 76, 0]);
    assert.equal(u.total.scope, 'events', 'task_end and session_end do not add to the inferences');
    close(u.total.costUsd, (1683 * 3 + 76 * 15) / 1e6);
    assert.deepEqual(u.byModel.map((x) => [x.model, x.calls, x.costSource]), [['claude-sonnet-4-5', 2, 'table']]);
    assert.deepEqual(u.byTool.map((x) => [x.tool, x.calls, x.errors]), [['bash', 1, 0]]);
    assert.equal(u.complete, true);
    assert.equal(u.priced, 1);
    assert.deepEqual(usageMismatches(m), [], 'session_end 1683/76 and task_end 1683/76 agree');
  });

  it('OTLP (otel-js): each invoke_agent span carries 3808/105, its chat spans 1840+1968 / 64+41: counted once', async () => {
    const m = await loadTrace(writer('otel-js-2.12.1', 'otlp-traces.json'));
    const u = usageReport(m);
    assert.deepEqual([u.total.inputTokens, u.total.outputTokens], [2 * 3808, 2 * 105]);
    assert.deepEqual(u.byModel.map((x) => [x.model, x.calls]), [['gpt-5-2025-08-07', 4]], 'the aggregates are not calls');
    close(u.total.costUsd, (7616 * 1.25 + 210 * 10) / 1e6);
    assert.deepEqual(u.byTool.map((x) => [x.tool, x.calls, x.errors, x.durationMs, x.p50Ms, x.p95Ms]), [['shell', 2, 1, 160, 60, 100]]);
    assert.deepEqual(usageMismatches(m), [], 'the agent spans agree with their calls');
    const s = summarize(m);
    assert.deepEqual([s.totals.inputTokens, s.totals.outputTokens], [7616, 210], 'the summary no longer adds the agent spans to their calls (was 15232/420)');
  });

  it('Claude Code stream-json: input from the assistant lines (747+4231, 507+252+4296), output from the result (49, not 1+1)', async () => {
    const m = await loadTrace(writer('claude-code-2.1.332', 'shell-ok', 'stream-json.jsonl'));
    const u = usageReport(m);
    assert.deepEqual([u.total.inputTokens, u.total.outputTokens, u.total.cacheReadTokens, u.total.cacheWriteTokens], [10033, 49, 4296, 4483]);
    assert.deepEqual(u.total.fromTotalsLines, ['outputTokens', 'reasoningTokens']);
    assert.equal(u.total.scope, 'events and totals lines');
    // claude-opus-5-5 (the mock's model) is in no price table: the cost is the one the result line records.
    assert.deepEqual(u.byModel.map((x) => [x.model, x.calls, x.costSource]), [['claude-opus-5-5', 2, 'trace']]);
    close(u.total.costUsd, 0.0292702);
    assert.equal(u.complete, true);
    for (let i = 0; i < m.events.size; i++) if (m.events.kindOf(i) === 'assistant') assert.equal(m.events.get(i).tokensOut, null, 'a stream-start output count is not the response\'s');
    assert.deepEqual(usageMismatches(m), []);
  });

  it('Claude Code stream-json with a background subagent: the session\'s totals (modelUsage) stand for the output its streamed lines leave out', async () => {
    const m = await loadTrace(writer('claude-code-2.1.332', 'subagent', 'stream-json.jsonl'));
    const u = usageReport(m);
    // Five responses: (747+4229), (534+267+4539), (547+3095), (413+205+3497), (576+287+4888).
    assert.equal(u.total.inputTokens, 4976 + 5340 + 3642 + 4115 + 5751);
    // The results' own usage (82 + 12) leaves out the subagent's 47, which its streamed lines carry as placeholders;
    // the session's modelUsage (23,824 in, all five responses) has them: the file is the whole session.
    assert.equal(u.total.outputTokens, 82 + 12 + 47);
    assert.deepEqual(usageMismatches(m), [], 'the events agree with the totals (was: 23,824 input tokens, it records 16,067)');
  });

  it('Claude Code transcript: a response split over two lines counts once (747+4231 / 39, then 507+252+4296 / 10)', async () => {
    const m = await loadTrace(transcript('claude-code-2.1.332', 'shell-ok'));
    const u = usageReport(m);
    assert.deepEqual([u.total.inputTokens, u.total.outputTokens, u.total.cacheReadTokens, u.total.cacheWriteTokens, u.total.reasoningTokens], [10033, 49, 4296, 4483, 0]);
    assert.equal(u.complete, true, 'the second line of the split response is not a gap');
    close(u.total.costUsd, 0.0292702);
    assert.deepEqual(usageMismatches(m), [], 'cost-state modelUsage 1254+4296+4483 / 49 agrees');
  });

  it('Claude Code transcript after --resume: its two cost-state lines are running totals, the last one is checked, none summed', async () => {
    const m = await loadTrace(transcript('claude-code-2.1.332', 'resume'));
    const u = usageReport(m);
    // Two responses: 746 + 4227 cache write / 7 out, then 3 + 4256 cache write + 4256 cache read / 11 out.
    assert.deepEqual([u.total.inputTokens, u.total.outputTokens, u.total.cacheReadTokens], [13488, 18, 4256]);
    assert.deepEqual(usageMismatches(m), [], 'the last cost-state (13,488 / 18) agrees; summing both said 18,461 / 25');
  });

  it('Codex rollout: token_count responses (9155+9302 in, 69+10 out) agree with the last total_token_usage', async () => {
    const m = await loadTrace(rollout('shell-ok'));
    const u = usageReport(m);
    assert.deepEqual([u.total.inputTokens, u.total.outputTokens, u.total.cacheReadTokens, u.total.reasoningTokens], [18457, 79, 7424, 52]);
    // gpt-5.5 at the bundled price ($5 in, $0.50 cached, $30 out; test/core/usage/prices.test.ts reads them from the package).
    assert.deepEqual(u.byModel.map((x) => [x.model, x.calls, x.costSource]), [['gpt-5.5', 2, 'table']]);
    close(u.total.costUsd, ((18457 - 7424) * 5 + 7424 * 0.5 + 79 * 30) / 1e6);
    assert.equal(u.priced, 1);
    assert.equal(u.complete, true);
    assert.deepEqual(usageMismatches(m), []);
  });

  it('Codex exec --json: the turn.completed usage (18457 / 79, 7424 cached, 52 reasoning)', async () => {
    const u = usageReport(await loadTrace(writer('codex-0.171.0', 'shell-ok', 'exec.jsonl')));
    assert.deepEqual([u.total.inputTokens, u.total.outputTokens, u.total.cacheReadTokens, u.total.reasoningTokens], [18457, 79, 7424, 52]);
    assert.equal(u.complete, true);
  });

  it('Gemini CLI recording: thoughts priced as output beside it, cache reads at the cache rate (11724+11846 in, 8884 cached, 35+13 out, 39 thoughts)', async () => {
    const dir = writer('gemini-cli-0.61.0', 'shell-ok', 'tmp', 'project', 'chats');
    const u = usageReport(await loadTrace(join(dir, readdirSync(dir)[0])));
    assert.deepEqual([u.total.inputTokens, u.total.outputTokens, u.total.cacheReadTokens, u.total.reasoningTokens], [23570, 48, 8884, 39]);
    // gemini-2.5-pro at the bundled price: $1.25 in, $0.125 cached, $10 out, its 39 thoughts billed as output.
    close(u.total.costUsd, ((23570 - 8884) * 1.25 + 8884 * 0.125 + (48 + 39) * 10) / 1e6);
    assert.equal(u.priced, 1);
  });

  it('Gemini CLI stream-json: only the result stats report usage: the total comes from that totals line', async () => {
    const u = usageReport(await loadTrace(writer('gemini-cli-0.61.0', 'shell-ok', 'stream-json.jsonl')));
    assert.equal(u.total.scope, 'totals lines');
    assert.deepEqual([u.total.inputTokens, u.total.outputTokens, u.total.cacheReadTokens], [23570, 48, 8884]);
    assert.equal(u.complete, true);
  });

  it('deepstrike: output from llm_completed (8 messages, 320), input never measured, 16,880 from run_terminal', async () => {
    const dir = join(__dirname, '..', '..', '..', 'samples', 'deepstrike', '.sessions');
    const m = await loadTrace(join(dir, readdirSync(dir)[0]));
    const u = usageReport(m);
    assert.deepEqual([u.total.inputTokens, u.total.outputTokens, u.total.totalTokens], [null, 320, 16880]);
    assert.deepEqual(u.total.fromTotalsLines, ['totalTokens']);
    assert.equal(u.complete, false, 'input is not known');
    assert.equal(u.total.costUsd, null, 'a call without its input is unpriced, not under-priced');
    assert.equal(summarize(m).totals.inputTokens, null, 'no "0 in" for input nothing measured');
  });
});
