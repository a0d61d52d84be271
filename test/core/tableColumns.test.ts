import { strict as assert } from 'node:assert';
import { IntColumn, SharedValues } from '../../src/core/tableColumns';
import { StringColumn } from '../../src/core/stringColumn';

describe('compact columns of the event table', () => {
  it('IntColumn gives back nulls, small integers and the values an Int32Array cannot hold', () => {
    const values = [null, 0, 1, -1, 2147483647, -2147483647, -2147483648, 2147483648, 1.5, 2 ** 53, -0.25, undefined, NaN, Infinity];
    const col = new IntColumn();
    values.forEach((v, i) => col.set(i * 700, v));
    values.forEach((v, i) => assert.equal(col.get(i * 700), typeof v === 'number' && Number.isFinite(v) ? v : null, `value ${v}`));
  });

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

  it('SharedValues.shapeOf numbers equal shapes alike, marks values past the limit -1 and absent ones 0', () => {
    const shared = new SharedValues<{ n: number }>(2);
    shared.set(1, { n: 1 });
    shared.set(3, { n: 2 });
    shared.set(5000, { n: 1 });
    shared.set(7, { n: 3 });
    const [a, b, c, d] = [1, 3, 5000, 7].map((i) => shared.shapeOf(i));
    assert.ok(a > 0 && b > 0 && a !== b && c === a && d === -1, `${[a, b, c, d]}`);
    assert.deepEqual([shared.shape(a), shared.shape(b), shared.get(7)], [{ n: 1 }, { n: 2 }, { n: 3 }]);
    assert.deepEqual([shared.shapeOf(2), shared.shapeOf(99999)], [0, 0]);
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
