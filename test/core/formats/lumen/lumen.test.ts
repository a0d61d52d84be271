import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { LumenLineReader } from '../../../../src/core/formats/lumen/lumenLine';
import { detectFormat } from '../../../../src/core/detect';
import { lumenAdapter, sniffLumen } from '../../../../src/core/formats/lumen/adapter';
import { loadTrace, TraceModel } from '../../../../src/core/loadTrace';
import { CORPUS_ROOT } from '../../../helpers/corpus';
import {
  brief, DOC_EXAMPLE, FAILED_TOOL_CONTINUES, MISSING_20, readLines, run, SCHEMA_FAILURE, SUCCESS, TAMPERED, TOOL_FAILURE, TRACE_DIR,
} from './lumenHelpers';

function parentLines(model: TraceModel): (number | null)[] {
  const t = model.events;
  const out: (number | null)[] = [];
  for (let i = 0; i < t.size; i++) out.push(t.parent(i) < 0 ? null : t.lineOf(t.parent(i)));
  return out;
}

/** First values of a file as the loader samples them (JSONL lines, or one JSON document). */
function sampleOf(path: string) {
  const text = readFileSync(path, 'utf8');
  const values: unknown[] = [];
  for (const line of text.split('\n')) {
    if (values.length >= 20 || line.trim() === '') continue;
    try {
      values.push(JSON.parse(line));
    } catch {
      try {
        const doc = JSON.parse(text);
        return { values: Array.isArray(doc) ? doc.slice(0, 20) : [doc], fileName: basename(path), path, document: true };
      } catch {
        return null;
      }
    }
  }
  return { values, fileName: basename(path), path, document: false };
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

describe('lumen adapter: detection', () => {
  const corpus = CORPUS_ROOT;
  it('claims every lumen corpus file with confidence', async () => {
    for (const file of [SUCCESS, TOOL_FAILURE, SCHEMA_FAILURE, FAILED_TOOL_CONTINUES, TAMPERED, MISSING_20]) {
      const model = await loadTrace(file);
      assert.equal(model.format, 'lumen', file);
      assert.ok(model.detection.confidence >= 0.95, `${file}: ${model.detection.confidence}`);
    }
  });
  it('does not claim files of other formats', () => {
    for (const file of walk(corpus).filter((f) => /\.jsonl?$/.test(f) && !f.includes(`${join(corpus, 'lumen')}`))) {
      const sample = sampleOf(file);
      if (!sample) continue;
      const r = sniffLumen(sample);
      assert.ok(r.confidence < 0.5, `${file} scored ${r.confidence}`);
      if (!sample.document) assert.notEqual(detectFormat(sample).format, 'lumen', file);
    }
  });
  it('uses the file name only to break ties', () => {
    const values = readLines(SUCCESS).slice(0, 20).map((l) => JSON.parse(l));
    const inLayout = sniffLumen({ values, fileName: 'ef05f773-1151-4c7a-817e-a78bf76ed21e.jsonl', path: '/p/.lumen/trace/ef05f773-1151-4c7a-817e-a78bf76ed21e.jsonl', document: false });
    const elsewhere = sniffLumen({ values: values.slice(1), fileName: 'x.jsonl', path: '/tmp/x.jsonl', document: false });
    assert.equal(inLayout.confidence, 1);
    assert.ok(elsewhere.confidence >= 0.9 && elsewhere.confidence < 1, String(elsewhere.confidence));
    assert.equal(sniffLumen({ values: [{ seq: 1, kind: 'run_start' }], fileName: 'a.jsonl', path: '/p/trace/ef05f773-1151-4c7a-817e-a78bf76ed21e.jsonl', document: false }).confidence, 0);
  });
});

describe('lumen adapter: events and tree', () => {
  it('has one event per line in every corpus file', async () => {
    const counts: [string, number][] = [[SUCCESS, 60], [TOOL_FAILURE, 28], [SCHEMA_FAILURE, 18], [FAILED_TOOL_CONTINUES, 17], [TAMPERED, 60], [MISSING_20, 59]];
    for (const [file, n] of counts) {
      const model = await loadTrace(file);
      assert.equal(model.events.size, n, file);
      assert.equal(model.tree.roots.length, 1, `${file}: one root (run_start)`);
      assert.equal(model.events.kindOf(model.tree.roots[0]), 'run_start');
    }
  });
  it('nests cells, calls and their leaves (tool failure run)', async () => {
    const model = await loadTrace(TOOL_FAILURE);
    assert.deepEqual(parentLines(model), [null, 1, 2, 2, 2, 2, 6, 6, 6, 6, 6, 6, 6, 6, 6, 2, 2, 2, 2, 2, 20, 20, 20, 20, 20, 20, 2, 1]);
  });
  it('nests three calls and the entry frame\'s own call_exit (success run)', async () => {
    const model = await loadTrace(SUCCESS);
    const expected: (number | null)[] = [null, 1];
    for (let line = 3; line <= 60; line++) {
      if (line >= 9 && line <= 17) expected.push(8);
      else if (line >= 25 && line <= 39) expected.push(24);
      else if (line >= 46 && line <= 54) expected.push(45);
      else expected.push(line === 60 ? 1 : 2);
    }
    assert.deepEqual(parentLines(model), expected);
  });
  it('puts an error under the cell it names and closes the run (schema failure run)', async () => {
    const model = await loadTrace(SCHEMA_FAILURE);
    const p = parentLines(model);
    assert.equal(p[5], 2, 'call_enter load_invoice under cell main');
    assert.equal(p[15], 6, 'schema_validate under load_invoice');
    assert.equal(p[16], 2, 'error (cell main) under cell main');
    assert.equal(p[17], 1, 'run_end under run_start');
  });
  it('labels, statuses, durations, tools, groups and totals', async () => {
    const model = await loadTrace(SUCCESS);
    const e = (line: number) => model.events.get(line - 1);
    assert.equal(e(14).label, 'http.get → ok, 212 ms');
    assert.equal(e(14).durationMs, 212);
    assert.equal(e(14).tool, 'http.get');
    assert.equal(e(14).category, 'tool');
    assert.equal(e(51).label, 'http.get → ok, 0 ms (cached)');
    assert.equal(e(37).label, 'schema_validate Digest valid');
    assert.equal(e(3).label, 'vm_step LoadK ip 0');
    assert.match(e(39).label, /^call_exit summarize → Digest \d/);
    assert.ok(e(39).durationMs! >= 1480, 'the summarize frame includes the 1480 ms tool call');
    assert.equal(e(1).group, 'ef05f773-1151-4c7a-817e-a78bf76ed21e');
    assert.equal(e(60).group, 'ef05f773-1151-4c7a-817e-a78bf76ed21e');
    assert.equal(e(1).time, Date.parse(JSON.parse(readLines(SUCCESS)[0]).timestamp));
    assert.equal(e(1).hashRefs.length, 1);
    assert.equal(e(1).hashRefs[0].field, 'doc_hash');
    assert.equal(e(2).hashRefs.length, 0);
    assert.equal(e(60).status, 'ok');
    assert.deepEqual(model.formatTotals, { toolCalls: 3, errors: 0, cachedToolCalls: 1, toolLatencyMs: 1692, vmSteps: 45 });
  });
  it('marks failures: failed tool call, error event, failed run', async () => {
    const model = await loadTrace(TOOL_FAILURE);
    const e = (line: number) => model.events.get(line - 1);
    assert.equal(e(26).status, 'error');
    assert.match(e(26).label, /^http\.get → error, 0 ms: tool execution failed/);
    assert.equal(e(27).status, 'error');
    assert.match(e(27).label, /^error tool call error: /);
    assert.equal(e(28).status, 'error');
    assert.match(e(28).label, /^run_end failed/);
    const schema = await loadTrace(SCHEMA_FAILURE);
    assert.equal(schema.events.get(15).label, 'schema_validate Invoice invalid');
    assert.equal(schema.events.get(15).status, 'error');
    const cont = await loadTrace(FAILED_TOOL_CONTINUES);
    assert.equal(cont.events.get(7).status, 'error');
    assert.equal(cont.events.get(16).status, 'ok', 'the run itself succeeded');
  });
  it('takes the run id from a copy\'s leading UUID, and from a builder source', async () => {
    const model = await loadTrace(TAMPERED);
    assert.equal(model.events.get(0).group, 'ef05f773-1151-4c7a-817e-a78bf76ed21e');
    const drafts: { group?: string | null }[] = [];
    const b = lumenAdapter.createBuilder({ fileName: '11111111-2222-4333-8444-555555555555.jsonl', path: 'x/11111111-2222-4333-8444-555555555555.jsonl', setDuration: () => undefined, setStatus: () => undefined, setUsage: () => undefined });
    b.add({ value: JSON.parse(readLines(SUCCESS)[0]), line: 1, offset: 0, length: 1 }, (d) => drafts.push(d));
    assert.equal(drafts[0].group, '11111111-2222-4333-8444-555555555555');
  });
});

describe('lumen corpus: verify and check outcomes (SOURCE.md)', () => {
  for (const file of [SUCCESS, TOOL_FAILURE, SCHEMA_FAILURE, FAILED_TOOL_CONTINUES, DOC_EXAMPLE]) {
    it(`${basename(file)} verifies intact and checks clean`, async () => {
      const v = await run(file, 'verify');
      assert.deepEqual(v.result.findings, []);
      assert.equal(v.result.ok, true);
      const c = await run(file, 'check');
      assert.deepEqual(c.result.findings, []);
    });
  }
  it('the success run ends at the head hash SOURCE.md names', () => {
    assert.equal(JSON.parse(readLines(SUCCESS)[59]).hash, 'sha256:c756a2d998f923542be05d2dcd1c9656c7a5eccfb857414638bafd7f717898ce');
  });
  it('tampered-latency: event hash mismatch at seq 31, nothing else', async () => {
    const { result } = await run(TAMPERED, 'verify');
    assert.equal(result.ok, false);
    assert.deepEqual(result.findings, [{
      rule: 'lumen/event-hash', severity: 'error', line: 31, seq: 31,
      message: "trace event hash mismatch at seq 31 (expected 'sha256:2c28f16ebae0d17bdbfa37149dd69c65a73c808dc3696c01744fb06ea6cee917', got 'sha256:0ac03823ac1e3cda9548afebe367bbccb17ade340d98681b7be434fed09162f6')",
    }]);
  });
  it('missing-seq20: sequence mismatch at seq 21 (expected 20) and the broken link, at line 20 only', async () => {
    const { result } = await run(MISSING_20, 'verify');
    assert.equal(result.ok, false);
    assert.deepEqual(brief(result.findings), ['lumen/chain-prev-hash@20', 'lumen/chain-seq@20']);
    const seq = result.findings.find((f) => f.rule === 'lumen/chain-seq')!;
    assert.equal(seq.message, 'trace sequence mismatch at seq 21 (expected 20)');
    const prev = result.findings.find((f) => f.rule === 'lumen/chain-prev-hash')!;
    const lines = readLines(SUCCESS).map((l) => JSON.parse(l));
    assert.equal(prev.message, `trace hash chain mismatch at seq 21 (expected prev '${lines[18].hash}', got '${lines[19].hash}')`);
  });
  it('the negative copies conform apart from their renamed files', async () => {
    for (const file of [TAMPERED, MISSING_20]) {
      const { result } = await run(file, 'check');
      assert.deepEqual(brief(result.findings), ['lumen/run-id-name@1'], file);
      assert.match(result.findings[0].message, /leading UUID ef05f773-1151-4c7a-817e-a78bf76ed21e$/);
      assert.equal(result.ok, true);
    }
  });
});

describe('lumen: §6.6 pre-images and the live TraceStore line', () => {
  const reader = new LumenLineReader();
  const lines = readLines(DOC_EXAMPLE);
  const doc = readFileSync(resolve('test/fixtures/spec/lumen.md'), 'utf8');
  const preimages = [...doc.matchAll(/Pre-image of line `seq` (\d+)[^\n]*\n```\n(.*)\n```\nIts digest: `(sha256:[0-9a-f]{64})`/g)];
  it('rebuilds the documented pre-images byte for byte, and their digests', () => {
    assert.equal(preimages.length, 3);
    for (const [, seq, preimage, digest] of preimages) {
      assert.ok(reader.read(lines[Number(seq) - 1]));
      assert.equal(reader.preimage(), preimage);
      assert.equal(reader.computeHash(), digest);
      assert.equal(JSON.parse(lines[Number(seq) - 1]).hash, digest);
    }
  });
  it('re-hashes the live call_exit line with its nanosecond timestamp', () => {
    const line = readFileSync(resolve('test/fixtures/lumen/live-call-exit-line.json'), 'utf8').trim();
    assert.ok(reader.read(line));
    assert.equal(reader.computeHash(), JSON.parse(line).hash);
  });
  it('every corpus line re-hashes to its stored hash', () => {
    for (const name of readdirSync(TRACE_DIR)) {
      for (const line of readLines(join(TRACE_DIR, name))) {
        assert.ok(reader.read(line, true));
        assert.equal(reader.computeHash(), JSON.parse(line).hash);
      }
    }
  });
});
