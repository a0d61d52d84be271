import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { loadTrace } from '../../../src/core/loadTrace';
import { traceToOtlpJson } from '../../../src/core/export/otlpExport';
import { WRITER_CORPUS, traceFilesUnder } from '../../helpers/corpus';
import { tempFile } from '../../helpers/tmp';

interface Kv { key: string; value: { stringValue?: string; intValue?: string | number; arrayValue?: { values?: { stringValue?: string }[] } } }
interface Span { name: string; attributes: Kv[] }

function spansOf(doc: unknown): Span[] {
  return (doc as { resourceSpans: { scopeSpans: { spans: Span[] }[] }[] }).resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
}
const attr = (sp: Span, key: string): Kv['value'] | undefined => sp.attributes.find((kv) => kv.key === key)?.value;
const finishOf = (sp: Span): string[] | undefined => attr(sp, 'gen_ai.response.finish_reasons')?.arrayValue?.values?.map((v) => v.stringValue ?? '');
const isChat = (sp: Span): boolean => attr(sp, 'gen_ai.operation.name')?.stringValue === 'chat';

async function exported(file: string): Promise<Span[]> {
  const [json] = traceToOtlpJson(await loadTrace(file), { version: '0.0.0', fileName: basename(file) });
  return spansOf(JSON.parse(json));
}

const CLAUDE_FILES = traceFilesUnder(join(WRITER_CORPUS, 'claude-code-2.1.332')).filter((f) => !/[\\/](blobs|sha256)[\\/]/.test(f));

describe('export --otlp: gen_ai.response.finish_reasons from what the writer recorded', () => {
  it('finds the Claude Code corpus', () => assert.ok(CLAUDE_FILES.length >= 5, `only ${CLAUDE_FILES.length} files`));

  for (const file of CLAUDE_FILES) {
    it(`Claude Code: each model-call span carries its response's stop_reason (${file.slice(file.indexOf('corpus'))})`, async () => {
      // The raw lines: a response split over lines by message id, its stop_reason the last one a line records.
      const lines = readFileSync(file, 'utf8').split('\n');
      const idOf = (line: number): string | null => {
        try {
          return JSON.parse(lines[line - 1])?.message?.id ?? null;
        } catch {
          return null;
        }
      };
      const stop = new Map<string, string>();
      for (const text of lines) {
        if (!text.trim()) continue;
        const v = JSON.parse(text);
        if (v?.type === 'assistant' && typeof v.message?.id === 'string' && typeof v.message.stop_reason === 'string') stop.set(v.message.id, v.message.stop_reason);
      }
      const spans = await exported(file);
      let checked = 0;
      for (const sp of spans.filter(isChat)) {
        const line = Number(attr(sp, 'agent_trace.line')?.intValue);
        const id = idOf(line);
        const want = id !== null ? stop.get(id) : undefined;
        const got = finishOf(sp);
        // Only the line that carries the response's usage speaks for it; its other lines carry no usage.
        if (attr(sp, 'gen_ai.usage.input_tokens') === undefined) continue;
        assert.deepEqual(got, want === undefined ? undefined : [want], `finish reasons of the span of line ${line}`);
        if (want !== undefined) checked++;
      }
      const any = [...stop.values()].length > 0;
      if (any) assert.ok(checked > 0, 'some span carries a stop_reason of the file');
    });
  }

  it('Claude Code: a transcript with a tool-calling response (written over two lines) and an end has both reasons once each, on chat spans only', async () => {
    const file = CLAUDE_FILES.find((f) => /shell-ok[\\/]projects/.test(f))!;
    const spans = await exported(file);
    const reasons = spans.filter((sp) => finishOf(sp) !== undefined);
    assert.deepEqual(reasons.filter((sp) => !isChat(sp)), [], 'no finish reasons outside model-call spans');
    assert.deepEqual(reasons.map((sp) => finishOf(sp)), [['tool_use'], ['end_turn']]);
  });

  for (const file of [join(WRITER_CORPUS, 'otel-js-2.12.1', 'otlp-traces.json'), join(WRITER_CORPUS, 'otel-js-2.12.1', 'otlp-traces-messages.jsonl')]) {
    it(`OTLP: the source spans' finish reasons go out as they came in, and come back on re-reading (${basename(file)})`, async () => {
      const docs = basename(file).endsWith('.jsonl') ? readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l)) : [JSON.parse(readFileSync(file, 'utf8'))];
      const source = docs.flatMap(spansOf).map(finishOf).filter((f) => f !== undefined).map((f) => JSON.stringify(f)).sort();
      assert.ok(source.length >= 2, 'the source records finish reasons');
      const out = await exported(file);
      assert.deepEqual(out.map(finishOf).filter((f) => f !== undefined).map((f) => JSON.stringify(f)).sort(), source);
      const [json] = traceToOtlpJson(await loadTrace(file), { version: '0.0.0', fileName: basename(file) });
      const again = await exported(tempFile('again.otlp.json', json));
      assert.deepEqual(again.map(finishOf).filter((f) => f !== undefined).map((f) => JSON.stringify(f)).sort(), source, 'kept through a second export');
    });
  }
});
