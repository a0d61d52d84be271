// Writes OTLP/JSON documents with the OpenTelemetry JS SDK (installed in the scratch tools prefix,
// not in the project). Every byte of the outputs comes from the SDK's own serializers
// (`JsonTraceSerializer` / `JsonLogsSerializer` from @opentelemetry/otlp-transformer); this file only
// decides which spans and log records exist and what attributes they carry.
//
// Used by scripts/corpus/generate.mjs: generateOtel({ toolsDir, outDir }) -> [{ file, scenario, how }]

import { createRequire } from 'node:module';
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

export async function generateOtel({ toolsDir, outDir }) {
  const require = createRequire(path.join(toolsDir, 'node_modules', 'noop.js'));
  const api = require('@opentelemetry/api');
  const { BasicTracerProvider, SimpleSpanProcessor, InMemorySpanExporter } = require('@opentelemetry/sdk-trace-base');
  const { resourceFromAttributes } = require('@opentelemetry/resources');
  const { JsonTraceSerializer, JsonLogsSerializer } = require('@opentelemetry/otlp-transformer');
  const { LoggerProvider, SimpleLogRecordProcessor, InMemoryLogRecordExporter } = require('@opentelemetry/sdk-logs');
  const { SeverityNumber } = require('@opentelemetry/api-logs');

  mkdirSync(outDir, { recursive: true });
  const decoder = new TextDecoder();
  const resource = resourceFromAttributes({
    'service.name': 'corpus-agent',
    'service.version': '1.0.0',
    'telemetry.sdk.language': 'nodejs',
    'telemetry.sdk.name': 'opentelemetry',
    'telemetry.sdk.version': require('@opentelemetry/sdk-trace-base/package.json').version,
  });

  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
  const tracer = tracerProvider.getTracer('corpus-agent-instrumentation', '0.1.0');

  const logExporter = new InMemoryLogRecordExporter();
  const loggerProvider = new LoggerProvider({ resource, processors: [new SimpleLogRecordProcessor({ exporter: logExporter })] });
  const logger = loggerProvider.getLogger('corpus-agent-instrumentation', '0.1.0');

  // Times are explicit (a fixed offset schedule from "now") so the durations look like a real run
  // without sleeping.
  let clock = Date.now();
  const at = (ms) => new Date((clock += ms));

  function chatSpan(parentCtx, { model, input, output, finish, responseId }) {
    const span = tracer.startSpan(`chat ${model}`, {
      kind: api.SpanKind.CLIENT,
      startTime: at(5),
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': model,
        'gen_ai.request.max_tokens': 4096,
        'gen_ai.request.temperature': 0.2,
        'server.address': 'api.openai.com',
        'server.port': 443,
      },
    }, parentCtx);
    span.setAttributes({
      'gen_ai.response.model': `${model}-2025-08-07`,
      'gen_ai.response.id': responseId,
      'gen_ai.response.finish_reasons': [finish],
      'gen_ai.usage.input_tokens': input,
      'gen_ai.usage.output_tokens': output,
    });
    span.end(at(900));
    return span;
  }

  function toolSpan(parentCtx, { name, callId, command, fail }) {
    const span = tracer.startSpan(`execute_tool ${name}`, {
      kind: api.SpanKind.INTERNAL,
      startTime: at(3),
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': name,
        'gen_ai.tool.type': 'function',
        'gen_ai.tool.call.id': callId,
        'gen_ai.tool.description': 'Run a shell command',
        'process.command_line': command,
      },
    }, parentCtx);
    if (fail) {
      const err = new Error(`command exited with status 2: ls: cannot access '/nonexistent': No such file or directory`);
      err.name = 'ToolExecutionError';
      // a fixed, machine-independent stack (the real one would name this script's path)
      err.stack = `ToolExecutionError: ${err.message}\n    at runShell (agent/tools/shell.js:42:11)\n    at executeTool (agent/loop.js:118:20)`;
      span.recordException(err, at(40));
      span.setAttribute('error.type', 'ToolExecutionError');
      span.setAttribute('process.exit.code', 2);
      span.setStatus({ code: api.SpanStatusCode.ERROR, message: 'ls exited with status 2' });
    } else {
      span.setAttribute('process.exit.code', 0);
      span.setStatus({ code: api.SpanStatusCode.OK });
    }
    span.end(at(60));
    return span;
  }

  function runAgent(prompt, { fail, conversationId }) {
    const root = tracer.startSpan('invoke_agent corpus-agent', {
      kind: api.SpanKind.INTERNAL,
      startTime: at(1),
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'corpus-agent',
        'gen_ai.agent.id': 'agent_corpus_1',
        'gen_ai.conversation.id': conversationId,
        'gen_ai.request.model': 'gpt-5',
      },
    });
    const rootCtx = api.trace.setSpan(api.context.active(), root);
    logger.emit({
      eventName: 'gen_ai.user.message', severityNumber: SeverityNumber.INFO, severityText: 'INFO', timestamp: at(1), context: rootCtx,
      body: { content: prompt }, attributes: { 'gen_ai.conversation.id': conversationId },
    });
    const c1 = chatSpan(rootCtx, { model: 'gpt-5', input: 1840, output: 64, finish: 'tool_calls', responseId: `resp_${conversationId}_1` });
    const c1ctx = api.trace.setSpan(api.context.active(), c1);
    logger.emit({
      eventName: 'gen_ai.choice', severityNumber: SeverityNumber.INFO, severityText: 'INFO', timestamp: at(1), context: c1ctx,
      body: { index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'shell' } }] } },
      attributes: { 'gen_ai.response.id': `resp_${conversationId}_1` },
    });
    const t1 = toolSpan(rootCtx, { name: 'shell', callId: 'call_1', command: fail ? 'ls /nonexistent' : 'echo hello', fail });
    const t1ctx = api.trace.setSpan(api.context.active(), t1);
    logger.emit({
      eventName: 'gen_ai.tool.message', severityNumber: fail ? SeverityNumber.ERROR : SeverityNumber.INFO, severityText: fail ? 'ERROR' : 'INFO', timestamp: at(1), context: t1ctx,
      body: { id: 'call_1', content: fail ? "ls: cannot access '/nonexistent': No such file or directory" : 'hello' },
      attributes: { 'gen_ai.tool.name': 'shell', 'gen_ai.tool.call.id': 'call_1' },
    });
    chatSpan(rootCtx, { model: 'gpt-5', input: 1968, output: 41, finish: 'stop', responseId: `resp_${conversationId}_2` });
    root.setAttributes({ 'gen_ai.usage.input_tokens': 1840 + 1968, 'gen_ai.usage.output_tokens': 64 + 41 });
    if (fail) root.setStatus({ code: api.SpanStatusCode.ERROR, message: 'a tool call failed' });
    root.end(at(20));
  }

  const files = [];
  const serialize = (spans) => decoder.decode(JsonTraceSerializer.serializeRequest(spans));

  // 1) one export request: a run with one good and one failed tool call (two traces merged into one request)
  runAgent('Run echo hello', { fail: false, conversationId: 'conv_a' });
  runAgent('List /nonexistent', { fail: true, conversationId: 'conv_b' });
  await tracerProvider.forceFlush();
  const allSpans = spanExporter.getFinishedSpans();
  writeFileSync(path.join(outDir, 'otlp-traces.json'), serialize(allSpans));
  files.push({ file: 'otlp-traces.json', scenario: 'two agent runs (nested invoke_agent > chat / execute_tool spans), the second with a failing tool call (status ERROR, exception event)', how: '`JsonTraceSerializer.serializeRequest(spans)` of every finished span, bytes written as-is (one compact JSON document, no trailing newline)' });

  // 2) JSON Lines: one export request per line, as the Collector's file exporter writes them
  const byTrace = new Map();
  for (const s of allSpans) {
    const id = s.spanContext().traceId;
    if (!byTrace.has(id)) byTrace.set(id, []);
    byTrace.get(id).push(s);
  }
  const lines = [...byTrace.values()].map((spans) => serialize(spans));
  writeFileSync(path.join(outDir, 'otlp-traces.jsonl'), lines.join('\n') + '\n');
  files.push({ file: 'otlp-traces.jsonl', scenario: 'the same spans, one ExportTraceServiceRequest per trace, one request per line', how: '`JsonTraceSerializer.serializeRequest(spansOfOneTrace)` bytes written as-is, newline-separated' });

  // 3) logs
  await loggerProvider.forceFlush();
  const logRecords = logExporter.getFinishedLogRecords();
  writeFileSync(path.join(outDir, 'otlp-logs.json'), decoder.decode(JsonLogsSerializer.serializeRequest(logRecords)));
  files.push({ file: 'otlp-logs.json', scenario: 'GenAI events (gen_ai.user.message / gen_ai.choice / gen_ai.tool.message) as log records, correlated to the spans by traceId/spanId', how: '`JsonLogsSerializer.serializeRequest(records)` bytes written as-is' });

  await tracerProvider.shutdown();
  await loggerProvider.shutdown();
  return files;
}
