import { strict as assert } from 'node:assert';
import { hasControlByte } from '../../../src/core/json/controlBytes';

describe('control bytes', () => {
  it('finds a byte below 0x20 anywhere in a view at any offset, as a byte-by-byte loop does, and nothing else', () => {
    let seed = 99;
    const rnd = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const memory = Buffer.alloc(4096 + 3);
    const slow = (b: Uint8Array): boolean => b.some((x) => x < 0x20);
    let hits = 0;
    for (let k = 0; k < 20_000; k++) {
      for (let i = 0; i < memory.length; i++) memory[i] = 0x20 + rnd(0xe0);
      const start = rnd(64);
      const length = rnd(300);
      const view = memory.subarray(start, start + length);
      // Control bytes in about half the views, at any lane of a word, sometimes beside bytes of 0x80 and up.
      if (length > 0 && rnd(2) === 0) view[rnd(length)] = rnd(0x20);
      if (length > 1 && rnd(4) === 0) view[rnd(length)] = 0x80 + rnd(0x80);
      const expected = slow(view);
      if (expected) hits++;
      assert.equal(hasControlByte(view), expected, `offset ${start}, length ${length}`);
    }
    assert.ok(hits > 5000, `${hits} views with a control byte`);
    // Different memory one after the other (the view of the last one is cached).
    assert.equal(hasControlByte(Buffer.from('{"a":"b\tc"}')), true);
    assert.equal(hasControlByte(Buffer.from('{"a":"b c"}')), false);
    assert.equal(hasControlByte(new Uint8Array([0x41, 0x42, 0x1f])), true);
  });
});
