import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { corpusPath } from '../helpers/corpus';
import { tempFile } from '../helpers/tmp';
import { requireBuiltCli, runCli as cli } from '../helpers/cli';

const MURMUR = corpusPath('murmur', 'ses_39263059f28c105d1fb17c2390c192cf', 'trace.jsonl');

describe('agent-trace summary: usage', () => {
  before(requireBuiltCli);

  it('--json gains usage (total, byModel, byTool, complete, priced) and keeps every other field', () => {
    const j = JSON.parse(cli('summary', '--json', MURMUR).out);
    for (const k of ['file', 'format', 'confidence', 'detectedBy', 'events', 'lines', 'blankLines', 'malformedLines', 'groups', 'roots', 'startTime', 'endTime', 'durationMs', 'totals', 'kinds', 'diagnostics']) assert.ok(k in j, k);
    assert.deepEqual(j.usage.byModel, [{
      model: 'claude-sonnet-4-5', inputTokens: 1683, outputTokens: 76, cacheReadTokens: 0, cacheWriteTokens: null, reasoningTokens: null,
      totalTokens: 1759, costUsd: j.usage.byModel[0].costUsd, calls: 2, costSource: 'table', retries: 0,
    }]);
    assert.ok(Math.abs(j.usage.byModel[0].costUsd - 0.006189) < 1e-12);
    assert.deepEqual(j.usage.byTool, [{ tool: 'bash', calls: 1, errors: 0, durationMs: 9, p50Ms: 9, p95Ms: 9, retries: 0 }]);
    assert.deepEqual(j.usage.retries, { total: 0, source: 'inferred' }, 'murmur records retries as harness_retry; this run has none and nothing failed');
    assert.equal(j.usage.complete, true);
    assert.equal(j.usage.priced, 1);
    assert.equal(j.usage.total.inputTokens, j.totals.inputTokens);
  });

  it('the text output shows usage as tables', () => {
    const out = cli('summary', MURMUR).out;
    assert.match(out, /^usage: +complete \(events, 100% priced; prices of \d{4}-\d{2}-\d{2}: @pydantic\/genai-prices \d+\.\d+\.\d+\)$/m);
    assert.match(out, /^retries: +0 \(inferred: a call after a failed call of the same tool or model\)$/m);
    assert.match(out, /^model +calls +input +output +cache read +cache write +cost +retries$/m);
    assert.match(out, /^claude-sonnet-4-5 +2 +1,683 +76 +0 +\? +\$0\.0062 +0$/m);
    assert.match(out, /^bash +1 +0 +0 +9 ms +9 ms +9 ms$/m);
  });

  it('the text output names an unpriced model and says how to price it', () => {
    const out = cli('summary', corpusPath('agentledger', 'approval-denied', 'events.jsonl')).out;
    assert.match(out, /^unpriced: +mock-llm: not in the bundled prices \(@pydantic\/genai-prices [^)]+\) nor in the user's$/m);
    assert.match(out, /add a model's price with --pricing FILE/);
  });

  it('--pricing FILE prices an unknown model; a bad file is a usage error (exit 2) naming the entry', () => {
    const text = cli('summary', '--json', '--pricing', tempFile('p.json', '{"claude-sonnet-4-5":{"input":1,"output":2}}'), MURMUR);
    assert.equal(text.code, 0);
    assert.ok(Math.abs(JSON.parse(text.out).usage.total.costUsd - (1683 * 1 + 76 * 2) / 1e6) < 1e-12);
    const bad = cli('summary', '--pricing', tempFile('p.json', '{"m":{"input":"x","output":1}}'), MURMUR);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /agentTrace\.pricing\["m"\]: "input" must be a non-negative number/);
    assert.equal(cli('summary', '--pricing', join(tempFile('x', ''), '..', 'missing.json'), MURMUR).code, 2);
  });
});
