import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { runChecks } from '../../../../src/core/formatRules';
import { otlpRules } from '../../../../src/core/formats/otlp/rules';
import { loadTrace } from '../../../../src/core/loadTrace';
import { tempFile } from '../../../helpers/tmp';
import { corpus, editJson, findingsOf, fixture, mutateLines, runAll } from '../../../fixtures/other/harness';

const CANONICAL = corpus('other/otlp/trace.json');
const LEDGER = corpus('agentledger/cancelled/trace.otlp.json');
const GENAI = fixture('genai.otlp.jsonl');
const only = (found: string[], prefix: string) => found.filter((f) => f.startsWith(prefix));

/** A pretty-printed copy of an OTLP document after `edit`, with the text to find expected lines in. */
function mutateDocument(src: string, edit: (doc: any) => void): { file: string; lineOf: (needle: string, last?: boolean) => number } {
  const doc = JSON.parse(readFileSync(src, 'utf8'));
  edit(doc);
  const text = JSON.stringify(doc, null, 2) + '\n';
  const lineOf = (needle: string, last = false) => {
    const pos = last ? text.lastIndexOf(needle) : text.indexOf(needle);
    assert.ok(pos >= 0, needle);
    return text.slice(0, pos).split('\n').length;
  };
  return { file: tempFile('trace.otlp.json', text), lineOf };
}
const spansOf = (doc: any): any[] => doc.resourceSpans[0].scopeSpans[0].spans;
const kv = (key: string, value: unknown) => ({ key, value });

