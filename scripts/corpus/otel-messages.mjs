// Writes an OTLP/JSON trace whose chat spans carry the GenAI semantic conventions' message attributes
// (`gen_ai.system_instructions`, `gen_ai.input.messages` with the whole history re-sent on every call,
// `gen_ai.output.messages`), with the OpenTelemetry JS SDK. As in otel.mjs, every byte of the output comes
// from the SDK's own serializer (`JsonTraceSerializer`); this file only decides the spans and attributes.
//
//   node scripts/corpus/otel-messages.mjs TOOLS_DIR OUT_DIR   (TOOLS_DIR: a folder whose node_modules holds
//   the SDK packages listed in SOURCE.md)

import { createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export async function generateOtelMessages({ toolsDir, outDir }) {
  const require = createRequire(path.join(toolsDir, 'node_modules', 'noop.js'));
  const api = require('@opentelemetry/api');
  const { BasicTracerProvider, SimpleSpanProcessor, InMemorySpanExporter } = require('@opentelemetry/sdk-trace-base');
  const { resourceFromAttributes } = require('@opentelemetry/resources');
  const { JsonTraceSerializer } = require('@opentelemetry/otlp-transformer');

  const resource = resourceFromAttributes({ 'service.name': 'corpus-agent', 'telemetry.sdk.language': 'nodejs', 'telemetry.sdk.name': 'opentelemetry', 'telemetry.sdk.version': require('@opentelemetry/sdk-trace-base/package.json').version });
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('corpus-agent-instrumentation', '0.1.0');
  let clock = Date.UTC(2026, 11, 1, 16, 0, 0);
  const at = (ms) => new Date((clock += ms));

  const system = [{ type: 'text', content: 'You are a coding agent. Use the shell tool to inspect the project.' }];
  const history = [{ role: 'user', parts: [{ type: 'text', content: 'How many TypeScript files are in src/, and does the build pass?' }] }];
  const replies = [
    { parts: [{ type: 'tool_call', id: 'call_1', name: 'shell', arguments: { command: 'find src -name "*.ts" | wc -l' } }], finish: 'tool_calls', result: '42', tokens: [812, 31] },
    { parts: [{ type: 'tool_call', id: 'call_2', name: 'shell', arguments: { command: 'npm run build' } }], finish: 'tool_calls', result: 'error TS2304: Cannot find name \'foo\'.\nexit code 2', tokens: [901, 22] },
    { parts: [{ type: 'text', content: 'src/ holds 42 TypeScript files; the build fails: `foo` is not defined (TS2304).' }], finish: 'stop', tokens: [1010, 27] },
  ];

  const root = tracer.startSpan('invoke_agent corpus-agent', { startTime: at(1), attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'corpus-agent', 'gen_ai.conversation.id': 'conv_m' } });
  const ctx = api.trace.setSpan(api.context.active(), root);
  for (const [n, r] of replies.entries()) {
    const chat = tracer.startSpan('chat gpt-5', {
      kind: api.SpanKind.CLIENT,
      startTime: at(5),
      attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-5', 'gen_ai.system_instructions': JSON.stringify(system), 'gen_ai.input.messages': JSON.stringify(history) },
    }, ctx);
    const output = [{ role: 'assistant', parts: r.parts, finish_reason: r.finish }];
    chat.setAttributes({ 'gen_ai.response.model': 'gpt-5-2025-08-07', 'gen_ai.response.id': `resp_m_${n + 1}`, 'gen_ai.response.finish_reasons': [r.finish], 'gen_ai.usage.input_tokens': r.tokens[0], 'gen_ai.usage.output_tokens': r.tokens[1], 'gen_ai.output.messages': JSON.stringify(output) });
    chat.end(at(700));
    history.push({ role: 'assistant', parts: r.parts });
    const call = r.parts.find((p) => p.type === 'tool_call');
    if (!call) continue;
    const tool = tracer.startSpan(`execute_tool ${call.name}`, { startTime: at(3), attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': call.name, 'gen_ai.tool.call.id': call.id, 'gen_ai.tool.call.arguments': JSON.stringify(call.arguments), 'gen_ai.tool.call.result': r.result } }, ctx);
    tool.end(at(80));
    history.push({ role: 'tool', parts: [{ type: 'tool_call_response', id: call.id, response: r.result }] });
  }
  root.end(at(10));
  await provider.forceFlush();
  mkdirSync(outDir, { recursive: true });
  const file = 'otlp-traces-messages.jsonl';
  writeFileSync(path.join(outDir, file), new TextDecoder().decode(JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans())) + '\n');
  await provider.shutdown();
  return [{ file, scenario: 'one agent run of three chat spans carrying gen_ai.system_instructions, gen_ai.input.messages (the whole history re-sent on every call) and gen_ai.output.messages, with two execute_tool spans', how: '`JsonTraceSerializer.serializeRequest(spans)` bytes written as-is, one line' }];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [toolsDir, outDir] = process.argv.slice(2);
  console.log(JSON.stringify(await generateOtelMessages({ toolsDir: path.resolve(toolsDir), outDir: path.resolve(outDir) })));
}
