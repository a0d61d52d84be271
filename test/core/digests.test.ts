import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import {
  algorithmOfDigest, bareDigest, createDigester, digestHex, Fnv1a64, fnv1a64Hex, fnv1a64HexOfText, sha256Hex, utf8,
} from '../../src/core/digests';

/** Reference FNV-1a 64 with BigInt, to cross-check the 16-bit-limb implementation. */
function fnvBig(bytes: Uint8Array): string {
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(16).padStart(16, '0');
}

describe('digests: FNV-1a 64', () => {
  it('matches the format doc test vectors (agentledger §10)', () => {
    const vectors: [string, string][] = [
      ['', 'cbf29ce484222325'],
      ['a', 'af63dc4c8601ec8c'],
      ['foobar', '85944171f73967e8'],
      ['initial_state={input="hello"}', 'ffab2995c2703059'],
      ['step_id="step_0000000000000003"', 'cd24b51d5f2997be'],
      ['args={title="runtime parity"},tool="github.create_pr"', '9a97f820afd2ef72'],
      ['{external_id="pr-123",title="runtime parity"}', '85fe88abee94c116'],
      ['error="sandbox executor "default" is disabled",metadata={executor="default",fail_closed=true,isolation_level="none"},ok=false', '68493432dbc67862'],
      ['run_0000000000000001:1:19:1:4', '8bfa043898243898'],
      ['O1:68656c6c6f:O1:6e6573746564:S776f726c64:', '5f69a69b069b5ed5'],
    ];
    for (const [input, expected] of vectors) {
      assert.equal(fnv1a64Hex(utf8(input)), expected, input);
      assert.equal(fnv1a64HexOfText(input), expected, input);
    }
  });

  it('agrees with a BigInt reference on random and non-ASCII input', () => {
    let seed = 7;
    for (let n = 0; n < 200; n++) {
      const bytes = new Uint8Array(n * 3);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (seed = (seed * 1103515245 + 12345) >>> 0) & 0xff;
      assert.equal(fnv1a64Hex(bytes), fnvBig(bytes));
    }
    assert.equal(fnv1a64HexOfText('päyload ✓ 𝄞'), fnvBig(utf8('päyload ✓ 𝄞')));
  });

  it('is incremental: any split of the input gives the same digest', () => {
    const bytes = utf8('args={title="runtime parity"},tool="github.create_pr"');
    for (let cut = 0; cut <= bytes.length; cut += 5) {
      const h = new Fnv1a64().update(bytes.subarray(0, cut)).update(bytes.subarray(cut));
      assert.equal(h.digestHex(), '9a97f820afd2ef72');
    }
    const t = new Fnv1a64().updateText('foo').updateText('bar');
    assert.equal(t.digestHex(), '85944171f73967e8');
    assert.equal(t.digestHex(), '85944171f73967e8', 'digestHex does not reset or change the state');
  });
});

describe('digests: SHA-256 and helpers', () => {
  it('sha256Hex and the incremental digester agree with node:crypto', () => {
    const text = '{"a":1,"b":[true,null]}';
    const expected = createHash('sha256').update(text).digest('hex');
    assert.equal(sha256Hex(utf8(text)), expected);
    assert.equal(sha256Hex(text), expected);
    const d = createDigester('sha256').update(utf8('{"a":1,')).update(utf8('"b":[true,null]}'));
    assert.equal(d.digestHex(), expected);
    assert.equal(d.digestHex(), expected, 'a second digestHex returns the same value');
    assert.equal(createDigester('fnv1a64').update(utf8('a')).digestHex(), 'af63dc4c8601ec8c');
    assert.equal(digestHex('fnv1a64', utf8('foobar')), '85944171f73967e8');
    assert.equal(digestHex('sha256', utf8('')), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('classifies digests by length and strips labels', () => {
    assert.equal(algorithmOfDigest('cbf29ce484222325'), 'fnv1a64');
    assert.equal(algorithmOfDigest('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'), 'sha256');
    assert.equal(algorithmOfDigest('abc'), null);
    assert.equal(algorithmOfDigest('CBF29CE484222325'), null, 'upper case is not what the writers emit');
    assert.equal(bareDigest('sha256:5f69a69b069b5ed5'), '5f69a69b069b5ed5');
    assert.equal(bareDigest('blob://sha256/5f69a69b069b5ed5.json'), '5f69a69b069b5ed5');
    assert.equal(bareDigest('5f69a69b069b5ed5'), '5f69a69b069b5ed5');
  });
});
