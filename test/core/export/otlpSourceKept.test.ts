import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { main } from '../../../src/cli/main';
import { loadTrace } from '../../../src/core/loadTrace';
import { traceToOtlpJson } from '../../../src/core/export/otlpExport';
import { summarize } from '../../../src/core/summary';
import { WRITER_CORPUS } from '../../helpers/corpus';
import { tempDir } from '../../helpers/tmp';

interface Kv { key: string; value: unknown }
interface Span { traceId: string; spanId: string; startTimeUnixNano: string; endTimeUnixNano: string; attributes?: Kv[] }

function spansOf(doc: unknown): Span[] {
  return (doc as { resourceSpans?: { scopeSpans: { spans: Span[] }[] }[] }).resourceSpans?.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)) ?? [];
}

/** The source file's spans, read here on their own (one document, else JSON Lines). */
function sourceSpans(file: string): Span[] {
  const text = readFileSync(file, 'utf8');
  const docs = file.endsWith('.jsonl') ? text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l)) : [JSON.parse(text)];
  return docs.flatMap(spansOf);
}

const key = (s: Span): string => `${s.traceId.toLowerCase()}/${s.spanId.toLowerCase()}`;

/** The OTLP traces of the real-writer corpus and the shipped sample. */
const OTLP_FILES = [
  join(WRITER_CORPUS, 'otel-js-2.12.1', 'otlp-traces.json'),
  join(WRITER_CORPUS, 'otel-js-2.12.1', 'otlp-traces.jsonl'),
  join(WRITER_CORPUS, 'otel-js-2.12.1', 'otlp-traces-messages.jsonl'),
  join('samples', 'otlp', 'trace.otlp.json'),
];

let lastOut = '';

async function cliExport(file: string): Promise<Span[]> {
  const out = (lastOut = join(tempDir(), 'out.otlp.json'));
  const write = process.stdout.write;
  try {
    process.stdout.write = (() => true) as typeof process.stdout.write;
    assert.equal(await main(['export', file, '--otlp', '-o', out]), 0);
  } finally {
    process.stdout.write = write;
  }
  return spansOf(JSON.parse(readFileSync(out, 'utf8')));
}

describe('export --otlp of an OTLP trace keeps its spans as written', () => {
  for (const file of OTLP_FILES) {
    it(`every span's own attributes and its exact start and end nanoseconds (${basename(file)})`, async () => {
      const source = sourceSpans(file);
      assert.ok(source.length >= 3, `${source.length} spans`);
      const out = new Map((await cliExport(file)).map((s) => [key(s), s]));
      // What the export sets itself, from the model alone: those keys are the export's, the rest the source's.
      const [bare] = traceToOtlpJson(await loadTrace(file), { version: '0.0.0', fileName: basename(file) });
      const ours = new Map(spansOf(JSON.parse(bare)).map((s) => [key(s), new Set((s.attributes ?? []).map((kv) => kv.key))]));
      let kept = 0;
      for (const src of source) {
        const got = out.get(key(src));
        assert.ok(got, `span ${key(src)} exported under its own ids`);
        assert.equal(got.startTimeUnixNano, String(src.startTimeUnixNano), `start of ${key(src)}`);
        assert.equal(got.endTimeUnixNano, String(src.endTimeUnixNano), `end of ${key(src)}`);
        const setByUs = ours.get(key(src))!;
        for (const kv of src.attributes ?? []) {
          const back: Kv[] = (got.attributes ?? []).filter((x) => x.key === kv.key);
          assert.equal(back.length, 1, `${kv.key} once on ${key(src)}`);
          if (setByUs.has(kv.key)) continue;
          assert.deepEqual(back[0], kv, `${kv.key} of ${key(src)} as written`);
          kept++;
        }
      }
      assert.ok(kept > 0, 'the source has attributes the export does not set, and they are kept');
      // Kept attributes add no usage: re-opening the export counts the session's tokens and cost as the source.
      const [a, b] = [summarize(await loadTrace(file)).totals, summarize(await loadTrace(lastOut)).totals];
      assert.deepEqual([b.inputTokens, b.outputTokens, b.toolCalls, b.errors], [a.inputTokens, a.outputTokens, a.toolCalls, a.errors]);
    });
  }

  it('a span of a JSON Lines file written in float-unfriendly nanoseconds comes back to the nanosecond', async () => {
    // 1700000000123456789 ns is not a double: any conversion through milliseconds drifts it.
    const line = JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 's' }, spans: [
      { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', name: 'chat m', kind: 3, startTimeUnixNano: '1700000000123456789', endTimeUnixNano: '1700000001987654321', attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } }, { key: 'my.attr', value: { doubleValue: 1.5 } }, { key: 'my.list', value: { arrayValue: { values: [{ intValue: '7' }] } } }], status: {} },
    ] }] }] });
    const file = join(tempDir(), 'nanos.otlp.jsonl');
    require('node:fs').writeFileSync(file, line + '\n');
    const [span] = await cliExport(file);
    assert.equal(span.startTimeUnixNano, '1700000000123456789');
    assert.equal(span.endTimeUnixNano, '1700000001987654321');
    assert.deepEqual(span.attributes?.find((kv) => kv.key === 'my.attr'), { key: 'my.attr', value: { doubleValue: 1.5 } });
    assert.deepEqual(span.attributes?.find((kv) => kv.key === 'my.list'), { key: 'my.list', value: { arrayValue: { values: [{ intValue: '7' }] } } });
  });
});
