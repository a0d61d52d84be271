import { strict as assert } from 'node:assert';
import { NumberColumn } from '../../src/core/numberColumn';

/** A small deterministic generator, so a failure names the same values on every run. */
function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** Sets `values` in order (dense) and checks every one comes back as set, returning the column. */
function roundTrip(values: (number | null)[], base = false): NumberColumn {
  const col = new NumberColumn(base);
  values.forEach((v, i) => col.set(i, v));
  values.forEach((v, i) => assert.ok(Object.is(col.get(i), v), `entry ${i}: set ${v}, got ${col.get(i)}`));
  return col;
}

describe('NumberColumn: per-event numbers in the narrowest array that holds them', () => {
  it('gives back nulls, integers of every width, fractions, -0 and values past 2^31 and 2^32 exactly', () => {
    const odd = [null, 0, 1, -1, 127, -126, 128, -32767, 32768, 2147483647, -2147483646, -2147483648, 2 ** 32, 2 ** 32 + 5, 2 ** 53, 1.5, -0.25, -0, 1e-300, 1767225600000];
    const next = lcg(7);
    const values: (number | null)[] = [];
    for (let i = 0; i < 20000; i++) values.push(next() < 0.05 ? odd[Math.floor(next() * odd.length)] : Math.floor(next() * 100));
    roundTrip(values);
    roundTrip(values, true);
  });

  it('maps undefined, NaN and infinities to null, as the table did', () => {
    const col = new NumberColumn();
    [5, undefined, NaN, Infinity, -Infinity, 6].forEach((v, i) => col.set(i, v));
    assert.deepEqual([0, 1, 2, 3, 4, 5].map((i) => col.get(i)), [5, null, null, null, null, 6]);
  });

  it('holds a column of one value (nulls, a flag, line = index + 1) in no array at all', () => {
    const nulls = roundTrip(new Array(5000).fill(null));
    const ones = roundTrip(new Array(5000).fill(1));
    assert.deepEqual([nulls.byteSize, ones.byteSize], [0, 0]);
  });

  it('keeps epoch-millisecond times in 32 bits as differences from the first', () => {
    const t0 = 1767225600000;
    const times = Array.from({ length: 5000 }, (_, i) => (i % 7 === 3 ? null : t0 + i * 997));
    const col = roundTrip(times, true);
    assert.ok(col.byteSize <= 4 * 8192, `${col.byteSize} bytes`);
    // Without a base the same times need a Float64Array.
    assert.ok(roundTrip(times).byteSize >= 8 * 5000);
  });

  it('keeps a few values that do not fit one by one, and widens once they are more than a small share', () => {
    const n = 100_000;
    const few = Array.from({ length: n }, (_, i) => (i % 5000 === 17 ? 2 ** 32 + i : i % 100));
    const narrow = roundTrip(few);
    assert.ok(narrow.byteSize < 2 * 131072, `a few outliers keep the column at one byte an entry: ${narrow.byteSize}`);
    const many = Array.from({ length: n }, (_, i) => (i % 50 === 17 ? 2 ** 32 + i : i % 100));
    const wide = roundTrip(many);
    assert.ok(wide.byteSize >= 8 * n && wide.byteSize < 8 * 2 * 131072, `many outliers widen to Float64: ${wide.byteSize}`);
  });

  it('gives back what is set again later (durations set after the fact, a status raised), also after widening', () => {
    const next = lcg(11);
    const shadow: (number | null)[] = Array.from({ length: 3000 }, () => null);
    const col = new NumberColumn();
    shadow.forEach((v, i) => col.set(i, v));
    const kinds = [() => Math.floor(next() * 10), () => Math.floor(next() * 70000), () => 2 ** 33 * next(), () => null];
    for (let r = 0; r < 20000; r++) {
      const i = Math.floor(next() * shadow.length);
      const v = kinds[Math.min(3, Math.floor(next() * (r < 10000 ? 2 : 4)))]();
      shadow[i] = v;
      col.set(i, v);
    }
    shadow.forEach((v, i) => assert.ok(Object.is(col.get(i), v), `entry ${i}: ${v} vs ${col.get(i)}`));
  });

  it('gives back the same with room reserved ahead (before and after it materializes), also set again later', () => {
    const next = lcg(5);
    const values = Array.from({ length: 20000 }, (_, i) => (i < 7000 ? 3 : next() < 0.1 ? null : next() < 0.02 ? 2 ** 40 + i : Math.floor(next() * 300)));
    const early = new NumberColumn();
    early.reserve(25000);
    const late = new NumberColumn();
    const plain = new NumberColumn();
    values.forEach((v, i) => {
      early.set(i, v);
      late.set(i, v);
      plain.set(i, v);
      if (i === 9000) late.reserve(30000);
    });
    for (let r = 0; r < 2000; r++) {
      const i = Math.floor(next() * values.length);
      for (const c of [early, late, plain]) c.set(i, r);
    }
    for (let i = 0; i < values.length; i++) assert.ok(Object.is(early.get(i), plain.get(i)) && Object.is(late.get(i), plain.get(i)), `entry ${i}: ${early.get(i)}, ${late.get(i)} vs ${plain.get(i)}`);
  });

  it('reads entries never set as null when sparse, and trims its spare capacity', () => {
    const col = new NumberColumn(false, false);
    col.set(3, 1);
    col.set(70000, 2);
    assert.deepEqual([col.get(0), col.get(3), col.get(4), col.get(70000), col.get(70001), col.get(10 ** 7)], [null, 1, null, 2, null, null]);
    col.trim(70001);
    assert.equal(col.byteSize, 70001);
    assert.deepEqual([col.get(3), col.get(70000)], [1, 2]);
    col.set(80000, 3);
    assert.deepEqual([col.get(3), col.get(70000), col.get(75000), col.get(80000)], [1, 2, null, 3]);
  });

  it('lists its different values as a loop over get with a Set does: every width, nulls, overflows, a limit, a skipped value', () => {
    const reference = (col: NumberColumn, n: number, max: number, skip: number): number[] => {
      const seen = new Set<number>();
      for (let i = 0; i < n && seen.size < max; i++) {
        const v = col.get(i);
        if (v !== null && v !== skip) seen.add(v);
      }
      return [...seen];
    };
    const next = lcg(23);
    const shapes: [string, () => number | null][] = [
      ['small ids', () => (next() < 0.1 ? null : Math.floor(next() * 40))],
      ['Int16 ids', () => (next() < 0.1 ? null : Math.floor(next() * 3000) - 1500)],
      ['Int32', () => Math.floor(next() * 2 ** 31)],
      ['fractions', () => (next() < 0.5 ? null : Math.floor(next() * 10) / 4)],
      ['a few outliers', () => (next() < 0.001 ? 2 ** 40 + Math.floor(next() * 3) : Math.floor(next() * 20))],
      ['one value', () => 7],
      ['nulls', () => null],
    ];
    for (const [name, value] of shapes) {
      for (const base of [false, true]) {
        const col = new NumberColumn(base);
        const n = 5000;
        for (let i = 0; i < n; i++) col.set(i, value());
        for (const [count, max, skip] of [[n, Infinity, NaN], [n, 5, NaN], [n, Infinity, 0], [n, 3, 7], [1200, Infinity, NaN], [n + 50, Infinity, NaN], [0, Infinity, NaN]]) {
          assert.deepEqual(col.distinct(count, max, skip), reference(col, count, max, skip), `${name}${base ? ' (base)' : ''}: ${count}, ${max}, ${skip}`);
        }
      }
    }
  });
  it('reads its entries into one Int32Array as a loop over get does: every width, nulls, overflows, a base, sparse, past its end', () => {
    const reference = (col: NumberColumn, n: number, nullAs: number): number[] => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const v = col.get(i);
        out.push(v === null ? nullAs : v | 0);
      }
      return out;
    };
    const next = lcg(31);
    const shapes: [string, () => number | null][] = [
      ['small ids', () => (next() < 0.1 ? null : Math.floor(next() * 40))],
      ['Int16 ids', () => (next() < 0.1 ? null : Math.floor(next() * 3000) - 1500)],
      ['Int32', () => Math.floor(next() * 2 ** 31) - 2 ** 30],
      ['epoch times', () => 1_764_000_000_000 + Math.floor(next() * 100_000)],
      ['a few outliers', () => (next() < 0.001 ? 2 ** 30 + Math.floor(next() * 3) : Math.floor(next() * 20))],
      ['one value', () => 7],
      ['nulls', () => null],
    ];
    for (const [name, value] of shapes) {
      for (const base of [false, true]) {
        for (const dense of [true, false]) {
          const col = new NumberColumn(base, dense);
          const n = 5000;
          // A sparse column is set for every third entry only; a dense one for all.
          for (let i = 0; i < n; i++) if (dense || i % 3 === 0) col.set(i, value());
          for (const [count, nullAs] of [[n, -1], [n, 0], [1200, -1], [n + 50, -7], [0, -1]]) {
            assert.deepEqual([...col.codes(count, nullAs)], reference(col, count, nullAs), `${name}${base ? ' (base)' : ''}${dense ? '' : ' (sparse)'}: ${count}, ${nullAs}`);
            // Into bytes: each value cut as a Uint8Array cuts it, nulls included.
            const bytes = col.codes(count, nullAs, new Uint8Array(count));
            assert.deepEqual([...bytes], [...Uint8Array.from(reference(col, count, nullAs))], `${name} into bytes: ${count}, ${nullAs}`);
            // In blocks of 333 into one array reused (the last block past the end), as a pass reads a long column.
            const block = new Int32Array(333).fill(99);
            const blocks: number[] = [];
            for (let from = 0; from < count; from += 333) blocks.push(...col.codes(Math.min(333, count - from), nullAs, block, from).subarray(0, Math.min(333, count - from)));
            assert.deepEqual(blocks, reference(col, count, nullAs), `${name} in blocks: ${count}, ${nullAs}`);
          }
        }
      }
    }
  });
});
