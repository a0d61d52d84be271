import { rollUp } from '../../../src/core/usage/rollup';
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import Ajv from 'ajv';
import { loadTrace, TraceModel } from '../../../src/core/loadTrace';
import { summarize } from '../../../src/core/summary';
import { traceToOtlpJson, writeOtlpJson } from '../../../src/core/export/otlpExport';
import { generateMurmurTrace } from '../../bench/generateMurmur';
import { tempDir } from '../../helpers/tmp';
import { join } from 'node:path';
import { genAiOperation } from '../../../src/core/export/genAiAttributes';
import { toolCallsOf } from '../../../src/core/usage/toolStats';
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
 * Reasoning tokens a source counts apart from its output (Gemini's thoughts): the GenAI conventions count them in
 * `gen_ai.usage.output_tokens`, so the export's output is the source's plus these (and costs the same).
 */
function reasoningApart(m: TraceModel): number {
  let n = 0;
  for (const r of rollUp(m).counted) if (r.usage?.reasoningApart) n += r.usage.counts.reasoning ?? 0;
  return n;
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
      // Content is opt-in (--include-content): without it no span carries the conversation.
      const text = JSON.stringify(doc);
      for (const key of ['gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.system_instructions', 'gen_ai.tool.call.arguments', 'gen_ai.tool.call.result']) assert.ok(!text.includes(`"${key}"`), key);
      const t = src.events;
      const b = back.events;
      if (t.size === 0) return assert.equal(back.events.kindOf(0), 'export', 'an empty trace exports as an export with no spans');
      assert.equal(back.format, 'otlp');
      assert.equal(b.size, t.size, 'one span per event');
      assert.deepEqual(back.diagnostics.filter((d) => d.rule.startsWith('tree/')), [], 'no dangling parents or duplicate ids');
      const calls = toolCallsOf(t, rollUp(src));
      for (let i = 0; i < t.size; i++) {
        assert.equal(b.parent(i), t.parent(i), `parent of event ${i} (line ${t.lineOf(i)})`);
        const e = t.get(i);
        const r = b.get(i);
        // A tool call is one execute_tool span; its result and progress events are spans of their own kind.
        const call = e.category === 'tool' && calls.callOf[i] === i;
        assert.equal(r.kind, e.category === 'tool' ? (call ? 'execute_tool' : e.kind) : genAiOperation(e.category) ?? e.kind, `kind of event ${i}`);
        if (call || e.category === 'inference') assert.equal(r.category, e.category, `category of event ${i}`);
        if (call) assert.equal(r.tool, e.tool, `tool of event ${i}`);
        if (e.model !== null) assert.equal(r.model, e.model, `model of event ${i}`);
        assert.equal(r.status === 'error', e.status === 'error', `error status of event ${i}`);
      }
      // Every GenAI span names its provider; one execute_tool span per tool call, lasting from call to result.
      const spans = (doc as any).resourceSpans.flatMap((rs: any) => rs.scopeSpans.flatMap((ss: any) => ss.spans)) as { startTimeUnixNano: string; endTimeUnixNano: string; attributes: { key: string; value: { stringValue?: string } }[] }[];
      const attr = (sp: (typeof spans)[number], key: string): string | undefined => sp.attributes.find((kv) => kv.key === key)?.value.stringValue;
      const genAi = spans.filter((sp) => attr(sp, 'gen_ai.operation.name') !== undefined);
      assert.deepEqual(genAi.filter((sp) => !attr(sp, 'gen_ai.provider.name')), [], 'gen_ai.provider.name on every GenAI span');
      const toolSpans = genAi.filter((sp) => attr(sp, 'gen_ai.operation.name') === 'execute_tool');
      assert.equal(toolSpans.length, summarize(src).totals.toolCalls, 'one execute_tool span per tool call');
      // A call whose tool the source does not name (agentledger's requests) is counted by the format's own totals only.
      const named = toolSpans.filter((sp) => attr(sp, 'gen_ai.tool.name') !== undefined).length;
      assert.equal(summarize(back).totals.toolCalls, named, 'tool calls counted once on re-reading');
      // Tokens and cost of the re-read export are the source's (cache reads and writes priced as such).
      const u = summarize(src).usage.total;
      const ub = summarize(back).usage.total;
      // What a backend that sums the spans' gen_ai.usage finds: the session's input and cache tokens, each once.
      const sum = (key: string): number => spans.reduce((n, sp) => n + Number((sp.attributes.find((kv) => kv.key === key)?.value as { intValue?: number } | undefined)?.intValue ?? 0), 0);
      assert.deepEqual(
        [sum('gen_ai.usage.input_tokens'), sum('gen_ai.usage.cache_read.input_tokens'), sum('gen_ai.usage.cache_creation.input_tokens')],
        [u.inputTokens ?? 0, u.cacheReadTokens ?? 0, u.cacheWriteTokens ?? 0],
        'gen_ai.usage sums',
      );
      const apart = reasoningApart(src);
      const output = u.outputTokens === null ? null : u.outputTokens + apart;
      assert.deepEqual([ub.inputTokens, ub.outputTokens, ub.cacheReadTokens, ub.cacheWriteTokens], [u.inputTokens, output, u.cacheReadTokens, u.cacheWriteTokens], 'usage tokens');
      if (u.costUsd === null) assert.equal(ub.costUsd, null, 'cost');
      else assert.ok(ub.costUsd !== null && Math.abs(ub.costUsd - u.costUsd) <= 1e-9 + 1e-9 * u.costUsd, `cost ${ub.costUsd} for ${u.costUsd}`);
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

/** The document `writeOtlpJson` streams, gathered. */
async function streamedText(m: TraceModel): Promise<{ text: string; writes: number }> {
  let text = '';
  let writes = 0;
  await writeOtlpJson(m, { version: '1', fileName: 'a' }, (chunk) => void ((text += chunk), writes++));
  return { text, writes };
}

describe('export --otlp: the streamed document', () => {
  it('is the whole document indented, for every corpus file', async () => {
    for (const file of TRACE_FILES) {
      const m = await loadTrace(file);
      const whole = JSON.stringify(JSON.parse(traceToOtlpJson(m, { version: '1', fileName: 'a' })[0]), null, 2);
      assert.equal((await streamedText(m)).text, whole, file);
    }
  });

  it('is written in batches for a trace of 5,000 events, and is still the same document', async () => {
    const file = join(tempDir(), 'trace.jsonl');
    await generateMurmurTrace(file, 5000);
    const m = await loadTrace(file);
    const { text, writes } = await streamedText(m);
    assert.ok(writes >= 4, `${writes} writes`);
    assert.equal(text, JSON.stringify(JSON.parse(traceToOtlpJson(m, { version: '1', fileName: 'a' })[0]), null, 2));
    assert.equal(JSON.parse(text).resourceSpans[0].scopeSpans[0].spans.length, m.events.size);
  });
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
