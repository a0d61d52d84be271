import { strict as assert } from 'node:assert';
import { ModelColumn } from '../../../src/core/usage/rollup';

describe('usage: the model column', () => {
  it('gives back every event\'s model as the number of names grows past one byte and past two', () => {
    const n = 200_000;
    const col = new ModelColumn(n);
    const want: (string | null)[] = new Array(n).fill(null);
    // 70,000 names: the column starts a byte an event and is widened twice, keeping what it held.
    for (let i = 0; i < n; i++) {
      if (i % 3 === 2) continue;
      const name = `model-${i % 70_000}`;
      col.set(i, name);
      want[i] = name;
      if (i === 1000 || i === 100_000) for (let j = 0; j <= i; j += 97) assert.equal(col.get(j), want[j], `event ${j} after ${i}`);
    }
    for (let i = 0; i < n; i++) assert.equal(col.get(i), want[i], `event ${i}`);
  });

  it('a column no event names a model in answers null for all', () => {
    const col = new ModelColumn(10);
    col.set(3, null);
    for (let i = 0; i < 10; i++) assert.equal(col.get(i), null);
  });
});
