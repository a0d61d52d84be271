import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Fnv1a64, fnv1a64Hex } from '../../../src/core/digests';
import { canonicalScalar, pythonFloatRepr } from '../../../src/core/json/jsonTokenizer';
import { canonicalJsonSha256OfBuffer, CanonicalDigest, PythonCanonicalJsonHasher } from '../../../src/core/json/pythonCanonicalJson';
import { corpusPath } from '../../helpers/corpus';

const AGENTLEDGER = corpusPath('agentledger');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

/** Streams `text` through the hasher in pieces of `step` bytes; falls back to the sorting path as the store does. */
function canonical(text: string | Buffer, step = 3): CanonicalDigest {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  const h = new PythonCanonicalJsonHasher();
  for (let i = 0; i < bytes.length; i += step) h.update(bytes.subarray(i, i + step));
  const r = h.finish();
  return r.kind === 'needs-sorting' ? canonicalJsonSha256OfBuffer(bytes) : r;
}

describe('blob digests: FNV-1a 64 (agentledger Rust blob names)', () => {
  // agentledger.md §10, Rust test vectors.
  const vectors: [string, string][] = [
    ['', 'cbf29ce484222325'],
    ['a', 'af63dc4c8601ec8c'],
    ['foobar', '85944171f73967e8'],
    ['initial_state={input="hello"}', 'ffab2995c2703059'],
    ['O1:68656c6c6f:O1:6e6573746564:S776f726c64:', '5f69a69b069b5ed5'],
  ];
  for (const [input, want] of vectors) {
    it(`stable_hash(${JSON.stringify(input)}) = ${want}`, () => {
      assert.equal(fnv1a64Hex(Buffer.from(input, 'utf8')), want);
      // Fed byte by byte, as a chunked read would.
      const h = new Fnv1a64();
      for (const b of Buffer.from(input, 'utf8')) h.update(Uint8Array.of(b));
      assert.equal(h.digestHex(), want);
    });
  }
});

