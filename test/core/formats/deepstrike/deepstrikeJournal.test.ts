import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { operationDirName, recFileName } from '../../../../src/core/formats/deepstrike/journalChecks';
import { canonicalJson, kernelDigest } from '../../../../src/core/formats/deepstrike/canonical';
import { loadTrace } from '../../../../src/core/loadTrace';
import { brief, checkFile, jsonl, writeTemp } from './deepstrikeTestUtil';
import { corpusPath } from '../../../helpers/corpus';

type Obj = Record<string, unknown>;
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const STEP_DIGEST_INFO = '1 info deepstrike/journal-step-digest';

/** Builds a valid kernel record chain with the writer's rules (§8.2, §8.4); `tweak` edits a record before it is digested. */
function buildChain(op: string, n: number, tweak?: (i: number, r: Obj) => void): Obj[] {
  const out: Obj[] = [];
  let prev: string | null = null;
  for (let i = 0; i < n; i++) {
    const input = i === 0 ? { kind: 'configure_operation', config: { max_turns: 12 } } : { kind: 'resolve_effect', effect_id: `${op}:step:${i}:effect:0`, outcome: { status: 'succeeded' } };
    const bytes = canonicalJson({ operation_id: op, input_id: `in-${i}`, observed_at_ms: String(1700000000000 + i * 1000), input });
    const r: Obj = {
      canonical_input: { data: b64(bytes), encoding: 'base64' }, input_digest: kernelDigest(bytes), input_id: `in-${i}`, operation_id: op,
      previous_record_digest: prev, step_digest: kernelDigest(`step ${i}`), step_seq: String(i),
    };
    tweak?.(i, r);
    r.record_digest = kernelDigest(canonicalJson(r));
    prev = r.record_digest as string;
    out.push(r);
  }
  return out;
}

/** The `.rec` envelope of a record, as the Node FileKernelJournal writes it. */
function recOf(r: Obj): Obj {
  return {
    step_seq: Number(r.step_seq), record_digest: r.record_digest,
    ...(r.previous_record_digest ? { previous_record_digest: r.previous_record_digest } : {}), record_bytes: b64(canonicalJson(r)),
  };
}

/** Writes records into `<tmp>/<name>/kernel-journal/op-…/records/<12 digits>.rec` and returns the records folder. */
function writeJournalDir(name: string, op: string, records: Obj[]): string {
  const dir = join(dirname(writeTemp(`${name}.marker`, '')), name, 'kernel-journal', operationDirName(op), 'records');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const r of records) writeFileSync(join(dir, recFileName(Number(r.step_seq))), JSON.stringify(recOf(r)));
  return dir;
}

const recLines = (records: Obj[]) => jsonl(records.map((r) => JSON.stringify(recOf(r))));

describe('deepstrike journal: canonical JSON test vectors (§8.5)', () => {
  const vectors: [string, unknown, string, string][] = [
    ['empty_object', {}, '{}', '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a'],
    ['empty_array', [], '[]', '4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945'],
    ['key_order', { '': 4, A: 2, a: 3, b: 1 }, '{"":4,"A":2,"a":3,"b":1}', '1ad63bf4b6912ecf86a49a38efa71a325be67c2764432e556a6faa08bdea4d96'],
    ['code_point_key_order', { z: 3, '\uFFFD': 2, '\u{10000}': 1 }, '{"z":3,"\uFFFD":2,"\u{10000}":1}', 'e48b6c7a4c01c0c33179350d7515d817dd74652ee0eb9b62e590bae891f28338'],
    ['escapes', '" \\ \n \t \u0001 é 😀', '"\\" \\\\ \\n \\t \\u0001 é 😀"', '2867e2d4cb0865bbfcc4a2c7cb80f4ec8a970c9672556b97c43303ee03cd66b3'],
    ['numbers', JSON.parse('[0, -0.0, 2.0, -17, 0.5, 9007199254740991]'), '[0,0,2,-17,0.5,9007199254740991]', '09ec7f2811e68d95b61a6f85d2bf264c7078f47afd5c263abc3e093618963480'],
    ['null_and_bools', { a: null, b: true, c: false }, '{"a":null,"b":true,"c":false}', '17073ac6186d8c60c0c0da712ce30cdb52ed5a9155f616983da39a9785dce715'],
    ['nested', { outer: { inner: [1, { deep: 'value' }] } }, '{"outer":{"inner":[1,{"deep":"value"}]}}', '56158d87e0971c8158798202844a889f6738670d32cdf90816ec23aa85ece588'],
    ['wire_u64_is_a_string', { step_seq: '18446744073709551615' }, '{"step_seq":"18446744073709551615"}', 'ac4e9d639d26777694d6e3ff4a8453dae45d84305db5edd7692fcbb0ca8c29f8'],
  ];
  for (const [name, value, canonical, digest] of vectors) {
    it(name, () => {
      assert.equal(canonicalJson(value), canonical);
      assert.equal(kernelDigest(canonical), `sha256:${digest}`);
    });
  }
  it('rejects integers beyond ±(2^53−1) and nesting beyond 128', () => {
    assert.throws(() => canonicalJson(JSON.parse('9007199254740992')), /exact-integer range/);
    assert.throws(() => canonicalJson(JSON.parse('-9007199254740992')), /exact-integer range/);
    let deep: unknown = 1;
    for (let i = 0; i < 130; i++) deep = [deep];
    assert.throws(() => canonicalJson(deep), /deeper than 128/);
  });
});

