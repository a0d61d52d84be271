import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReplayDigest } from '../../../../src/core/formats/agentledger/bundleChecks';
import { verifyBlobText } from '../../../../src/core/formats/agentledger/evidence';
import { fnv1a64HexOfText, sha256Hex } from '../../../../src/core/digests';
import { canonicalJson, compareCodePoints, parseRawJson, pythonJsonString } from '../../../../src/core/json/pythonRawJson';
import {
  pythonHexId, rustDecodeValue, rustEncodeValue, rustF64Display, rustFormatState, rustFormatValue, rustHexId,
} from '../../../../src/core/formats/agentledger/rustText';
import * as otlpIds from '../../../../src/core/formats/agentledger/otlpIds';
import { CORPUS } from './agentledgerTestUtil';

const sha256Json = (text: string) => 'sha256:' + sha256Hex(canonicalJson(parseRawJson(text)));

describe('agentledger test vectors (§10): Rust', () => {
  it('hex_id pads FNV digests with zeros', () => {
    assert.equal(rustHexId('run_0000000000000001', 32), '2aa66a2ff6920fbc0000000000000000');
    assert.equal(rustHexId('evt-000001', 16), '5af79a18b9906202');
    assert.equal(rustHexId('evt-000003', 16), '5af79818b9905e9c');
    assert.equal(rustHexId('media-000001', 16), '7e84ff41b1e3cbcd');
  });

  it('encode_value and the blob name of its text', () => {
    const enc = rustEncodeValue({ hello: { nested: 'world' } });
    assert.equal(enc, 'O1:68656c6c6f:O1:6e6573746564:S776f726c64:');
    const blob = verifyBlobText('5f69a69b069b5ed5', enc, 'sha256/5f69a69b069b5ed5.json');
    assert.ok(blob.state === 'checked' && blob.ok && blob.decodeError === null);
    assert.deepEqual(blob.state === 'checked' && blob.value, { hello: { nested: 'world' } });
  });

  it('format_state reproduces the exact Rust payload refs of §11', () => {
    assert.equal(rustFormatState({ initial_state: { input: 'hello' } }), 'initial_state={input="hello"}');
    assert.equal(rustFormatState({ tool: 'github.create_pr', args: { title: 'runtime parity' } }), 'args={title="runtime parity"},tool="github.create_pr"');
    assert.equal(
      rustFormatState({ ok: false, metadata: { isolation_level: 'none', fail_closed: true, executor: 'default' }, error: 'sandbox executor "default" is disabled' }),
      'error="sandbox executor "default" is disabled",metadata={executor="default",fail_closed=true,isolation_level="none"},ok=false',
    );
    assert.equal(rustFormatValue({ external_id: 'pr-123', title: 'runtime parity' }), '{external_id="pr-123",title="runtime parity"}');
    assert.equal(rustFormatValue([1, null, 'x', [true]]), '[1,null,"x",[true]]');
  });

  it('f64 Display never uses exponents (§7.2)', () => {
    const cases: [number, string][] = [
      [1, '1'], [0.5, '0.5'], [0.1 + 0.2, '0.30000000000000004'], [1e21, '1000000000000000000000'], [1e-7, '0.0000001'],
      [-0, '-0'], [NaN, 'NaN'], [Infinity, 'inf'], [-Infinity, '-inf'], [1.5e-10, '0.00000000015'], [-2.5e22, '-25000000000000000000000'], [123.456, '123.456'],
    ];
    for (const [n, s] of cases) assert.equal(rustF64Display(n), s, String(n));
  });

  it('decode_value round-trips and rejects bad bodies with the runtime texts', () => {
    const v = { a: [1, 'two', null, true, false, { b: 0.5 }], 'ü': 'ß' };
    const d = rustDecodeValue(rustEncodeValue(v));
    assert.ok(d.ok);
    assert.deepEqual(d.ok && d.value, v);
    const err = (s: string) => {
      const r = rustDecodeValue(s);
      return r.ok ? 'ok' : r.error;
    };
    assert.equal(err('ZZ'), 'trailing bytes in encoded value');
    assert.equal(err('Q'), 'unknown encoded value tag: Q');
    assert.equal(err('S616:'), 'invalid hex string length');
    assert.equal(err('Sff:'), 'invalid utf-8 in encoded value');
    assert.equal(err('O1:61:'), 'unexpected end of encoded value');
    assert.equal(err('S61'), 'missing encoded value delimiter');
    assert.equal(err('N696e66:'), 'ok', 'inf is a valid number text');
  });

  it('replay event_hash joins seq:type:payload_hash with | (§7.4)', () => {
    const d = new ReplayDigest('rust');
    d.add(1, 'run_created', 'ffab2995c2703059', 'initial_state={input="hello"}');
    d.add(2, 'step_created', 'cd24b51d5f2997be', 'step_id="step_0000000000000003"');
    assert.equal(d.hex(), fnv1a64HexOfText('1:run_created:ffab2995c2703059|2:step_created:cd24b51d5f2997be'));
  });
});

