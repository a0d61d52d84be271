import { strict as assert } from 'node:assert';
import { basename } from 'node:path';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { loadTrace } from '../../../src/core/loadTrace';
import { summarize } from '../../../src/core/summary';
import { traceToOtlpJson, traceToSpans } from '../../../src/core/export/otlpExport';
import { CORPUS_ROOT, WRITER_CORPUS } from '../../helpers/corpus';
import { filesUnder } from '../../helpers/writerCorpus';
import { decodeTraceRequest } from '../../helpers/otlpProtobuf';
import { tempFile } from '../../helpers/tmp';

const TRACE_FILES = [WRITER_CORPUS, CORPUS_ROOT].flatMap((root) => filesUnder(root, (p) => /\.(jsonl|ndjson|json)$/.test(p) && !/[\\/](blobs|sha256)[\\/]/.test(p)));

/** The JSON document with what protobuf cannot tell apart made alike: 64-bit integers as strings, empty and zero fields left out. */
function normalized(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalized);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if ((Array.isArray(x) && x.length === 0 && k !== 'attributes' && k !== 'spans' && k !== 'scopeSpans') || (/^dropped/.test(k) && x === 0)) continue;
    out[k] = k === 'intValue' ? String(x) : normalized(x);
  }
  return out;
}

/**
 * The protobuf encoding of every export, by the OpenTelemetry JS transformer's `ProtobufTraceSerializer` (what an
 * OTLP/HTTP protobuf or gRPC exporter sends), decoded back by a reader written from opentelemetry-proto's field
 * numbers: the same document as the JSON export, and the same session when our reader opens it.
 */
describe('export --otlp: protobuf encoding of every corpus file, decoded back', () => {
  it('finds the corpus', () => assert.ok(TRACE_FILES.length >= 60, `only ${TRACE_FILES.length} files`));

  for (const file of TRACE_FILES) {
    it(file.slice(file.indexOf('corpus')), async () => {
      const src = await loadTrace(file);
      const options = { version: '1.2.3', fileName: basename(file) };
      const bytes = ProtobufTraceSerializer.serializeRequest(traceToSpans(src, options));
      assert.ok(bytes && bytes.length > 0 === src.events.size > 0, 'bytes');
      const decoded = decodeTraceRequest(bytes!);
      const json = JSON.parse(traceToOtlpJson(src, options)[0]);
      assert.deepEqual(normalized(decoded), normalized(json), 'the protobuf request says what the JSON one says');
      if (src.events.size === 0) return;
      const back = await loadTrace(tempFile('decoded.otlp.json', JSON.stringify(decoded)));
      assert.equal(back.events.size, src.events.size, 'one span per event');
      for (let i = 0; i < src.events.size; i++) assert.equal(back.events.parent(i), src.events.parent(i), `parent of event ${i}`);
      const u = summarize(src);
      const b = summarize(back);
      assert.deepEqual([b.usage.total.inputTokens, b.usage.total.cacheReadTokens, b.usage.total.cacheWriteTokens], [u.usage.total.inputTokens, u.usage.total.cacheReadTokens, u.usage.total.cacheWriteTokens], 'input tokens');
      if (u.usage.total.costUsd !== null) assert.ok(Math.abs((b.usage.total.costUsd ?? NaN) - u.usage.total.costUsd) <= 1e-9 + 1e-9 * u.usage.total.costUsd, 'cost');
      assert.equal(b.totals.toolCalls <= u.totals.toolCalls, true, 'tool calls');
    });
  }
});
