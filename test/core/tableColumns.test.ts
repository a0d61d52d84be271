import { strict as assert } from 'node:assert';
import { SharedValues } from '../../src/core/tableColumns';
import { StringColumn } from '../../src/core/stringColumn';

describe('compact columns of the event table', () => {
  it('SharedValues keeps one object per shape, each event its own when past the limit', () => {
    const shared = new SharedValues<{ n: number }>(2);
    const a = { n: 1 };
    shared.set(5, a);
    shared.set(4000, { n: 1 });
    shared.set(9, { n: 2 });
    shared.set(10, { n: 3 });
    assert.equal(shared.get(4000), a);
    assert.deepEqual([shared.get(5), shared.get(9), shared.get(10), shared.get(6), shared.get(99999)], [{ n: 1 }, { n: 2 }, { n: 3 }, undefined, undefined]);
  });

  it('SharedValues.entries walks every set value in index order, shared shapes and those past the limit alike', () => {
    const shared = new SharedValues<{ n: number }>(1);
    const set: [number, { n: number }][] = [[5000, { n: 3 }], [2, { n: 1 }], [7, { n: 2 }], [3, { n: 1 }], [9, { n: 4 }]];
    for (const [i, v] of set) shared.set(i, v);
    assert.deepEqual([...shared.entries()], [...set].sort((a, b) => a[0] - b[0]));
    assert.equal(shared.get(4), undefined);
  });

  it('StringColumn of nulls holds no arrays, and a first string after many nulls is found', () => {
    const col = new StringColumn();
    for (let k = 0; k < 5000; k++) col.push(null);
    col.push('evt_1');
    col.push(null);
    assert.deepEqual([col.get(0), col.get(4999), col.get(5000), col.get(5001), col.size], [null, null, 'evt_1', null, 5002]);
    assert.ok(col.equals(5000, 'evt_1') && !col.equals(10, 'evt_1'));
  });
});
