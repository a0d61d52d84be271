import { strict as assert } from 'node:assert';
import { appendFileSync, readFileSync } from 'node:fs';
import { loadTrace } from '../../../src/core/loadTrace';
import { runChecks } from '../../../src/core/formatRules';
import { summarize } from '../../../src/core/summary';
import { FORMAT_NAMES } from '../../../src/core/model';
import { jsonPreview } from '../../../src/core/json/jsonPreview';
import { firstInvalidUtf8 } from '../../../src/core/json/utf8';
import { tempFile } from '../../helpers/tmp';
import { corpusPath } from '../../helpers/corpus';

describe('bad values never break a verdict (issue 19)', () => {
  it('item 1: an out-of-range time is a finding at its line, in every format, and nothing throws', async () => {
    const lines = [
      '{"seq":0,"occurred_at_ms":17000000000000000,"event":{"type":"run_started","run_id":"r"}}',
      '{"id":"a","timestamp":99999999999999999,"time":1e300,"ts":-1e20,"created_at":"2024-01-01T00:00:00Z"}',
      '{"kind":"run_start","seq":0,"timestamp":1e300}',
    ];
    const path = tempFile('time.jsonl', lines.join('\n') + '\n');
    for (const format of FORMAT_NAMES) {
      const model = await loadTrace(path, { format });
      for (let i = 0; i < model.events.size; i++) {
        const t = model.events.timeOf(i);
        assert.ok(t === null || Math.abs(t) <= 8.64e15, `${format}: event ${i} kept time ${t}`);
      }
      const s = summarize(model);
      assert.ok(s.startTime === null || typeof s.startTime === 'string', format);
      await runChecks(model, 'check');
      await runChecks(model, 'verify');
    }
    const generic = await loadTrace(path, { format: 'generic' });
    assert.deepEqual(generic.diagnostics.filter((d) => d.rule === 'parse/time-out-of-range').map((d) => d.line), [1, 2, 3]);
    const harness = await loadTrace(path, { format: 'harness-ledger' });
    assert.ok(harness.diagnostics.some((d) => d.rule === 'parse/time-out-of-range' && d.line === 1), 'harness-ledger line 1');
  });

  it('item 2: a line nested 5,000 levels deep loads, labels and checks in every format', async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const deepObj = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    const path = tempFile('deep.jsonl', `${deep}\n${deepObj}\n{"id":"x"}\n`);
    for (const format of FORMAT_NAMES) {
      const model = await loadTrace(path, { format });
      for (let i = 0; i < model.events.size; i++) assert.ok(model.events.labelOf(i).length <= 200, `${format}: label ${i} is ${model.events.labelOf(i).length} chars`);
      await runChecks(model, 'check');
      await runChecks(model, 'verify');
    }
    assert.equal(jsonPreview(JSON.parse(deep), 10), '[[[[[[[[[[…');
    assert.equal(jsonPreview({ a: [1, 'x'], b: null }), '{"a":[1,"x"],"b":null}');
  });

  it('item 6: invalid UTF-8 is a finding at its line with the byte offset; a warning in general, an error in lumen', async () => {
    const bad = Buffer.concat([Buffer.from('{"id":"a"}\n{"id":"caf'), Buffer.from([0xe9]), Buffer.from('"}\n{"id":"ok ✓"}\n')]);
    const path = tempFile('utf8.jsonl', bad);
    const model = await loadTrace(path, { format: 'generic' });
    assert.equal(model.events.size, 3, 'the line still parses');
    const f = model.diagnostics.filter((d) => d.rule === 'parse/invalid-utf8');
    assert.deepEqual(f.map((d) => [d.line, d.severity]), [[2, 'warning']]);
    assert.match(f[0].message, /byte 10 of the line \(file offset 21: e9 22 7d\)/);
    const lumen = await loadTrace(path, { format: 'lumen' });
    const lf = (await runChecks(lumen, 'verify')).findings.filter((d) => d.rule === 'parse/invalid-utf8');
    assert.deepEqual(lf.map((d) => [d.line, d.severity]), [[2, 'error']]);
    // The validator against Node's decoder: overlong, surrogate, truncated and above-U+10FFFF forms.
    for (const [bytes, at] of [[[0xc0, 0x80], 0], [[0x61, 0xed, 0xa0, 0x80], 1], [[0xe2, 0x82], 0], [[0xf4, 0x90, 0x80, 0x80], 0], [[0xe2, 0x82, 0xac], -1]] as const) {
      assert.equal(firstInvalidUtf8(Buffer.from(bytes)), at, Buffer.from(bytes).toString('hex'));
    }
  });

  it('item 5: checks read exactly the bytes the model read, even when the file grows in between', async () => {
    const path = tempFile('growing.jsonl', '{"id":"a"}\n{"id":"b","parent_id":"a"}\n{"id":"c","par');
    const model = await loadTrace(path, { format: 'generic' });
    appendFileSync(path, 'ent_id":"b"}\n{"id":"d","parent_id":"zzz"}\n');
    const result = await runChecks(model, 'verify');
    // The model saw a torn tail on line 3: the verdict is about that file, not a mix with the appended bytes.
    assert.deepEqual(result.findings.map((x) => [x.rule, x.line]), [['parse/torn-tail', 3]]);
  });
});

describe('lumen verify on a trace being written (issue 19 item 5)', () => {
  it('reports no chain break for bytes appended between load and verify, at any cut', async () => {
    const full = readFileSync(corpusPath('lumen/.lumen/trace/55769ad7-ac9e-4d06-ae6b-d950d1e7c1bc.jsonl'));
    const cuts = [0.2, 0.37, 0.5, 0.81].map((f) => Math.floor(full.length * f));
    for (const cut of cuts) {
      const path = tempFile('live.jsonl', full.subarray(0, cut));
      const model = await loadTrace(path, { format: 'lumen' });
      appendFileSync(path, full.subarray(cut));
      const result = await runChecks(model, 'verify');
      const bad = result.findings.filter((f) => f.severity === 'error');
      assert.deepEqual(bad.map((f) => `${f.rule}@${f.line}`), [], `cut at byte ${cut}`);
    }
  });
});
