import { strict as assert } from 'node:assert';
import { CounterColumn } from '../../src/core/counterColumn';
import { NumberColumn } from '../../src/core/numberColumn';

/** A small deterministic generator, so a failure names the same values on every run. */
function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe('CounterColumn: sequence numbers as differences from the event index', () => {
  it('gives back what a plain NumberColumn gives back, for counters broken by odd values', () => {
    const odd = [null, undefined, NaN, Infinity, -0, 0, -1, 1.5, -0.25, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 2 ** 31, 1e300, 1767225600000];
    const next = lcg(11);
    const counter = new CounterColumn();
    const plain = new NumberColumn();
    let seq = 1;
    for (let i = 0; i < 30000; i++) {
      const r = next();
      // Mostly counting with the index, sometimes a jump (a new counter), sometimes an odd value.
      const v = r < 0.03 ? odd[Math.floor(next() * odd.length)] : r < 0.05 ? (seq = Math.floor(next() * 1e6)) : seq++;
      counter.set(i, v);
      plain.set(i, v);
    }
    for (let i = 0; i < 30000; i++) assert.ok(Object.is(counter.get(i), plain.get(i)), `entry ${i}: ${counter.get(i)} vs ${plain.get(i)}`);
  });

  it('stores no array for a counter that follows the events, where a plain column needs 32 bits each', () => {
    const counter = new CounterColumn();
    const plain = new NumberColumn();
    for (let i = 0; i < 100000; i++) {
      counter.set(i, i + 1);
      plain.set(i, i + 1);
    }
    counter.trim(100000);
    plain.trim(100000);
    assert.equal(counter.byteSize, 0);
    assert.equal(plain.byteSize, 400000);
    assert.deepEqual([counter.get(0), counter.get(99999)], [1, 100000]);
  });
});