describe('agentledger test vectors (§10): Python', () => {
  it('sha256_json of the request and response', () => {
    assert.equal(
      sha256Json('{"args":{"_logical_operation":"create-crash-recovery-issue","body":"Created by AgentLedger demo","title":"Crash recovery bug"},"tool":"github.create_issue"}'),
      'sha256:3da591a1b0726346c984c8927da4dc32b21a045d8eba57752ef21a0d7eac74d9',
    );
    assert.equal(
      sha256Json('{"body":"Created by AgentLedger demo","external_id":"ISSUE-1","title":"Crash recovery bug"}'),
      'sha256:c8230f77e6cb66651d961486439297fd81f9ec230d275374dcc36339e493925b',
    );
  });

  it('blob names are the canonical-JSON SHA-256, never the file bytes', () => {
    const dir = join(CORPUS, 'side-effect-idempotency', 'blobs', 'sha256');
    const pairs: [string, string][] = [
      ['3da591a1b0726346c984c8927da4dc32b21a045d8eba57752ef21a0d7eac74d9', '4b8c0aaa4fd8703a68dfd769c36b38e2587e26c36224bb52662a152a8f24465d'],
      ['c8230f77e6cb66651d961486439297fd81f9ec230d275374dcc36339e493925b', '0ec3a2e4b31b7eb78f808b66e1e6981899fd0df4f1fe640e08144494b2b25983'],
    ];
    for (const [name, fileBytesHash] of pairs) {
      const text = readFileSync(join(dir, `${name}.json`), 'utf8');
      assert.equal(sha256Hex(Buffer.from(text, 'utf8')), fileBytesHash);
      const st = verifyBlobText(name, text, name);
      assert.ok(st.state === 'checked' && st.ok, name);
    }
  });

  it('OTLP hex ids are SHA-256 prefixes', () => {
    assert.equal(pythonHexId('run_88b80ea9cdd44924', 32), '24c095739bad3e4e945a0f60e30d88d9');
    assert.equal(pythonHexId('evt-000001', 16), '4bb5186faa1fd33c');
  });

  it('canonical_json keeps number tokens, escapes like Python and sorts by code point', () => {
    assert.equal(canonicalJson(parseRawJson('{"b": 460.0, "a": [1e-07, 1e+16, -0.0, 10]}')), '{"a":[1e-07,1e+16,-0.0,10],"b":460.0}');
    assert.equal(pythonJsonString('é "q" \\ \n\t\u0001\u007f✓'), '"é \\"q\\" \\\\ \\n\\t\\u0001\u007f✓"');
    // U+FF5E sorts after U+1F600 in UTF-16 unit order but before it by code point, as Python sorts.
    assert.equal(canonicalJson(parseRawJson('{"😀": 1, "～": 2}')), '{"～":2,"😀":1}');
    assert.ok(compareCodePoints('～', '😀') < 0);
    assert.equal(canonicalJson(parseRawJson('{"a": 1, "a": 2}')), '{"a":2}', 'the last duplicate wins, as in json.loads');
    assert.equal(canonicalJson(parseRawJson('[NaN, Infinity, -Infinity, {}, []]')), '[NaN,Infinity,-Infinity,{},[]]');
    assert.throws(() => parseRawJson('{"a": 1,}'));
    assert.throws(() => parseRawJson('[01]'));
  });
});

describe('agentledger OTLP ids (§6.3, §6.5) for the OTLP reader', () => {
  it('every span of the corpus OTLP exports derives its ids from the original ids; the §11 Rust span too', () => {
    const { agentledgerOtlpIdProblem } = otlpIds;
    let spans = 0;
    for (const run of ['approval-granted', 'cancelled']) {
      const doc = JSON.parse(readFileSync(join(CORPUS, run, 'trace.otlp.json'), 'utf8')) as {
        resourceSpans: { scopeSpans: { spans: { traceId: string; spanId: string; attributes: { key: string; value: { stringValue?: string } }[] }[] }[] }[];
      };
      for (const s of doc.resourceSpans[0].scopeSpans[0].spans) {
        const attr = (k: string) => s.attributes.find((a) => a.key === k)?.value.stringValue ?? '';
        const ids = { traceId: s.traceId, spanId: s.spanId, originalTraceId: attr('agentledger.original_trace_id'), originalSpanId: attr('agentledger.original_span_id') };
        assert.equal(agentledgerOtlpIdProblem(ids), null);
        assert.match(agentledgerOtlpIdProblem({ ...ids, spanId: '0'.repeat(16) }) ?? '', /Python SHA-256/);
        spans++;
      }
    }
    assert.ok(spans > 40);
    const rust = { traceId: '2aa66a2ff6920fbc0000000000000000', spanId: '5af79a18b9906202', originalTraceId: 'run_0000000000000001', originalSpanId: 'evt-000001' };
    assert.equal(agentledgerOtlpIdProblem(rust), null);
    assert.match(agentledgerOtlpIdProblem({ ...rust, spanId: '5af79818b9905e9c' }) ?? '', /Rust FNV-1a/);
  });
});
