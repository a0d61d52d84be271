import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generateLumenTrace } from '../../../bench/lumenBench';
import { brief, DOC_EXAMPLE, editLine, readLines, run, SUCCESS, writeTrace } from './lumenHelpers';

const sha = (s: string) => 'sha256:' + createHash('sha256').update(s).digest('hex');
const base = readLines(SUCCESS);
const hashOf = (i: number) => JSON.parse(base[i - 1]).hash as string;

async function verify(lines: string[], options?: Parameters<typeof writeTrace>[1]) {
  return (await run(writeTrace(lines, options), 'verify')).result;
}

describe('lumen verify: tamper vectors of §6.6 on the §8 example', () => {
  const ex = readLines(DOC_EXAMPLE);
  it('details.ip 7 → 8 on seq 3: the documented event hash mismatch', async () => {
    const r = await verify(ex.map((l, i) => (i === 2 ? l.replace('"ip":7', '"ip":8') : l)));
    assert.deepEqual(r.findings.map((f) => [f.rule, f.line, f.message]), [[
      'lumen/event-hash', 3,
      "trace event hash mismatch at seq 3 (expected 'sha256:5cae7b80299f2229db3d74b19ef7706b9e8da4fdd1eee8667a9f4c98eeb493cd', got 'sha256:aecd7d615fdfef1caa02940dc2d02883d4a6e5370a07a6570ec6a1d0e17dd271')",
    ]]);
  });
  it('deleting seq 3: the documented sequence mismatch, with the broken link, at the line where it shows', async () => {
    const r = await verify(ex.filter((_, i) => i !== 2));
    assert.deepEqual(brief(r.findings), ['lumen/chain-prev-hash@3', 'lumen/chain-seq@3']);
    assert.equal(r.findings[1].message, 'trace sequence mismatch at seq 4 (expected 3)');
  });
  it('editing only a timestamp still verifies', async () => {
    const r = await verify(ex.map((l, i) => (i === 3 ? l.replace('22:13:20.015Z', '23:59:59.999Z') : l)));
    assert.deepEqual(r.findings, []);
  });
  it('an extra key still verifies, flagged lumen/unknown-key', async () => {
    const r = await verify(ex.map((l, i) => (i === 4 ? l.replace(/}$/, ',"note":"added later"}') : l)));
    assert.deepEqual(r.findings.map((f) => [f.rule, f.severity, f.line]), [['lumen/unknown-key', 'warning', 5]]);
    assert.match(r.findings[0].message, /`note`/);
    assert.equal(r.ok, true);
  });
});

