import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { byteFinder } from '../../../src/core/find/byteSearch';

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
