import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { usageReport } from '../../src/core/usage/usageReport';
import { PRICING_SETTING, statisticsOf } from '../../src/viewer/timeline/sessionTimeline';
import { geminiWithModel } from '../helpers/derivedTraces';

describe('viewer: the Statistics payload explains its costs', () => {
  let dir = '';
  before(() => (dir = mkdtempSync(join(tmpdir(), 'stats-pricing-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('names the pricing setting as package.json declares it', () => {
    const pkg = JSON.parse(readFileSync(resolve('package.json'), 'utf8'));
    const sections = [pkg.contributes.configuration].flat();
    assert.ok(sections.some((s: { properties: Record<string, unknown> }) => PRICING_SETTING in s.properties), PRICING_SETTING);
  });

  it('per model: cache fields, cost source, rates, and the unpriced model with its reason and the run\'s unpriced share', async () => {
    const model = await loadTrace(geminiWithModel(dir, 'acme-coder-1'));
    const report = usageReport(model);
    const s = statisticsOf(model);
    assert.equal(s.pricingSetting, 'agentTrace.pricing');
    assert.deepEqual(s.priceSource, report.priceSource);
    assert.equal(s.priced, report.priced);
    assert.ok(s.priced! > 0 && s.priced! < 1, String(s.priced));
    const g = s.byModel.find((m) => m.model === 'gemini-2.5-pro')!;
    const gr = report.byModel.find((m) => m.model === 'gemini-2.5-pro')!;
    assert.deepEqual([g.cacheReadTokens, g.cacheWriteTokens, g.reasoningTokens, g.costUsd, g.costSource], [gr.cacheReadTokens, gr.cacheWriteTokens, gr.reasoningTokens, gr.costUsd, 'table']);
    assert.equal(g.unpricedReason, null);
    assert.equal(g.price?.rates.input, 1.25);
    const a = s.byModel.find((m) => m.model === 'acme-coder-1')!;
    assert.equal(a.costUsd, null);
    assert.equal(a.costSource, null);
    assert.equal(a.price, null);
    assert.equal(a.unpricedShare, 1);
    assert.match(a.unpricedReason!, /not in the bundled prices/);
  });
});
