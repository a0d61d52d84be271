import { strict as assert } from 'node:assert';
import type { Attributes } from '@opentelemetry/api';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../src/cli/main';
import { loadTrace } from '../../src/core/loadTrace';
import { traceToOtlpJson } from '../../src/core/export/otlpExport';
import { contentCut, genAiContentAttributes, MAX_CONTENT_CHARS } from '../../src/core/export/genAiAttributes';
import { traceToMarkdown } from '../../src/report/markdown/markdownTranscript';
import { tempDir } from '../helpers/tmp';

const CLAUDE = 'test/corpus/claude-code-2.1.332/shell-ok/projects/-home-user-project';
const CODEX = 'test/corpus/codex-0.171.0/shell-ok/sessions/2026/12/01';
const only = (dir: string): string => join(dir, readdirSync(dir).find((f) => f.endsWith('.jsonl'))!);

interface Kv { key: string; value: { stringValue?: string } }
interface Span { name: string; attributes: Kv[] }

/** `agent-trace export FILE --otlp [--include-content]`, its spans and the file written. */
async function exported(file: string, content: boolean): Promise<{ spans: Span[]; out: string }> {
  const out = join(tempDir(), 'export.otlp.json');
  const code = await main(['export', file, '--otlp', ...(content ? ['--include-content'] : []), '-o', out]);
  assert.equal(code, 0);
  const doc = JSON.parse(readFileSync(out, 'utf8')) as { resourceSpans: { scopeSpans: { spans: Span[] }[] }[] };
  return { spans: doc.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)), out };
}

const values = (spans: Span[], key: string): string[] => spans.flatMap((s) => s.attributes.filter((a) => a.key === key).map((a) => a.value.stringValue!));
const op = (s: Span): string | undefined => s.attributes.find((a) => a.key === 'gen_ai.operation.name')?.value.stringValue;

const CASES = [
  { name: 'Claude Code', file: () => only(CLAUDE), args: { command: 'echo hello', description: 'Print hello' }, result: /hello/ },
  { name: 'Codex', file: () => only(CODEX), args: { cmd: 'echo hello' }, result: /Process exited with code 0[\s\S]*hello/ },
];

describe('export --otlp --include-content: the conversation on the GenAI spans', () => {
  for (const c of CASES) {
    it(`${c.name}: the first prompt in gen_ai.input.messages, the reply in output, the call's arguments and result on its execute_tool span`, async () => {
      const { spans, out } = await exported(c.file(), true);
      const inputs = values(spans, 'gen_ai.input.messages').map((v) => JSON.parse(v) as { role: string; parts: { type: string; content?: string }[] }[]);
      assert.ok(inputs.length > 0);
      const said = inputs.flat().filter((m) => m.role === 'user').flatMap((m) => m.parts.filter((p) => p.type === 'text').map((p) => p.content!));
      assert.ok(said.some((t) => /^Run echo hello and tell me what it printed/.test(t)), JSON.stringify(said).slice(0, 300));
      const outputs = values(spans, 'gen_ai.output.messages').map((v) => JSON.parse(v) as { role: string; finish_reason?: string; parts: { content?: string }[] }[]);
      const last = outputs.at(-1)!.at(-1)!;
      assert.equal(last.role, 'assistant');
      assert.match(last.parts[0].content!, /hello/);
      const tool = spans.filter((s) => op(s) === 'execute_tool');
      assert.equal(tool.length, 1);
      assert.deepEqual(JSON.parse(values(tool, 'gen_ai.tool.call.arguments')[0]), c.args);
      assert.match(values(tool, 'gen_ai.tool.call.result')[0], c.result);
      // Content goes on model and tool calls only.
      for (const s of spans) if (op(s) !== 'chat') assert.equal(values([s], 'gen_ai.input.messages').length, 0, s.name);
      // Re-opened, the export shows the conversation: the first prompt and the final reply.
      const md = await traceToMarkdown(await loadTrace(out), { maxChars: 0 });
      assert.match(md, /Run echo hello and tell me what it printed/);
      assert.ok(md.includes(last.parts[0].content!.split('\n')[0]), 'the final reply');
    });

    it(`${c.name}: without the flag no content attribute`, async () => {
      const { spans } = await exported(c.file(), false);
      for (const key of ['gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.system_instructions', 'gen_ai.tool.call.arguments', 'gen_ai.tool.call.result']) {
        assert.deepEqual(values(spans, key), [], key);
      }
    });
  }

  it('--include-content without --otlp is a usage error (exit 2), not ignored', async () => {
    const err: string[] = [];
    const orig = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => (err.push(String(chunk)), true)) as typeof process.stderr.write;
    let code: number;
    try {
      code = await main(['export', only(CLAUDE), '--markdown', '--include-content']);
    } finally {
      process.stderr.write = orig;
    }
    assert.equal(code, 2);
    assert.match(err.join(''), /--include-content goes with --otlp/);
  });

  it('a value over the bound is cut with a marker', () => {
    const a: Attributes = {};
    genAiContentAttributes('execute_tool', { toolArguments: { x: 1 }, toolResult: 'y'.repeat(MAX_CONTENT_CHARS + 10) }, null, a);
    assert.equal(a['gen_ai.tool.call.arguments'], '{"x":1}');
    assert.equal(a['gen_ai.tool.call.result'], 'y'.repeat(MAX_CONTENT_CHARS) + contentCut(10));
  });

  it('the core export writes content only from its callback', async () => {
    const model = await loadTrace(only(CLAUDE));
    const [plain] = traceToOtlpJson(model, { version: '0', fileName: 'x' });
    assert.ok(!plain.includes('gen_ai.input.messages'));
    const [withContent] = traceToOtlpJson(model, { version: '0', fileName: 'x', content: () => ({ input: [{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }] }) });
    assert.ok(withContent.includes('gen_ai.input.messages'));
  });
});
