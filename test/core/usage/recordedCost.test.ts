import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { loadTrace } from '../../../src/core/loadTrace';
import { summarize } from '../../../src/core/summary';
import { usageCostUsd, usageReport } from '../../../src/core/usage/usageReport';
import { readPricing } from '../../../src/core/usage/prices';
import { corpusPath, WRITER_CORPUS } from '../../helpers/corpus';

// A cost the trace records wins over every price, and `totals` and `usage` of `summary --json` never disagree.
describe('a cost the trace records wins', () => {
  it('a stream-json result\'s total_cost_usd is usage.total.costUsd as it is totals.costUsd, though no model is priced', async () => {
    // Claude Code 2.1.197 against a mock: the assistant lines name claude-sonnet-4-5-20250929 and carry no output
    // count (stream-json), the result's modelUsage names another model; the result records total_cost_usd 0.0158.
    const m = await loadTrace(corpusPath('outside', 'claude-code-2.1.197', 'stream-json-bash.jsonl'));
    const s = summarize(m);
    assert.equal(s.totals.costUsd, 0.0158);
    assert.equal(s.usage.total.costUsd, 0.0158, 'was null while totals said 0.0158');
    assert.equal(s.usage.priced, 1, 'the recorded total covers every token');
    assert.deepEqual(s.usage.byModel.map((x) => [x.model, x.costUsd]), [['claude-sonnet-4-5-20250929', null]], 'the model\'s own cost is still unknown (its output is not recorded per call)');
    assert.equal(usageCostUsd(m), 0.0158, 'the diff reads the same total');
  });

  it('a model whose totals line records its cost keeps that cost when a price exists for it (the user\'s too)', async () => {
    const m = await loadTrace(join(WRITER_CORPUS, 'claude-code-2.1.332', 'shell-ok', 'stream-json.jsonl'));
    const u = usageReport(m, readPricing({ 'claude-opus-5-5': { input: 100, output: 100 } }).prices);
    assert.deepEqual(u.byModel.map((x) => [x.model, x.costUsd, x.costSource]), [['claude-opus-5-5', 0.0292702, 'trace']]);
    assert.equal(u.total.costUsd, 0.0292702);
    assert.equal(summarize(m).totals.costUsd, u.total.costUsd);
  });

  it('totals.costUsd and usage.total.costUsd agree on every real-writer file that records a cost', async () => {
    const files = ['resume/stream-json-1.jsonl', 'resume/stream-json-2.jsonl', 'shell-fail/stream-json.jsonl', 'subagent/stream-json.jsonl', 'text/stream-json.jsonl'];
    for (const f of files) {
      const s = summarize(await loadTrace(join(WRITER_CORPUS, 'claude-code-2.1.332', f)));
      assert.equal(typeof s.totals.costUsd, 'number', f);
      assert.equal(s.usage.total.costUsd, s.totals.costUsd, f);
    }
  });
});
