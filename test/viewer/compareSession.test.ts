import { strict as assert } from 'node:assert';
import { loadTrace } from '../../src/core/loadTrace';
import { diffTraces } from '../../src/core/diff/diffTraces';
import { compareDetail, compareInit, compareRows } from '../../src/viewer/compareSession';
import { validateCompareMessage } from '../../src/protocolCompare';
import { agentledger } from '../core/diff/diffPairs';

describe('compare view host logic (rows, detail, message validation)', () => {
  it('gives one row per op with both sides, and the detail of a changed row with both events', async () => {
    const diff = await diffTraces(await loadTrace(agentledger('approval-granted', 'events.jsonl')), await loadTrace(agentledger('approval-denied', 'events.jsonl')));
    const rows = compareRows(diff);
    assert.equal(rows.length, diff.ops.length);
    const k = diff.firstDivergence;
    assert.deepEqual([rows[k].op, rows[k].a?.line, rows[k].b?.line, rows[k].a?.kind], ['change', 12, 12, 'tool_approval_decided']);
    assert.equal(rows.find((r) => r.op === 'delete')!.b, null);
    assert.equal(rows.find((r) => r.op === 'insert')!.a, null);
    const init = compareInit(diff, false);
    assert.equal(init.type, 'compareInit');
    const d = (await compareDetail(diff, k))!;
    assert.equal(d.op, 'change');
    assert.deepEqual(d.fields.find((f) => f.path === 'payload.status'), { path: 'payload.status', a: 'APPROVED', b: 'DENIED' });
    assert.match(d.a!.json, /"status": "APPROVED"/);
    assert.match(d.b!.json, /"status": "DENIED"/);
    assert.equal(await compareDetail(diff, rows.length), null);
    const ins = (await compareDetail(diff, rows.findIndex((r) => r.op === 'insert')))!;
    assert.equal(ins.a, null);
    assert.equal(ins.b!.kind, 'step_failed');
  });

  it('accepts only the known messages from the view', () => {
    assert.deepEqual(validateCompareMessage({ type: 'compareSelect', row: 3 }), { type: 'compareSelect', row: 3 });
    assert.deepEqual(validateCompareMessage({ type: 'compareOpen', side: 'b', line: 2 }), { type: 'compareOpen', side: 'b', line: 2 });
    for (const bad of [null, 'x', {}, { type: 'compareSelect', row: -1 }, { type: 'compareSelect', row: 1.5 }, { type: 'compareSelect', row: '1' },
      { type: 'compareOpen', side: 'c', line: 1 }, { type: 'compareOpen', side: 'a', line: 0 }, { type: 'compareToggleVolatile', include: 'yes' }, { type: 'openBlob' }]) {
      assert.equal(validateCompareMessage(bad), null, JSON.stringify(bad));
    }
  });
});