describe('lumen verify: mutations of a real run', () => {
  it('an edited hashed field breaks only its own line', async () => {
    const r = await verify(base.map((l, i) => (i === 40 ? editLine(l, (o) => (o.cell = 'other')) : l)));
    assert.deepEqual(brief(r.findings), ['lumen/event-hash@41']);
    assert.match(r.findings[0].message, new RegExp(`got '${hashOf(41)}'`));
  });
  it('a deleted line shows as a seq gap and a broken link at the next line', async () => {
    const r = await verify(base.filter((_, i) => i !== 9));
    assert.deepEqual(brief(r.findings), ['lumen/chain-prev-hash@10', 'lumen/chain-seq@10']);
    assert.equal(r.findings[1].message, 'trace sequence mismatch at seq 11 (expected 10)');
    assert.equal(r.findings[0].message, `trace hash chain mismatch at seq 11 (expected prev '${hashOf(9)}', got '${hashOf(10)}')`);
  });
  it('a swapped pair breaks the three links around it; upstream would stop at the first', async () => {
    const lines = [...base];
    [lines[29], lines[30]] = [lines[30], lines[29]];
    const r = await verify(lines);
    assert.deepEqual(brief(r.findings), [
      'lumen/chain-first-failure@30', 'lumen/chain-prev-hash@30', 'lumen/chain-seq@30',
      'lumen/chain-prev-hash@31', 'lumen/chain-seq@31', 'lumen/chain-prev-hash@32', 'lumen/chain-seq@32',
    ]);
    assert.equal(r.findings.find((f) => f.rule === 'lumen/chain-seq')!.message, 'trace sequence mismatch at seq 31 (expected 30)');
  });
  it('a duplicated line is reported on the copy only', async () => {
    const r = await verify([...base.slice(0, 25), base[24], ...base.slice(25)]);
    assert.deepEqual(brief(r.findings), ['lumen/chain-prev-hash@26', 'lumen/chain-seq@26']);
    assert.equal(r.findings[1].message, 'trace sequence mismatch at seq 25 (expected 26)');
  });
  it('a truncated tail verifies line by line but is reported at the end against the missing run_end', async () => {
    const r = await verify(base.slice(0, 45));
    assert.deepEqual(r.findings.map((f) => [f.rule, f.severity, f.line]), [['lumen/truncated', 'warning', 45]]);
    assert.match(r.findings[0].message, /^trace truncated \(no run_end\): the last event is call_enter \(seq 45\)/);
    assert.equal(r.ok, true, 'a cut tail cannot be proven from the chain');
  });
  it('a tail cut mid-line is a torn tail plus the missing run_end', async () => {
    const r = await verify([...base.slice(0, 44), base[44].slice(0, 100)], { trailingNewline: false });
    assert.deepEqual(brief(r.findings), ['lumen/truncated@45', 'parse/torn-tail@45']);
  });
  it('a changed prev_hash breaks that link and that line\'s hash, nothing after', async () => {
    const r = await verify(base.map((l, i) => (i === 14 ? editLine(l, (o) => (o.prev_hash = hashOf(13))) : l)));
    assert.deepEqual(brief(r.findings), ['lumen/chain-prev-hash@15', 'lumen/event-hash@15']);
  });
  it('an edited seq is one finding pair on its line, not a cascade', async () => {
    const r = await verify(base.map((l, i) => (i === 29 ? editLine(l, (o) => (o.seq = 31)) : l)));
    assert.deepEqual(brief(r.findings), ['lumen/chain-seq@30', 'lumen/event-hash@30']);
  });
  it('a cut head fails genesis on line 1', async () => {
    const r = await verify(base.slice(3));
    assert.deepEqual(brief(r.findings), ['lumen/chain-genesis@1', 'lumen/chain-seq@1']);
    assert.match(r.findings[0].message, /expected prev 'sha256:genesis'/);
  });
  it('a blank line and a garbage line fail upstream\'s reader; the chain is followed around them', async () => {
    const withBlank = await verify([...base.slice(0, 10), '', ...base.slice(10)]);
    assert.deepEqual(brief(withBlank.findings), ['lumen/line-json@11']);
    const garbage = await verify(base.map((l, i) => (i === 19 ? l.slice(0, 50) : l)));
    assert.deepEqual(brief(garbage.findings), ['lumen/line-json@20']);
    assert.match(garbage.findings[0].message, /^invalid JSON in trace at line 20: /);
  });
  it('a repeated known key fails loading; a malformed hash is named', async () => {
    const dup = await verify(base.map((l, i) => (i === 5 ? l.replace(/}$/, ',"cell":"main"}') : l)));
    assert.deepEqual(brief(dup.findings), ['lumen/line-json@6']);
    assert.match(dup.findings[0].message, /duplicate field `cell`/);
    const upper = await verify(base.map((l, i) => (i === 59 ? l.replace(/"hash":"sha256:([0-9a-f]+)"/, (_m, h: string) => `"hash":"sha256:${h.toUpperCase()}"`) : l)));
    assert.deepEqual(brief(upper.findings), ['lumen/event-hash@60', 'lumen/hash-format@60']);
  });
  it('wrong types fail loading even when the hash matches', async () => {
    const r = await verify(base.map((l, i) => (i === 13 ? editLine(l, (o) => { delete o.hash; }) : l)));
    assert.deepEqual(brief(r.findings), ['lumen/required-fields@14']);
    assert.match(r.findings[0].message, /required field `hash` is missing/);
  });
  it('what JSON.parse accepts but serde_json refuses fails loading: lone surrogates, out-of-range numbers, a BOM', async () => {
    const surrogate = await verify(base.map((l, i) => (i === 19 ? l.replace('"cell":"main"', '"cell":"\\ud800main"') : l)));
    assert.deepEqual(brief(surrogate.findings), ['lumen/line-json@20']);
    assert.match(surrogate.findings[0].message, /lone leading surrogate/);
    const range = await verify(base.map((l, i) => (i === 19 ? l.replace('"ip":7', '"ip":1e400') : l)));
    assert.deepEqual(brief(range.findings), ['lumen/line-json@20']);
    assert.match(range.findings[0].message, /number out of range/);
    const bomPath = writeTrace([]);
    writeFileSync(bomPath, '\uFEFF' + base.join('\n') + '\n');
    assert.deepEqual(brief((await run(bomPath, 'verify')).result.findings), ['lumen/line-json@1', 'parse/bom@1']);
  });
  it('reads CRLF line ends as upstream does (the \\r is stripped)', async () => {
    const path = writeTrace([]);
    writeFileSync(path, base.join('\r\n') + '\r\n');
    assert.deepEqual((await run(path, 'verify')).result.findings, []);
  });
});

