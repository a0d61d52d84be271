import { strict as assert } from 'node:assert';
import { IdStore } from '../../../src/core/stream/idStore';

describe('IdStore: ids as bytes behind a typed-array hash table', () => {
  it('gives each distinct id one number, finds it again, and never merges two ids (200,000 ids, unicode too)', () => {
    const store = new IdStore();
    const ids = Array.from({ length: 200_000 }, (_, i) => (i % 3 === 0 ? `évt-${i}-ü` : `toolu_${(i * 2654435761 >>> 0).toString(36)}_${i}`));
    const refs = ids.map((id) => store.intern(id));
    assert.ok(refs.every((r) => r.added));
    assert.equal(store.size, ids.length);
    assert.deepStrictEqual(refs.map((r) => r.ref), ids.map((_, i) => i));
    // With 200,000 ids a 32-bit hash repeats for a few pairs, so lookups that compare bytes are exercised.
    for (let i = 0; i < ids.length; i += 7) {
      assert.equal(store.find(ids[i]), i);
      assert.equal(store.get(i), ids[i]);
      assert.deepStrictEqual(store.intern(ids[i]), { ref: i, added: false });
    }
    assert.equal(store.find('évt-3-'), -1);
    assert.equal(store.find(''), -1);
    assert.equal(store.size, ids.length, 'lookups add nothing');
    assert.deepStrictEqual(store.intern(''), { ref: ids.length, added: true });
    assert.equal(store.find(''), ids.length);
  });

  it('keeps hex ids in about half their length, and tells apart ids that differ in case, prefix or length', () => {
    const store = new IdStore();
    const hex = (i: number) => (i * 2654435761 >>> 0).toString(16).padStart(8, '0').repeat(4);
    const ids: string[] = [];
    for (let i = 0; i < 50_000; i++) ids.push(`evt_${hex(i)}`, `ses_${hex(i)}`);
    // Look-alikes: upper case (not packed), odd lengths, another prefix, no prefix.
    const odd = [`evt_${hex(1).toUpperCase()}`, `evt_${hex(1)}0`, `evt_${hex(1).slice(1)}`, `evx_${hex(1)}`, hex(1), 'evt_', 'evt_zz'];
    for (const id of [...ids, ...odd]) assert.ok(store.intern(id).added, id);
    assert.equal(store.size, ids.length + odd.length);
    for (let i = 0; i < ids.length; i += 3) assert.equal(store.get(store.find(ids[i])), ids[i]);
    for (const id of odd) assert.equal(store.get(store.find(id)), id);
    // 36 characters each as UTF-8; packed, a prefix byte and 16 bytes of digits (plus a marker).
    assert.ok(store.textBytes / store.size < 20, `${(store.textBytes / store.size).toFixed(1)} bytes an id`);
  });
});
