import { rollUp } from '../../../src/core/usage/rollup';
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import Ajv from 'ajv';
import { loadTrace, TraceModel } from '../../../src/core/loadTrace';
import { summarize } from '../../../src/core/summary';
import { traceToOtlpJson } from '../../../src/core/export/otlpExport';
import { genAiOperation } from '../../../src/core/export/genAiAttributes';
import { CORPUS_ROOT, WRITER_CORPUS } from '../../helpers/corpus';
import { filesUnder } from '../../helpers/writerCorpus';
import { tempFile } from '../../helpers/tmp';

const SCHEMA = JSON.parse(readFileSync('test/fixtures/otlp/otlp-trace-request.schema.json', 'utf8'));
const compiled = new Ajv({ allErrors: true, strict: true }).compile(SCHEMA);
/** Not a type guard: narrowing the document to `unknown` would only get in the way of the checks after it. */
const validate = Object.assign((doc: unknown): boolean => compiled(doc), { get errors() { return compiled.errors; } });

/** Every trace file of both corpora (blob stores left out: they are content, not traces). */
const TRACE_FILES = [CORPUS_ROOT, WRITER_CORPUS, 'samples'].flatMap((root) =>
  filesUnder(root, (p) => /\.(jsonl|ndjson|json)$/.test(p) && !/[\\/](blobs|sha256)[\\/]/.test(p)),
);

/**
 * Each side's sum over the source's counted usage records (an aggregate such as an OTLP agent span never adds
 * to its children's numbers), null when no record reports that side, as the summary says it.
 */
function tokenSums(m: TraceModel): { input: number | null; output: number | null } {
  let input: number | null = null;
  let output: number | null = null;
  for (const r of rollUp(m).counted) {
    const c = r.usage!.counts;
    if (c.input !== null && c.input !== undefined) input = (input ?? 0) + c.input;
    if (c.output !== null && c.output !== undefined) output = (output ?? 0) + c.output;
  }
  return { input, output };
}

async function roundTrip(file: string): Promise<{ src: TraceModel; back: TraceModel; doc: unknown }> {
  const src = await loadTrace(file);
  const [json] = traceToOtlpJson(src, { version: '1.2.3', fileName: basename(file) });
  const out = tempFile('export.otlp.json', JSON.stringify(JSON.parse(json), null, 2));
  return { src, back: await loadTrace(out), doc: JSON.parse(json) };
}

describe('export --otlp: round trip of every corpus file through our own otlp reader', () => {
  it('finds the corpus', () => assert.ok(TRACE_FILES.length >= 60, `only ${TRACE_FILES.length} files`));

  for (const file of TRACE_FILES) {
    it(file.slice(file.indexOf('corpus') >= 0 ? file.indexOf('corpus') : 0), async () => {
      const { src, back, doc } = await roundTrip(file);
      assert.ok(validate(doc), JSON.stringify(validate.errors?.slice(0, 3)));
      const t = src.events;
      const b = back.events;
      if (t.size === 0) return assert.equal(back.events.kindOf(0), 'export', 'an empty trace exports as an export with no spans');
      assert.equal(back.format, 'otlp');
      assert.equal(b.size, t.size, 'one span per event');
      assert.deepEqual(back.diagnostics.filter((d) => d.rule.startsWith('tree/')), [], 'no dangling parents or duplicate ids');
      for (let i = 0; i < t.size; i++) {
        assert.equal(b.parent(i), t.parent(i), `parent of event ${i} (line ${t.lineOf(i)})`);
        const e = t.get(i);
        const r = b.get(i);
        assert.equal(r.kind, genAiOperation(e.category) ?? e.kind, `kind of event ${i}`);
        if (e.category === 'tool' || e.category === 'inference') assert.equal(r.category, e.category, `category of event ${i}`);
        if (e.category === 'tool') assert.equal(r.tool, e.tool, `tool of event ${i}`);
        assert.equal(r.model, e.model, `model of event ${i}`);
        assert.equal(r.status === 'error', e.status === 'error', `error status of event ${i}`);
      }
      const s = tokenSums(src);
      const st = summarize(back).totals;
      const any = src.events.size > 0 && [...Array(t.size).keys()].some((i) => t.get(i).tokensIn !== null || t.get(i).tokensOut !== null);
      assert.deepEqual([st.inputTokens, st.outputTokens], any ? [s.input, s.output] : [null, null], 'token totals of the spans');
      // The runtime's own totals (the viewer's header) travel as resource attributes, exactly.
      const h = summarize(src).totals;
      const res = new Map(((doc as any).resourceSpans[0].resource.attributes as { key: string; value: { intValue: number } }[]).map((kv) => [kv.key, kv.value.intValue]));
      assert.deepEqual(
        [res.get('agent_trace.totals.input_tokens') ?? null, res.get('agent_trace.totals.output_tokens') ?? null, res.get('agent_trace.totals.tool_calls')],
        [h.inputTokens, h.outputTokens, h.toolCalls],
        'headline totals',
      );
    });
  }
});

describe('export --otlp: ids', () => {
  it('gives the same trace and span ids on a second export, and keeps the ids of an OTLP source', async () => {
    const file = 'samples/otlp/trace.otlp.json';
    const src = await loadTrace(file);
    const a = traceToOtlpJson(src, { version: '1', fileName: 'a' })[0];
    const b = traceToOtlpJson(await loadTrace(file), { version: '1', fileName: 'a' })[0];
    assert.equal(a, b);
    const ids = (JSON.parse(a).resourceSpans[0].scopeSpans[0].spans as { traceId: string; spanId: string }[]).map((s) => `${s.traceId}/${s.spanId}`);
    assert.deepEqual(ids, [...Array(src.events.size).keys()].map((i) => src.events.id(i)));
  });

  it('exports an empty trace as a valid request with no spans; the schema refuses a misspelt field and a base64 span id', async () => {
    const doc: any = JSON.parse(traceToOtlpJson(await loadTrace(tempFile('empty.jsonl', '')), { version: '1', fileName: 'a' })[0]);
    assert.ok(validate(doc));
    assert.equal(doc.resourceSpans.length, 0);
    const span = { traceId: '0123456789abcdef0123456789abcdef', spanId: 'ASNFZ4mrze8=', name: 'x', startTimeUnixNano: '1', endTimeUnixNano: '2' };
    assert.equal(validate({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] }), false);
    assert.equal(validate({ resourceSpans: [{ scopeSpan: [] }] }), false);
  });
});
