import { strict as assert } from 'node:assert';
import { short } from '../../../src/core/formats/common';

/** The plain definition: flatten everything, then cut. */
function reference(s: string, max: number): string {
  const flat = s.replace(/[\s\u0080-\u009f]+/g, ' ').trim();
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat;
}

describe('short (labels)', () => {
  it('gives the same label as flattening the whole text, on texts with long whitespace runs, controls and edges', () => {
    const parts = ['a', 'word ', ' ', '\n\n\n', '\t', '\u0085', 'x'.repeat(30), ' '.repeat(200), 'é', '…'];
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    for (let k = 0; k < 3000; k++) {
      let s = '';
      const n = rand(80);
      for (let i = 0; i < n; i++) s += parts[rand(parts.length)];
      for (const max of [1, 2, 10, 48, 72]) assert.equal(short(s, max), reference(s, max), JSON.stringify([s, max]));
    }
  });

  it('cuts a megabyte of output to its first characters without flattening all of it', () => {
    const big = 'line one\n' + 'y'.repeat(1 << 20);
    assert.equal(short(big, 20), 'line one yyyyyyyyyy…');
  });
});
