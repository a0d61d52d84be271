import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { byteFinder } from '../../../src/core/find/byteSearch';
import { giveScanBuffer, pairScanner, SLOT_BYTES, takeScanBuffer } from '../../../src/core/find/pairScan';

/** The first index of `needle` in `hay[0, end)` with ASCII letters folded, the slow and obvious way. */
function reference(hay: Buffer, end: number, needle: Buffer): number {
  const lower = (b: Buffer) => Buffer.from(b.toString('latin1').replace(/[A-Z]/g, (c) => c.toLowerCase()), 'latin1');
  return lower(hay.subarray(0, end)).indexOf(lower(needle));
}

describe('byte search ignoring case (issue 15 item 3)', () => {
  it('finds what a folded indexOf finds, in random texts of few letters (many near misses) and at the ends, short needles and long', () => {
    let x = 12345;
    const rand = (n: number) => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return (x >>> 0) % n;
    };
    const alphabet = Buffer.from('abAB \u00e9');
    for (let round = 0; round < 6000; round++) {
      const hay = Buffer.from(Array.from({ length: 1 + rand(80) }, () => alphabet[rand(alphabet.length)]));
      const needle = Buffer.from(Array.from({ length: 1 + rand(12) }, () => alphabet[rand(alphabet.length)]));
      const end = rand(hay.length + 1);
      const got = byteFinder([needle], true)(hay, end);
      const want = reference(hay, end, needle);
      assert.equal(got?.index ?? -1, want, `${JSON.stringify(hay.toString('latin1'))} [0,${end}) ${JSON.stringify(needle.toString('latin1'))}`);
    }
  });

  it('finds a phrase in a real writer file in either case, and the first of several needles', () => {
    const hay = readFileSync('test/corpus/claude-code-2.1.332/shell-fail/projects/-home-user-project/3dc26acc-d87d-484b-8039-4fff8b8812ed.jsonl');
    const at = hay.indexOf('No such file or directory');
    assert.ok(at > 0);
    assert.equal(byteFinder([Buffer.from('NO SUCH FILE or DIRECTORY')], true)(hay, hay.length)?.index, at);
    assert.equal(byteFinder([Buffer.from('no such file or directoryX')], true)(hay, hay.length), null);
    const first = Math.min(at, hay.indexOf('nonexistent'));
    assert.deepEqual(byteFinder([Buffer.from('NO SUCH FILE'), Buffer.from('NONEXISTENT')], true)(hay, hay.length), { index: first, length: hay.indexOf('nonexistent') === first ? 11 : 12 });
  });
});

describe('byte search with the SIMD pair scan (issue 15: find at the speed of reading)', () => {
  let x = 777;
  const rand = (n: number) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };

  it('is available in Node, so the tests below run the WebAssembly scan and not only the fallback', () => {
    assert.ok(pairScanner(), 'WebAssembly SIMD module did not build');
  });

  it('finds what indexOf finds matching case, and a folded indexOf ignoring case, in text inside and outside its memory', () => {
    const alphabet = Buffer.from('abAB xyz\u00e9');
    const slot = takeScanBuffer(4096)!;
    try {
      for (let round = 0; round < 4000; round++) {
        const hay = Buffer.from(Array.from({ length: 1 + rand(300) }, () => alphabet[rand(alphabet.length)]));
        const needle = Buffer.from(Array.from({ length: 2 + rand(10) }, () => alphabet[rand(alphabet.length)]));
        const end = rand(hay.length + 1);
        hay.copy(slot);
        const ignoreCase = round % 2 === 1;
        const want = ignoreCase ? reference(hay, end, needle) : hay.subarray(0, end).indexOf(needle);
        const finder = byteFinder([needle], ignoreCase);
        assert.equal(finder(hay, end)?.index ?? -1, want, `${JSON.stringify(hay.toString('latin1'))} [0,${end}) ${JSON.stringify(needle.toString('latin1'))}`);
        assert.equal(finder(slot, end)?.index ?? -1, want, 'in the scan memory');
      }
    } finally {
      giveScanBuffer(slot);
    }
  });

  it('finds a needle after thousands of its rare pair (the fallback takes over mid-text), and in text too big for its memory', () => {
    const needle = Buffer.from('QZ marks the spot');
    const crowded = Buffer.from('QZ mark '.repeat(20000) + 'QZ marks the spot');
    assert.equal(byteFinder([needle], false)(crowded, crowded.length)?.index, crowded.length - needle.length);
    assert.equal(byteFinder([Buffer.from('qz MARKS the SPOT')], true)(crowded, crowded.length)?.index, crowded.length - needle.length);
    const big = Buffer.alloc(3 * SLOT_BYTES, 'the agent reads a file; ');
    needle.copy(big, big.length - needle.length - 5);
    assert.equal(byteFinder([needle], false)(big, big.length)?.index, big.length - needle.length - 5);
    assert.equal(byteFinder([needle], false)(big, big.length - 6), null);
  });

  it('hands out read buffers inside its memory until they are all taken, and takes each back once', () => {
    const taken: Buffer[] = [];
    for (let b = takeScanBuffer(SLOT_BYTES); b; b = takeScanBuffer(SLOT_BYTES)) taken.push(b);
    assert.ok(taken.length >= 4, `${taken.length} buffers`);
    assert.equal(takeScanBuffer(SLOT_BYTES + 1), null);
    assert.equal(giveScanBuffer(Buffer.alloc(16)), false);
    for (const b of taken) assert.equal(giveScanBuffer(b), true);
    const again = takeScanBuffer(SLOT_BYTES);
    assert.ok(again, 'a buffer given back is handed out again');
    giveScanBuffer(again);
  });
});
