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
});