describe('otlp rules', () => {
  it('declare the doc\'s rule ids with their severities and modes', () => {
    const byId = Object.fromEntries(otlpRules.rules.map((r) => [r.id, `${r.mode}/${r.severity}`]));
    assert.deepEqual(byId, {
      'otlp/document-shape': 'verify/error', 'otlp/id-format': 'verify/error', 'otlp/span-id-unique': 'verify/warning',
      'otlp/parent-exists': 'verify/info', 'otlp/parent-cycle': 'verify/error', 'otlp/time-order': 'check/warning',
      'otlp/kind-value': 'check/warning', 'otlp/attribute-value': 'check/error', 'otlp/status-code': 'check/info',
      'otlp/span-schema': 'check/warning',
    });
  });

  it('otlp/id-format: a short span id, an all-zero trace id, a base64 id (errors at the span\'s line)', async () => {
    const short = mutateDocument(CANONICAL, (d) => (spansOf(d)[0].spanId = 'EEE19B7E'));
    const r = await runChecks(await loadTrace(short.file), 'verify');
    assert.deepEqual(r.findings.filter((f) => f.rule === 'otlp/id-format').map((f) => [f.line, f.severity]), [[short.lineOf('"spanId": "EEE19B7E"'), 'error']]);
    assert.equal(r.ok, false);
    const zeros = mutateDocument(CANONICAL, (d) => (spansOf(d)[0].traceId = '0'.repeat(32)));
    assert.match((await runAll(zeros.file, 'verify')).find((f) => f.rule === 'otlp/id-format')!.message, /all zeros/);
    const b64 = mutateLines(GENAI, (l) => editJson(l, 1, (v) => (v.resourceSpans[0].scopeSpans[0].spans[0].spanId = 't61rcWkgMzE=')));
    const f = (await runAll(b64, 'verify')).filter((x) => x.rule === 'otlp/id-format');
    assert.deepEqual(f.map((x) => x.line), [2]);
    assert.match(f[0].message, /base64/);
  });

  it('otlp/span-id-unique: a span exported twice, reported at the second copy\'s own line', async () => {
    const dup = mutateDocument(LEDGER, (d) => spansOf(d).push(structuredClone(spansOf(d)[0])));
    const f = (await runAll(dup.file, 'verify')).filter((x) => x.rule === 'otlp/span-id-unique');
    assert.deepEqual(f.map((x) => [x.line, x.severity]), [[dup.lineOf('"spanId": "4bb5186faa1fd33c"', true), 'warning']]);
    assert.equal((await runAll(dup.file, 'verify')).some((x) => x.rule === 'tree/duplicate-id'), false);
  });

  it('otlp/parent-cycle: two spans parenting each other, and a span parenting itself', async () => {
    const cyc = mutateDocument(LEDGER, (d) => {
      const s = spansOf(d);
      s[0].parentSpanId = s[1].spanId;
      s[1].parentSpanId = s[0].spanId;
    });
    const r = await runChecks(await loadTrace(cyc.file), 'verify');
    assert.deepEqual(only(r.findings.map((f) => `${f.rule}@${f.line}`), 'otlp/parent-cycle'), [`otlp/parent-cycle@${cyc.lineOf('"spanId": "5aa8536b5ced0dca"')}`]);
    assert.equal(r.ok, false);
    assert.equal(r.findings.some((f) => f.rule === 'tree/cycle'), false);
    const self = mutateLines(GENAI, (l) => editJson(l, 0, (v) => (v.resourceSpans[0].scopeSpans[0].spans[2].parentSpanId = '00f067aa0ba902b7')));
    assert.deepEqual(only(await findingsOf(self, 'verify'), 'otlp/parent-cycle'), ['otlp/parent-cycle@1']);
    const jsonl = mutateLines(GENAI, (l) => editJson(l, 0, (v) => (v.resourceSpans[0].scopeSpans[0].spans[2].parentSpanId = 'c8be7c8270314442')));
    assert.deepEqual(only(await findingsOf(jsonl, 'verify'), 'otlp/parent-cycle'), ['otlp/parent-cycle@1']);
  });

  it('otlp/document-shape: resourceSpans not an array, a line that is no OTLP document (still shown)', async () => {
    const bad = mutateDocument(CANONICAL, (d) => (d.resourceSpans[0].scopeSpans = {}));
    assert.deepEqual(only(await findingsOf(bad.file, 'verify'), 'otlp/document-shape'), ['otlp/document-shape@1']);
    const line = mutateLines(GENAI, (l) => [...l, '{"resourceSpans":{"spans":[]}}']);
    assert.deepEqual(only(await findingsOf(line, 'verify'), 'otlp/document-shape'), ['otlp/document-shape@3']);
    const m = await loadTrace(line);
    assert.equal(m.events.size, 6, 'the broken line is still an event');
    assert.equal(m.events.statusOf(5), 'error');
  });

  it('otlp/time-order: a span ending before it starts, a time that is not decimal', async () => {
    const file = mutateLines(GENAI, (l) => editJson(editJson(l, 0, (v) => (v.resourceSpans[0].scopeSpans[0].spans[0].endTimeUnixNano = '1767225600000000000')), 1, (v) => (v.resourceSpans[0].scopeSpans[0].spans[1].startTimeUnixNano = '2026-01-01T00:00:00Z')));
    const f = (await runAll(file, 'check')).filter((x) => x.rule === 'otlp/time-order');
    assert.deepEqual(f.map((x) => [x.line, x.severity]), [[1, 'warning'], [2, 'warning']]);
    assert.match(f[0].message, /before startTimeUnixNano/);
    const numbers = mutateDocument(CANONICAL, (d) => Object.assign(spansOf(d)[0], { startTimeUnixNano: 1544712660000000, endTimeUnixNano: 1544712661000000 }));
    assert.deepEqual(only(await findingsOf(numbers.file, 'check'), 'otlp/time-order'), []);
  });

  it('otlp/kind-value: a lowercase name and an out-of-range integer; SPAN_KIND_* names are accepted', async () => {
    const file = mutateLines(GENAI, (l) => editJson(editJson(l, 0, (v) => (v.resourceSpans[0].scopeSpans[0].spans[0].kind = 'internal')), 1, (v) => (v.resourceSpans[0].scopeSpans[0].spans[0].kind = 7)));
    assert.deepEqual(only(await findingsOf(file, 'check'), 'otlp/kind-value'), ['otlp/kind-value@1', 'otlp/kind-value@2']);
    assert.deepEqual(only(await findingsOf(LEDGER, 'check'), 'otlp/kind-value'), []);
  });

  it('otlp/attribute-value: a non-decimal intValue, two members, a bad nested value, a bad resource attribute; an empty value is allowed', async () => {
    const file = mutateLines(GENAI, (l) =>
      editJson(l, 0, (v) => {
        const span = v.resourceSpans[0].scopeSpans[0].spans[1];
        span.attributes.push(kv('gen_ai.usage.cache_tokens', { intValue: '12k' }), kv('two', { stringValue: 'a', boolValue: true }), kv('none', {}));
        span.attributes.push(kv('nested', { arrayValue: { values: [{ stringValue: 'ok' }, { intValue: 1.5 }] } }));
        v.resourceSpans[0].resource.attributes.push(kv('host.cores', { doubleValue: 'many' }));
      }),
    );
    const f = (await runAll(file, 'check')).filter((x) => x.rule === 'otlp/attribute-value');
    assert.equal(f.length, 4);
    assert.ok(f.every((x) => x.line === 1 && x.severity === 'error'));
    assert.match(f.map((x) => x.message).join('\n'), /host\.cores.*"many".*\n.*"12k".*\n.*2 AnyValue members.*\n.*arrayValue\.values\[1\]\.intValue is 1\.5/);
    assert.ok(!f.some((x) => x.message.includes('"none"')), 'the Java agent\'s empty value {} is not a finding');
  });

  it('otlp/status-code: an unknown code; code 2 and STATUS_CODE_ERROR make error spans', async () => {
    const file = mutateLines(GENAI, (l) => editJson(editJson(l, 0, (v) => (v.resourceSpans[0].scopeSpans[0].spans[0].status = { code: 3 })), 1, (v) => (v.resourceSpans[0].scopeSpans[0].spans[1].status = { code: 'STATUS_CODE_ERROR' })));
    const f = (await runAll(file, 'check')).filter((x) => x.rule === 'otlp/status-code');
    assert.deepEqual(f.map((x) => [x.line, x.severity]), [[1, 'info']]);
    const m = await loadTrace(file);
    assert.equal(m.events.statusOf(4), 'error');
  });

  it('otlp/span-schema: a span name that is not a string', async () => {
    const bad = mutateDocument(CANONICAL, (d) => (spansOf(d)[0].name = 42));
    assert.deepEqual(only(await findingsOf(bad.file, 'check'), 'otlp/span-schema'), [`otlp/span-schema@${bad.lineOf('"spanId": "EEE19B7EC3C1B174"')}`]);
  });

  it('otlp/parent-exists: a parent removed from the file is remote (info), never an error', async () => {
    const file = mutateLines(GENAI, (l) => editJson(l, 0, (v) => v.resourceSpans[0].scopeSpans[0].spans.pop()));
    const r = await runChecks(await loadTrace(file), 'verify');
    assert.deepEqual(r.findings.filter((f) => f.rule === 'otlp/parent-exists').map((f) => [f.line, f.severity]), [[1, 'info'], [1, 'info'], [2, 'info']]);
    assert.equal(r.ok, true);
    assert.equal(r.findings.some((f) => f.rule === 'tree/dangling-parent'), false);
  });
});
