import { strict as assert } from 'node:assert';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { headerOf } from '../../src/viewer/sessionModelInfo';
import { setViewerPricing } from '../../src/viewer/pricing';
import { costFact, unpricedFact } from '../../webview/headerFacts';
import { corpusPath, WRITER_CORPUS } from '../helpers/corpus';

describe('header: the run\'s cost and how much of it is priced', () => {
  afterEach(() => setViewerPricing({}));

  it('murmur at the bundled claude-sonnet-4-5 price: 1683·$3 + 76·$15 per million', async () => {
    const h = headerOf(await loadTrace(corpusPath('murmur', 'ses_39263059f28c105d1fb17c2390c192cf', 'trace.jsonl')));
    assert.deepEqual(h.usage, { costUsd: h.usage!.costUsd, priced: 1, complete: true, unpriced: [], priceSource: h.usage!.priceSource });
    assert.match(h.usage!.priceSource!, /^@pydantic\/genai-prices \d+\.\d+\.\d+ of \d{4}-\d{2}-\d{2}$/);
    assert.ok(Math.abs(h.usage!.costUsd! - 0.006189) < 1e-12);
    assert.equal(costFact(h), '$0.0062');
  });

  it('an unpriced model has no cost but a hint naming it, until agentTrace.pricing names it', async () => {
    const file = corpusPath('agentledger', 'approval-denied', 'events.jsonl');
    const h = headerOf(await loadTrace(file));
    assert.equal(costFact(h), null, 'mock-llm is in no price table');
    const hint = unpricedFact(h)!;
    assert.equal(hint.text, 'unpriced: mock-llm');
    assert.match(hint.title, /^mock-llm: not in the bundled prices \(@pydantic\/genai-prices /);
    assert.match(hint.title, /agentTrace\.pricing/);
    setViewerPricing({ 'mock-llm': { input: 2, output: 16 } });
    const priced = headerOf(await loadTrace(file));
    assert.match(costFact(priced)!, /^\$\d+\.\d{4}( · usage incomplete)?$/);
    assert.equal(unpricedFact(priced), null);
  });

  it('gpt-5.5 (the issue\'s unpriced model) is priced from the bundled table', async () => {
    const dir = join(WRITER_CORPUS, 'codex-0.171.0', 'shell-ok', 'sessions', '2026', '12', '01');
    const h = headerOf(await loadTrace(join(dir, readdirSync(dir)[0])));
    assert.equal(costFact(h), `$${(((18457 - 7424) * 5 + 7424 * 0.5 + 79 * 30) / 1e6).toFixed(4)}`);
    assert.equal(unpricedFact(h), null);
  });

  it('a partly priced or incomplete run says so', () => {
    assert.equal(costFact({ usage: { costUsd: 1.5, priced: 0.6, complete: false } }), '$1.50 (60% of tokens priced) · usage incomplete');
  });
});
