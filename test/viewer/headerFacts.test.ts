import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { headerOf } from '../../src/viewer/sessionModelInfo';
import { tokenFact } from '../../webview/headerFacts';
import { corpusPath } from '../helpers/corpus';

describe('header facts: tokens as the trace records them', () => {
  it('deepstrike records output per message and a grand total, no input: no "0 in" beside the total', async () => {
    const h = headerOf(await loadTrace(corpusPath('deepstrike/rust-core/97a2f782-238c-40a6-ae04-c4e2efb8f844.jsonl')));
    assert.equal(h.inputTokens, null, 'no event records input tokens');
    assert.equal(h.outputTokens, 226);
    assert.equal(tokenFact(h), '6.1k tokens total (226 out)');
  });

  it('a trace with both sides says in → out; one with none says nothing', async () => {
    const h = headerOf(await loadTrace(resolve('test/fixtures/viewer/sample.jsonl'), { format: 'generic' }));
    assert.equal(tokenFact(h), '2.7k in → 420 out tokens');
    const lumen = headerOf(await loadTrace(corpusPath('lumen/.lumen/trace/ef05f773-1151-4c7a-817e-a78bf76ed21e.jsonl')));
    assert.deepEqual([lumen.inputTokens, lumen.outputTokens, tokenFact(lumen)], [null, null, null], 'lumen records no tokens');
  });

  it('offers the duration and tokens columns only when some event fills them', async () => {
    const deepstrike = headerOf(await loadTrace(corpusPath('deepstrike/rust-core/97a2f782-238c-40a6-ae04-c4e2efb8f844.jsonl')));
    assert.deepEqual(deepstrike.columns, { duration: false, tokens: true, time: false });
    const lumen = headerOf(await loadTrace(corpusPath('lumen/.lumen/trace/ef05f773-1151-4c7a-817e-a78bf76ed21e.jsonl')));
    assert.deepEqual(lumen.columns, { duration: true, tokens: false, time: true });
    const sample = headerOf(await loadTrace(resolve('test/fixtures/viewer/sample.jsonl'), { format: 'generic' }));
    assert.deepEqual(sample.columns, { duration: true, tokens: true, time: true });
  });
});