describe('deepstrike journal: chain vectors (upstream golden records, when the seed corpus holds them)', () => {
  const dir = corpusPath('deepstrike/kernel-wire');
  it('genesis, transition and the three-link chain reproduce their digests', async function () {
    if (!existsSync(join(dir, 'golden_record_chain.json'))) this.skip();
    const read = (n: string) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as { record: Obj; links: { record: Obj }[]; record_bytes: string };
    const genesis = read('golden_record_genesis.json');
    assert.equal(canonicalJson(genesis.record), genesis.record_bytes);
    const chain = read('golden_record_chain.json').links.map((l) => l.record);
    assert.deepEqual(chain.map((r) => r.record_digest), [
      'sha256:24da18d1cf4d8d8daad8dc71db68b14965ebce2de1d4e75caf83021cf625db4a',
      'sha256:8be10f59fe88f244c604ea38fab2a4298dc45f416935d8f4e7d848c32646b5b9',
      'sha256:793798947c6f8e66c643403ff2fc8f74804fe83c39c90c3bd4467671d75a2ee7',
    ]);
    const p = writeTemp('golden.jsonl', recLines([...chain, read('golden_record_transition.json').record].slice(0, 3)));
    assert.deepEqual(brief(await checkFile(p, 'verify')), [STEP_DIGEST_INFO]);
  });
});

