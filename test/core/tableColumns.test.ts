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

  it('SharedValues numbers shapes as their JSON text does, in runs of one shape and across them', () => {
    const values: object[] = [
      { a: 0 }, { a: 0 }, { a: -0 }, { a: 1 }, { a: 1 }, { b: 1, a: 1 }, { a: 1, b: 1 }, { a: 1, b: 1 }, { a: NaN }, { a: null },
      { a: NaN }, { a: undefined }, {}, { a: undefined }, { r: { attempt: 2 } }, { r: { attempt: 2 } }, { r: { attempt: 3 } },
      { a: 'x' }, { a: 'x' }, { a: 'y' }, { a: 0 }, { a: [1, 2] }, { a: [1, 2] }, { a: [1] },
    ];
    const shared = new SharedValues<object>();
    values.forEach((v, i) => shared.set(i, v));
    // The reference: shapes numbered by their JSON text, in the order first seen.
    const numbers = new Map<string, number>();
    values.forEach((v, i) => {
      const key = JSON.stringify(v);
      if (!numbers.has(key)) numbers.set(key, numbers.size + 1);
      assert.equal(shared.shapeOf(i), numbers.get(key), `value ${i}: ${key}`);
      assert.equal(JSON.stringify(shared.get(i)), key);
    });
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

  it('StringColumn gives back every string and null, and tells each apart from every other, whatever its packing', () => {
    const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
    const values: (string | null)[] = [null, null, 'evt_' + hex(1, 32), '', null, 'é' + hex(2, 32), hex(3, 40), 'x'];
    // 300 distinct prefixes: past the 256 the prefix table holds, entries keep their prefix inline.
    for (let p = 0; p < 300; p++) values.push(`p${p}_` + hex(p * 7919, 32), `p${p}_` + hex(p, 17), p % 9 === 0 ? null : `toolu_${p}`);
    values.push('ü', 'evt_' + hex(1, 31), 'EVT_' + hex(1, 32), 'evt_' + hex(1, 32).toUpperCase(), 'ünïcödé ' + hex(9, 32));
    // UUIDs (packed to 16 bytes) and look-alikes that must keep every character: upper case, a non-hex digit,
    // a dash moved, one character more or less, a dash where a digit was.
    const uuid = (n: number) => `${hex(n, 8)}-${hex(n & 0xffff, 4)}-4${hex(n, 3)}-a${hex(n, 3)}-${hex(n * 31, 12)}`;
    for (let n = 1; n < 40; n++) values.push(uuid(n * 2654435761));
    const u = uuid(77);
    values.push(u, u.toUpperCase(), u.slice(0, 35) + 'g', u.slice(0, 8) + u.slice(9, 10) + '-' + u.slice(10), u + '0', u.slice(1), u.slice(0, 20) + '-' + u.slice(21), `${u}`.replace(/-/g, '_'));
    const col = new StringColumn();
    for (const v of values) col.push(v);
    col.trim();
    values.forEach((v, k) => assert.equal(col.get(k), v, `entry ${k}`));
    const distinct = [...new Set(values.filter((v): v is string => v !== null))];
    values.forEach((v, k) => {
      for (const s of distinct) assert.equal(col.equals(k, s), v === s, `entry ${k} (${v}) against ${s}`);
    });
    assert.deepEqual([col.get(values.length), col.equals(values.length, 'x')], [null, false]);
  });

  it('StringColumn keeps a lowercase UUID in 17 bytes', () => {
    const col = new StringColumn();
    const ids = Array.from({ length: 3000 }, (_, k) => `${(k * 2654435761 >>> 0).toString(16).padStart(8, '0')}-0a1b-4c2d-8e3f-${k.toString(16).padStart(12, '0')}`);
    for (const id of ids) col.push(id);
    col.trim();
    assert.ok(col.byteSize <= 3000 * (4 + 17), `${col.byteSize} bytes`);
    ids.forEach((id, k) => assert.ok(col.get(k) === id && col.equals(k, id) && !col.equals(k, id.toUpperCase()), id));
  });

  it('StringColumn of strings only keeps no null flags, and one null after them is kept', () => {
    const col = new StringColumn();
    for (let k = 0; k < 3000; k++) col.push(`evt_${k.toString(16).padStart(32, '0')}`);
    col.trim();
    const before = col.byteSize;
    assert.ok(before <= 3000 * (4 + 2 + 16), `${before} bytes`);
    col.push(null);
    col.push('a');
    assert.deepEqual([col.get(2999), col.get(3000), col.get(3001), col.equals(3000, '')], ['evt_' + (2999).toString(16).padStart(32, '0'), null, 'a', false]);
  });
});