describe('blob digests: Python canonical JSON (agentledger Python blob names)', () => {
  it('matches the doc test vectors (§10) and not the file bytes', () => {
    const dir = join(AGENTLEDGER, 'side-effect-idempotency/blobs/sha256');
    const a = readFileSync(join(dir, '3da591a1b0726346c984c8927da4dc32b21a045d8eba57752ef21a0d7eac74d9.json'));
    const b = readFileSync(join(dir, 'c8230f77e6cb66651d961486439297fd81f9ec230d275374dcc36339e493925b.json'));
    assert.deepEqual(canonical(a), { kind: 'digest', digest: '3da591a1b0726346c984c8927da4dc32b21a045d8eba57752ef21a0d7eac74d9' });
    assert.deepEqual(canonical(b), { kind: 'digest', digest: 'c8230f77e6cb66651d961486439297fd81f9ec230d275374dcc36339e493925b' });
    // "hashing file bytes is wrong": the doc gives these raw-byte digests to prove it.
    assert.equal(sha256(a), '4b8c0aaa4fd8703a68dfd769c36b38e2587e26c36224bb52662a152a8f24465d');
    assert.equal(sha256(b), '0ec3a2e4b31b7eb78f808b66e1e6981899fd0df4f1fe640e08144494b2b25983');
  });

  it('every corpus blob rehashes to its name, streamed in any chunk size', () => {
    let count = 0;
    for (const run of readdirSync(AGENTLEDGER)) {
      const dir = join(AGENTLEDGER, run, 'blobs/sha256');
      if (!existsSync(dir)) continue;
      const names = readdirSync(dir);
      for (const name of names) {
        const bytes = readFileSync(join(dir, name));
        for (const step of [1, 7, 4096]) assert.deepEqual(canonical(bytes, step), { kind: 'digest', digest: name.replace(/\.json$/, '') }, `${run}/${name} step ${step}`);
        count++;
      }
    }
    assert.equal(count, 20);
  });

  // Expected digests computed with CPython 3: sha256(json.dumps(json.loads(s), sort_keys=True, ensure_ascii=False, separators=(",", ":"))).
  const vectors: [string, string][] = [
    ['{"b": 1, "a": [true, false, null, {}, []]}', 'f33d113703287b3c135673b8d5d2b5b3048ca986524ba6e56e997b7045f8fb03'],
    ['{"\\uffff": 1, "\\ud83d\\ude00": 2, "z": 3}', '5811547c43661f72cf25d740524378003c58cef1459de27ea0057a2d1e26b1e8'],
    ['{"s": "\\u0001\\u001f\\u007f\\u2028 \\/ \\" \\\\ \\b\\f\\n\\r\\t é 😀"}', 'fed148dd116ee11ed96552eea48e1500ee2f1332bd2d22e74311c75ef34966fb'],
    ['[1.0, 1e-7, 1E16, -0, -0.0, 0.1, 1e999, -1e999, 123456789012345678901234567890, 1e22, 5e-324, 1.7976931348623157e308, 123.456e2, 0.0001, 0.00001, 1e15, 1.5e16, 100]', '10c651773d8eec1e2b66fcc680ac4695ed7269ceb0de32942b7c3c3902be8041'],
    ['[NaN, Infinity, -Infinity]', 'b1ec71618b1e885b866bc52473ebb29432cd8babf979d53a05c12053c0f1a9c9'],
    ['{"a": 1, "a": 2, "b": {"y": 1, "x": [3, {"k": "v", "j": "w"}]}}', 'bd2268228d44a6cdd124aebdfd62783e7628cf319135e0056db5a68d281026e9'],
    ['  "top-level string"  ', '97855b10de0a3311ba7a0d45b5fe072d82d75a1dfdf2a1fcd9080797205d703f'],
    ['-12.50', '6e734d1ba4828d18ef4d256e8820f89e30551bca8b2c5740f2ed9fc532da07de'],
  ];
  for (const [input, want] of vectors) {
    it(`canonical digest of ${input.slice(0, 50)}`, () => assert.deepEqual(canonical(input), { kind: 'digest', digest: want }));
  }

  it('asks for the sorting path only when keys are out of order or repeated', () => {
    const stream = (s: string) => { const h = new PythonCanonicalJsonHasher(); h.update(Buffer.from(s)); return h.finish().kind; };
    assert.equal(stream('{\n  "a": 1,\n  "b": {"c": 2, "d": 3}\n}'), 'digest');
    assert.equal(stream('{"b": 1, "a": 2}'), 'needs-sorting');
    assert.equal(stream('{"a": 1, "a": 2}'), 'needs-sorting');
    // Code point order, not UTF-16 order: U+FFFF sorts before U+1F600.
    assert.equal(stream('{"\\uffff": 1, "\\ud83d\\ude00": 2}'), 'digest');
  });

  it('rejects what Python json.loads rejects (a tampered blob cannot verify by accident)', () => {
    const bad = [
      '', '{"fare_usd": 51 2.4}', '{"a": tr ue}', '{"a": 1', '{"a": 1}}', '{"a" 1}', '{"a": 1,}', '[1, 2,]', '{"a": "x\ny"}',
      '{"a": "\\x"}', '{"a": "\\ud83d"}', '{"a": "\\ude00"}', '{"a": 01}', '{"a": .5}', '{"a": 1.}', '{"a": +1}', '{"a": True}', '{a: 1}',
      '[1] [2]', '{"a": 1e}', "{'a': 1}",
    ];
    for (const s of bad) assert.equal(canonical(s).kind, 'invalid', JSON.stringify(s));
  });

  it('writes floats as Python repr and ints exactly', () => {
    const cases: [number, string][] = [
      [1, '1.0'], [1e-7, '1e-07'], [1e16, '1e+16'], [-0, '-0.0'], [0.1, '0.1'], [1e22, '1e+22'], [5e-324, '5e-324'],
      [1.7976931348623157e308, '1.7976931348623157e+308'], [12345.6, '12345.6'], [0.0001, '0.0001'], [0.00001, '1e-05'],
      [1e15, '1000000000000000.0'], [1.5e16, '1.5e+16'], [123456789.123, '123456789.123'], [1e-300, '1e-300'], [2.5e-5, '2.5e-05'],
      [1e100, '1e+100'], [460, '460.0'], [Infinity, 'Infinity'], [NaN, 'NaN'],
    ];
    for (const [x, want] of cases) assert.equal(pythonFloatRepr(x), want, String(x));
    assert.equal(canonicalScalar('-0'), '0');
    assert.equal(canonicalScalar('12345678901234567890123'), '12345678901234567890123');
    assert.equal(canonicalScalar('460.0'), '460.0');
    assert.equal(canonicalScalar('4.6e2'), '460.0');
    assert.equal(canonicalScalar('1x'), null);
  });
});