describe('deepstrike journal: verification', () => {
  const OP = 'op-test-1';
  const chain = buildChain(OP, 4);

  it('a clean chain as JSONL, as a JSON array, as decoded records and as .rec files', async () => {
    const jl = writeTemp('chain.jsonl', recLines(chain));
    const m = await loadTrace(jl);
    assert.equal(m.format, 'deepstrike');
    assert.deepEqual(m.events.get(0).label.split(' ').slice(0, 5), ['journal', 'step', '0', 'configure_operation', 'in-0']);
    assert.deepEqual(brief(await checkFile(jl, 'verify')), [STEP_DIGEST_INFO]);
    assert.deepEqual(brief(await checkFile(writeTemp('chain.events.json', JSON.stringify(chain.map(recOf), null, 2)), 'verify')), [STEP_DIGEST_INFO]);
    assert.deepEqual(brief(await checkFile(writeTemp('decoded.jsonl', jsonl(chain.map((r) => JSON.stringify(r)))), 'verify')), [STEP_DIGEST_INFO]);
    const dir = writeJournalDir('clean', OP, chain);
    for (const r of chain) assert.deepEqual(brief(await checkFile(join(dir, recFileName(Number(r.step_seq))), 'verify')), [STEP_DIGEST_INFO]);
  });

  it('tampered record bytes: record digest', async () => {
    const recs = chain.map(recOf);
    recs[1].record_bytes = b64(Buffer.from(recs[1].record_bytes as string, 'base64').toString().replace('"in-1"', '"in-9"'));
    const f = await checkFile(writeTemp('tamper.jsonl', jsonl(recs.map((r) => JSON.stringify(r)))), 'verify');
    assert.deepEqual(brief(f), [STEP_DIGEST_INFO, '2 error deepstrike/journal-record-digest']);
  });

  it('input digest, previous digest, genesis and operation, each alone', async () => {
    const run = async (name: string, tweak: (i: number, r: Obj) => void) => brief(await checkFile(writeTemp(name, recLines(buildChain(OP, 3, tweak))), 'verify'));
    assert.deepEqual(await run('input.jsonl', (i, r) => i === 1 && (r.input_digest = kernelDigest('x'))), [STEP_DIGEST_INFO, '2 error deepstrike/journal-input-digest']);
    assert.deepEqual(await run('prev.jsonl', (i, r) => i === 2 && (r.previous_record_digest = kernelDigest('x'))), [STEP_DIGEST_INFO, '3 error deepstrike/journal-prev-digest']);
    assert.deepEqual(await run('genesis.jsonl', (i, r) => i === 0 && (r.previous_record_digest = kernelDigest('x'))), ['1 error deepstrike/journal-genesis', STEP_DIGEST_INFO]);
    assert.deepEqual(await run('op.jsonl', (i, r) => i === 2 && (r.operation_id = 'op-other')), [STEP_DIGEST_INFO, '3 error deepstrike/journal-operation']);
    assert.deepEqual(await run('null-prev.jsonl', (i, r) => i === 1 && (r.previous_record_digest = null)), [STEP_DIGEST_INFO, '2 error deepstrike/journal-prev-digest']);
  });

  it('deleted, duplicated and swapped records', async () => {
    const v = async (name: string, rs: Obj[]) => brief(await checkFile(writeTemp(name, recLines(rs)), 'verify'));
    assert.deepEqual(await v('deleted.jsonl', [chain[0], chain[2], chain[3]]), [STEP_DIGEST_INFO, '2 error deepstrike/journal-prev-digest', '2 error deepstrike/journal-step-seq']);
    assert.deepEqual(await v('duplicated.jsonl', [chain[0], chain[1], chain[1], chain[2]]), [STEP_DIGEST_INFO, '3 error deepstrike/journal-prev-digest', '3 error deepstrike/journal-step-seq']);
    assert.deepEqual(await v('truncated-head.jsonl', [chain[2], chain[3]]), ['1 info deepstrike/journal-pruned', STEP_DIGEST_INFO]);
  });

  it('non-canonical record bytes and outer/inner disagreement', async () => {
    const recs = chain.map(recOf);
    recs[1].record_bytes = b64(JSON.stringify(chain[1], null, 1));
    recs[2].step_seq = 7;
    const f = await checkFile(writeTemp('canon.jsonl', jsonl(recs.map((r) => JSON.stringify(r)))), 'verify');
    assert.deepEqual(brief(f), [STEP_DIGEST_INFO, '2 error deepstrike/journal-canonical', '3 error deepstrike/journal-step-seq']);
  });

  it('file evidence: .rec name, op- directory, the previous .rec, pruned.json', async () => {
    const dir = writeJournalDir('evidence', OP, chain);
    const one = join(dir, recFileName(1));
    writeFileSync(join(dir, recFileName(9)), readFileSync(one));
    assert.deepEqual(brief(await checkFile(join(dir, recFileName(9)), 'verify')), [STEP_DIGEST_INFO, '1 error deepstrike/journal-step-seq']);
    const wrongOp = writeJournalDir('wrong-op', OP, chain);
    const moved = join(dirname(dirname(wrongOp)), 'op-b3RoZXI', 'records');
    mkdirSync(moved, { recursive: true });
    writeFileSync(join(moved, recFileName(0)), readFileSync(join(wrongOp, recFileName(0))));
    assert.deepEqual(brief(await checkFile(join(moved, recFileName(0)), 'verify')), ['1 error deepstrike/journal-operation', STEP_DIGEST_INFO]);
    // The previous .rec on disk names another digest.
    writeFileSync(join(dir, recFileName(0)), JSON.stringify({ ...recOf(chain[0]), record_digest: kernelDigest('other') }));
    assert.deepEqual(brief(await checkFile(one, 'verify')), ['1 error deepstrike/journal-prev-digest', STEP_DIGEST_INFO]);
    // Pruned: the previous record is gone and pruned.json covers it.
    rmSync(join(dir, recFileName(0)));
    writeFileSync(join(dir, '..', 'pruned.json'), JSON.stringify({ through_step_seq: 0, covered_head: chain[0].record_digest }));
    const pruned = await checkFile(one, 'verify');
    assert.deepEqual(brief(pruned), ['1 info deepstrike/journal-pruned', STEP_DIGEST_INFO]);
    assert.match(pruned[0].message, /were pruned/);
    writeFileSync(join(dir, '..', 'pruned.json'), JSON.stringify({ through_step_seq: 0, covered_head: kernelDigest('x') }));
    assert.match((await checkFile(one, 'verify'))[0].message, /but this record links to/);
  });
});
