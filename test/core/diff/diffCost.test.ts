import { strict as assert } from 'node:assert';
import { loadTrace } from '../../../src/core/loadTrace';
import { usageReport } from '../../../src/core/usage/usageReport';
import { diffFiles, linesOf, MURMUR, writeVariant } from './diffPairs';

describe('diff cost deltas from the usage model', () => {
  it('prices a deleted turn: its inference\'s cost, and the runs\' cost difference in total', async () => {
    const lines = linesOf(MURMUR);
    const b = writeVariant([...lines.slice(0, 2), ...lines.slice(4)]);
    const d = await diffFiles(MURMUR, b);
    const costA = usageReport(await loadTrace(MURMUR)).total.costUsd;
    const costB = usageReport(await loadTrace(b)).total.costUsd;
    assert.equal(typeof costA, 'number');
    assert.ok(costA! > costB!, `${costA} > ${costB}`);
    assert.ok(Math.abs(d.summary.costDeltaUsd! - (costB! - costA!)) < 1e-12);
    const del = d.ops.find((op) => op.op === 'delete' && d.a.events.kindOf(op.a) === 'inference')!;
    // claude-sonnet-4-5 at the bundled table's price: 812 input and 64 output tokens.
    assert.ok(del.costDeltaUsd !== null && del.costDeltaUsd < 0, String(del.costDeltaUsd));
    assert.ok(Math.abs(del.costDeltaUsd! - (costB! - costA!)) < 1e-12, 'the deleted inference is the whole difference');
    assert.ok(d.ops.filter((op) => op.op === 'equal').every((op) => op.costDeltaUsd === null || op.costDeltaUsd === 0));
  });
});