describe('lumen verify: number fidelity', () => {
  /** Hand-built lines whose pre-images are written out literally, independent of the verifier. */
  function chainOf(rows: { line: (prev: string) => string; preimage: (prev: string) => string }[]): string[] {
    let prev = 'sha256:genesis';
    return rows.map((r) => {
      const hash = sha(r.preimage(prev));
      const line = r.line(prev).replace('"hash":"?"', `"hash":"${hash}"`);
      prev = hash;
      return line;
    });
  }
  const doc = 'sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae';
  const pre = (seq: string, kind: string, prev: string, extra: Record<string, string> = {}) => {
    const f: Record<string, string> = { cached: 'null', cell: 'null', details: 'null', doc_hash: `"${doc}"`, inputs_hash: 'null', kind: `"${kind}"`, latency_ms: 'null', message: 'null', outputs_hash: 'null', policy_hash: 'null', prev_hash: `"${prev}"`, seq, tool_id: 'null', tool_version: 'null', ...extra };
    return `{${Object.keys(f).sort().map((k) => `"${k}":${f[k]}`).join(',')}}`;
  };
  it('keeps integers above 2^53 and re-lays floats out as serde_json does', async () => {
    const lines = chainOf([
      { line: (p) => `{"seq":1,"kind":"run_start","prev_hash":"${p}","hash":"?","timestamp":"2023-11-14T22:13:20Z","doc_hash":"${doc}"}`, preimage: (p) => pre('1', 'run_start', p) },
      {
        line: (p) => `{"seq":2,"kind":"tool_call","prev_hash":"${p}","hash":"?","timestamp":"2023-11-14T22:13:20Z","doc_hash":"${doc}","cell":"main","tool_id":"t","tool_version":"1","latency_ms":18446744073709551615,"cached":false,"details":{"success":true,"z":9007199254740993,"f":[1.0,1e21,1e-7,-0.0,1.50]}}`,
        preimage: (p) => pre('2', 'tool_call', p, { cell: '"main"', tool_id: '"t"', tool_version: '"1"', latency_ms: '18446744073709551615', cached: 'false', details: '{"f":[1.0,1e21,1e-7,-0.0,1.5],"success":true,"z":9007199254740993}' }),
      },
      { line: (p) => `{"seq":3,"kind":"run_end","prev_hash":"${p}","hash":"?","timestamp":"2023-11-14T22:13:20Z","doc_hash":"${doc}"}`, preimage: (p) => pre('3', 'run_end', p) },
    ]);
    const r = await verify(lines);
    assert.deepEqual(r.findings.map((f) => [f.rule, f.severity, f.line]), [['lumen/float-in-details', 'info', 2]]);
  });
  it('a seq above 2^53 is compared exactly', async () => {
    const lines = chainOf([
      { line: (p) => `{"seq":9007199254740993,"kind":"run_start","prev_hash":"${p}","hash":"?","timestamp":"2023-11-14T22:13:20Z","doc_hash":"${doc}"}`, preimage: (p) => pre('9007199254740993', 'run_start', p) },
    ]);
    const r = await verify([...lines, ...lines.slice(1)]);
    assert.deepEqual(r.findings.map((f) => f.message), [
      'trace sequence mismatch at seq 9007199254740993 (expected 1)', 'trace truncated (no run_end): the last event is run_start; a finished run ends with run_end',
    ]);
  });
});

describe('lumen verify: generated traces and the doc_hash source', () => {
  it('a generated trace verifies, and its doc_hash resolves to the source next to .lumen/', async () => {
    const path = writeTrace([]);
    const source = 'cell main() -> Int\n  42\nend\n';
    const gen = await generateLumenTrace(path, { targetBytes: 64 * 1024, source });
    const project = dirname(dirname(dirname(path)));
    writeFileSync(join(project, 'main.lm'), source);
    writeFileSync(join(project, 'other.lm'), 'not it');
    const { model, result } = await run(path, 'verify');
    assert.equal(model.events.size, gen.lines);
    assert.deepEqual(brief(result.findings), ['lumen/doc-hash-resolve@1']);
    assert.match(result.findings[0].message, /main\.lm$/);
    assert.equal(JSON.parse(readLines(path).at(-1)!).hash, gen.headHash);
    assert.deepEqual((await run(path, 'check')).result.findings, []);
  });
  it('an unfinished generated run is reported as truncated', async () => {
    const path = writeTrace([]);
    await generateLumenTrace(path, { targetBytes: 8 * 1024, unfinished: true });
    assert.deepEqual(brief((await run(path, 'verify')).result.findings), [`lumen/truncated@${readLines(path).length}`]);
  });
});
