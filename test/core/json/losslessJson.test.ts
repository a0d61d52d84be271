import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import {
  canonicalize, canonicalJson, compareUtf8, formatF64, LosslessJsonError, LosslessNumber, LosslessObject, parseLossless, scanMembers,
  serdeNumberText, serdeParseF64,
} from '../../../src/core/json/losslessJson';

const sha = (s: string) => 'sha256:' + createHash('sha256').update(s).digest('hex');

describe('lossless JSON: lumen.md §6.6 test vectors', () => {
  it('sha256_hash of "hello" and "foo"', () => {
    assert.equal(sha('hello'), 'sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
    assert.equal(sha('foo'), 'sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae');
  });
  it('canonical JSON of the nested example, byte for byte', () => {
    const input = '{"b":2,"a":1,"z":null,"n":{"y":[1,{"k":"\\u0001\\n\\"é"}],"x":true}}';
    const expected = '{"a":1,"b":2,"n":{"x":true,"y":[1,{"k":"\\u0001\\n\\"é"}]},"z":null}';
    assert.equal(canonicalize(input), expected);
    assert.equal(canonicalJson(parseLossless(input)), expected);
    assert.equal(canonicalJson(JSON.parse(input)), expected);
  });
});

describe('lossless JSON: numbers (§6.5)', () => {
  it('formats float tokens as serde_json (ryu layout) does, unlike JavaScript', () => {
    const table: [string, string][] = [['1.0', '1.0'], ['1e21', '1e21'], ['1e16', '1e16'], ['1e-6', '1e-6'], ['-0.0', '-0.0'], ['1.50', '1.5']];
    for (const [token, serde] of table) assert.equal(canonicalize(token), serde, token);
  });
  it('lays out every ryu branch', () => {
    const cases: [string, string][] = [
      ['1e15', '1000000000000000.0'], ['123456789012345.0', '123456789012345.0'], ['12345.678e3', '12345678.0'], ['0.5', '0.5'],
      ['1234.5678', '1234.5678'], ['1e-5', '0.00001'], ['0.000123', '0.000123'], ['1.5e300', '1.5e300'], ['2.5e-7', '2.5e-7'],
      ['5e-324', '5e-324'], ['1.7976931348623157e308', '1.7976931348623157e308'], ['-2.5E+3', '-2500.0'], ['0e10', '0.0'], ['1E2', '100.0'],
    ];
    for (const [token, serde] of cases) assert.equal(canonicalize(token), serde, token);
    assert.equal(formatF64(-0), '-0.0');
    assert.equal(formatF64(0.1 + 0.2), '0.30000000000000004');
  });
  it('keeps 64-bit integers exactly, above 2^53 too', () => {
    for (const t of ['0', '9007199254740993', '18446744073709551615', '-1', '-9223372036854775808', '123456789012345678']) {
      assert.equal(canonicalize(t), t);
      assert.equal(canonicalize(`{"n":${t}}`), `{"n":${t}}`);
    }
    const big = '{"seq":18446744073709551615,"details":{"id":9007199254740993}}';
    assert.equal(canonicalize(big), '{"details":{"id":9007199254740993},"seq":18446744073709551615}');
    assert.notEqual(JSON.stringify(JSON.parse(big)), big, 'plain JSON.parse would lose these digits');
  });
  it('turns what serde_json cannot hold as an integer into an f64', () => {
    assert.equal(serdeNumberText('-0'), '-0.0');
    assert.equal(serdeNumberText('18446744073709551616'), '1.8446744073709552e19');
    assert.equal(serdeNumberText('-9223372036854775809'), '-9.223372036854776e18');
    assert.equal(serdeNumberText('123456789012345678901234567890'), '1.2345678901234568e29');
  });
  it('refuses out-of-range numbers as serde_json does, and underflows to zero', () => {
    assert.throws(() => canonicalize('1e400'), LosslessJsonError);
    assert.throws(() => canonicalize('{"a":[-1e309]}'), /number out of range/);
    assert.equal(canonicalize('1e-400'), '0.0');
    assert.equal(canonicalize('-1e-400'), '-0.0');
    assert.equal(canonicalize('0e999999999999'), '0.0');
  });
  it('parses floats with serde_json\'s default algorithm (significand as f64, times or over a power of ten)', () => {
    // 19 significant digits: serde rounds the u64 significand to f64 first, then divides by 1e19.
    const token = '0.1000000000000000055511151231257827';
    assert.equal(serdeParseF64(token), Number(BigInt('1000000000000000055')) / 1e19);
    assert.equal(serdeParseF64('3.14'), 3.14);
    assert.equal(serdeParseF64('-12.5e-1'), -1.25);
  });
});

describe('lossless JSON: strings and keys', () => {
  it('escapes like serde_json: quotes, backslashes and C0 controls only', () => {
    assert.equal(canonicalize('"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u001f\\u007f\\u00e9\\u2028"'), '"a\\"b\\\\c/d\\b\\f\\n\\r\\t\\u001f\u007fé\u2028"');
    assert.equal(canonicalize('"\\ud83d\\ude00"'), '"😀"');
    assert.equal(canonicalize('"\\u0000"'), '"\\u0000"');
  });
  it('rejects what serde_json rejects in strings', () => {
    assert.throws(() => canonicalize('"\\ud800"'), /lone leading surrogate/);
    assert.throws(() => canonicalize('"\\udc00x"'), /lone trailing surrogate/);
    assert.throws(() => canonicalize('"a\u0001b"'), /control character/);
    assert.throws(() => canonicalize('"\\x"'), /invalid escape/);
    assert.throws(() => canonicalize('"open'), /EOF while parsing a string/);
  });
  it('sorts keys by UTF-8 bytes, not UTF-16 code units', () => {
    const text = '{"😀":1,"\uffff":2,"é":3,"e":4,"Z":5}';
    assert.equal(canonicalize(text), '{"Z":5,"e":4,"é":3,"\uffff":2,"😀":1}');
    assert.ok(compareUtf8('\uffff', '😀') < 0);
    assert.ok('\uffff' > '😀', 'JavaScript order differs here');
  });
  it('keeps the last of repeated keys in canonical output, and all of them in the tree', () => {
    assert.equal(canonicalize('{"a":1,"b":2,"a":3}'), '{"a":3,"b":2}');
    const tree = parseLossless('{"a":1,"b":2,"a":3}') as LosslessObject;
    assert.deepEqual(tree.keys, ['a', 'b', 'a']);
    assert.equal((tree.get('a') as LosslessNumber).raw, '3');
  });
  it('drops whitespace and keeps arrays in order', () => {
    assert.equal(canonicalize(' { "b" : [ 3 , 1 , { "y" : 1 , "x" : 2 } ] ,\n"a":\ttrue } '), '{"a":true,"b":[3,1,{"x":2,"y":1}]}');
    assert.equal(canonicalize('[]'), '[]');
    assert.equal(canonicalize('{}'), '{}');
  });
});

describe('lossless JSON: syntax and structure', () => {
  it('rejects invalid JSON with a position', () => {
    for (const bad of ['{"a":1,}', '[1,]', '01', '1.', '.5', '+1', '-', '{"a" 1}', '{a:1}', 'tru', '{"a":1} x', '', '1e', '[1 2]']) {
      assert.throws(() => canonicalize(bad), LosslessJsonError, JSON.stringify(bad));
    }
  });
  it('enforces serde_json\'s nesting limit (127 open containers)', () => {
    assert.doesNotThrow(() => canonicalize('['.repeat(127) + ']'.repeat(127)));
    assert.throws(() => canonicalize('['.repeat(128) + ']'.repeat(128)), /recursion limit/);
  });
  it('parses a lossless tree with numbers as token text', () => {
    const v = parseLossless('{"n":[1.50,-0,18446744073709551615],"s":"x","t":true,"z":null}') as LosslessObject;
    const arr = v.get('n') as LosslessNumber[];
    assert.deepEqual(arr.map((n) => n.raw), ['1.50', '-0', '18446744073709551615']);
    assert.deepEqual(arr.map((n) => n.isInteger), [false, false, true]);
    assert.equal(canonicalJson(v), '{"n":[1.5,-0.0,18446744073709551615],"s":"x","t":true,"z":null}');
  });
  it('canonicalizes plain JavaScript values too', () => {
    assert.equal(canonicalJson({ b: [1, 2.5, -0, null], a: 'é', c: { y: true, x: 10n } }), '{"a":"é","b":[1,2.5,-0.0,null],"c":{"x":10,"y":true}}');
  });
  it('scanMembers reports each top-level member with its canonical text, kind and floats', () => {
    const seen: [string, string, string, boolean][] = [];
    scanMembers('{"seq":1,"details":{"b":1.0,"a":[2]},"cell":null,"kind":"x","seq":2}', (k, c, kind, f) => seen.push([k, c, kind, f]));
    assert.deepEqual(seen, [
      ['seq', '1', 'integer', false], ['details', '{"a":[2],"b":1.0}', 'object', true], ['cell', 'null', 'null', false],
      ['kind', '"x"', 'string', false], ['seq', '2', 'integer', false],
    ]);
    assert.throws(() => scanMembers('[1]', () => {}), /expected a JSON object/);
  });
});
