import { strict as assert } from 'node:assert';
import { fnv1aId, IdHashIndex } from '../../src/core/idHashIndex';
import { StringColumn } from '../../src/core/stringColumn';

/** An index over ids kept in a StringColumn, as the event table keeps them. */
function indexOver(ids: (string | null)[], hash = fnv1aId): IdHashIndex {
  const column = new StringColumn();
  const index = new IdHashIndex((e, id) => column.equals(e, id), (e) => column.get(e)!, hash);
  ids.forEach((id, i) => {
    column.push(id);
    if (id !== null) index.insert(i, id);
  });
  return index;
}

describe('IdHashIndex: event ids in typed arrays', () => {
  const ids = Array.from({ length: 5000 }, (_, i) => (i % 7 === 0 ? null : `evt_${i.toString(16).padStart(32, '0')}`));

  it('finds the first event of every id, and nothing for ids not in the trace, through several growths', () => {
    const index = indexOver(ids);
    ids.forEach((id, i) => id !== null && assert.equal(index.get(id), i, id));
    assert.equal(index.size, ids.filter((x) => x !== null).length);
    assert.equal(index.get('evt_missing'), undefined);
    assert.equal(index.get(`evt_${(99999).toString(16).padStart(32, '0')}`), undefined);
    assert.deepEqual(index.duplicates, []);
  });

  it('reserved for n ids up front, takes them all without growing, and keeps what it held before the reserve', () => {
    const column = new StringColumn();
    const index = new IdHashIndex((e, id) => column.equals(e, id), (e) => column.get(e)!);
    const add = (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        column.push(ids[i]);
        if (ids[i] !== null) index.insert(i, ids[i]!);
      }
    };
    add(0, 300);
    index.reserve(ids.length);
    const size = index.byteSize;
    assert.ok(size >= ids.length * 2 * 4, `${size} bytes hold ${ids.length} ids at a load of at most one half`);
    add(300, ids.length);
    assert.equal(index.byteSize, size, 'no growth after the reserve');
    ids.forEach((id, i) => id !== null && assert.equal(index.get(id), i, id));
    index.reserve(10);
    assert.equal(index.byteSize, size, 'a smaller reserve changes nothing');
  });

  it('with every id hashed to the same value, still tells ids apart by their bytes (collisions forced)', () => {
    const some = ids.slice(0, 600);
    const index = indexOver(some, () => 42);
    some.forEach((id, i) => id !== null && assert.equal(index.get(id), i, id));
    assert.equal(index.get('evt_other'), undefined);
  });

  it('with hashes that collide in pairs, a duplicate id is a duplicate and a colliding id is not', () => {
    // Two different ids per hash value: 'a1' and 'b1' collide, and so on.
    const hash = (id: string) => Number(id.slice(1)) >>> 0;
    const index = indexOver(['a1', 'b1', 'a2', 'a1', 'b2', 'b1', 'ü1'], hash);
    assert.equal(index.get('a1'), 0);
    assert.equal(index.get('b1'), 1);
    assert.equal(index.get('b2'), 4);
    assert.equal(index.get('ü1'), 6);
    assert.equal(index.get('c1'), undefined);
    assert.deepEqual(index.duplicates, [3, 5]);
  });
});

describe('StringColumn: strings as UTF-8 bytes', () => {
  it('gives back every string as written: null, empty, ASCII, non-ASCII, hex ids packed two digits to a byte', () => {
    const values = [null, '', 'evt_00000000000000000000000000000002', '9f3c0e2a-1b44-4c0d-8e7f-0a1b2c3d4e5f', 'abcdef0123456789a', 'ÄÖÜ 漢字 😀', 'x'.repeat(3000), 'tool_call bash 12 ms', '0123456789abcdef0123456789abcdef', 'A'.repeat(300) + '0123456789abcdef0123'];
    const column = new StringColumn();
    for (let r = 0; r < 300; r++) for (const v of values) column.push(v);
    for (let k = 0; k < column.size; k++) {
      const v = values[k % values.length];
      assert.equal(column.get(k), v, `entry ${k}`);
      if (v !== null) assert.ok(column.equals(k, v), `equals ${k}`);
      assert.ok(!column.equals(k, `${v}z`));
    }
  });

  it('packs ids of many prefixes, alternating, past the 256 its prefix table names', () => {
    const hex = (i: number) => i.toString(16).padStart(32, '0');
    // A common prefix between others, prefixes that extend it, and 300 distinct ones (the table fills at 256).
    const values = Array.from({ length: 1200 }, (_, i) => (i % 2 === 0 ? `evt_${hex(i)}` : i % 3 === 0 ? `evt_x${hex(i)}` : `p${i}_${hex(i)}`));
    const column = new StringColumn();
    for (const v of values) column.push(v);
    values.forEach((v, k) => {
      assert.equal(column.get(k), v, `entry ${k}`);
      assert.ok(column.equals(k, v));
      assert.ok(!column.equals(k, v.replace('evt_', 'evt_x')) || !v.startsWith('evt_'));
    });
  });
});
