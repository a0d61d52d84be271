// Runs the Vercel AI SDK (`ai`, with `@ai-sdk/openai-compatible` against the loopback mock model server) with its
// OpenTelemetry integrations (`@ai-sdk/otel`: `OpenTelemetry`, the GenAI-convention spans, and `LegacyOpenTelemetry`,
// the `ai.*` spans) and writes the spans it made as OTLP/JSON. Everything is installed in the scratch tools prefix,
// not in the project. Every span, attribute and time is the SDK's own; the bytes are those of
// @opentelemetry/otlp-transformer's `JsonTraceSerializer` (what the OTLP/HTTP JSON exporter POSTs). This file only
// chooses the prompt, the tool and which integration records each run.
//
// Used by scripts/corpus/generate.mjs: generateAiSdk({ toolsDir, outDir, mock }) -> [{ file, scenario, how }]
// (mock: the running mock-model-server; its `shell-ok` scenario answers with a shell call, then with text).

import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export async function generateAiSdk({ toolsDir, outDir, mock }) {
  const require = createRequire(path.join(toolsDir, 'node_modules', 'noop.js'));
  const load = (name) => import(pathToFileURL(require.resolve(name)).href);
  const { generateText, streamText, tool, stepCountIs } = await load('ai');
  const { createOpenAICompatible } = await load('@ai-sdk/openai-compatible');
  const { OpenTelemetry, LegacyOpenTelemetry } = await load('@ai-sdk/otel');
  const { z } = await load('zod');
  const { BasicTracerProvider, SimpleSpanProcessor, InMemorySpanExporter } = require('@opentelemetry/sdk-trace-base');
  const { resourceFromAttributes } = require('@opentelemetry/resources');
  const { JsonTraceSerializer } = require('@opentelemetry/otlp-transformer');

  const resource = resourceFromAttributes({
    'service.name': 'corpus-ai-sdk',
    'telemetry.sdk.language': 'nodejs',
    'telemetry.sdk.name': 'opentelemetry',
    'telemetry.sdk.version': require('@opentelemetry/sdk-trace-base/package.json').version,
  });
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('ai');

  // An OpenAI-compatible endpoint: the mock's Chat Completions route, with usage in the stream.
  const mockProvider = createOpenAICompatible({ name: 'openai', baseURL: `${mock.url}/v1`, apiKey: 'mock-key', includeUsage: true });
  const model = mockProvider.chatModel('gpt-4.1-mini');
  // The tool really runs the command the model asks for (the mock asks for `echo hello`).
  const shell = tool({
    description: 'Run a shell command and return what it printed',
    inputSchema: z.object({ command: z.string().describe('the command line to run') }),
    execute: async ({ command }) => execFileSync('bash', ['-c', command], { encoding: 'utf8' }),
  });
  const prompt = 'Run echo hello in the shell and tell me what it printed.';
  const call = (integration) => ({
    model,
    system: 'You are a careful assistant. Use the shell tool to run commands.',
    prompt,
    tools: { shell },
    stopWhen: stepCountIs(4),
    telemetry: { isEnabled: true, functionId: 'corpus-ai-sdk', integrations: [integration] },
  });

  mock.setScenario('shell-ok');
  const runs = [
    { file: 'generate-text.otlp.json', integration: () => new OpenTelemetry({ tracer }), stream: false, jsonLines: false },
    { file: 'generate-text-legacy.otlp.json', integration: () => new LegacyOpenTelemetry({ tracer }), stream: false, jsonLines: false },
    { file: 'stream-text.otlp.jsonl', integration: () => new OpenTelemetry({ tracer }), stream: true, jsonLines: true },
    { file: 'stream-text-legacy.otlp.jsonl', integration: () => new LegacyOpenTelemetry({ tracer }), stream: true, jsonLines: true },
  ];
  mkdirSync(outDir, { recursive: true });
  const files = [];
  for (const run of runs) {
    exporter.reset();
    let text;
    let usage;
    if (run.stream) {
      const result = streamText(call(run.integration()));
      text = await result.text;
      usage = await result.totalUsage;
    } else {
      const result = await generateText(call(run.integration()));
      text = result.text;
      usage = result.totalUsage;
    }
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    const bytes = new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans));
    writeFileSync(path.join(outDir, run.file), run.jsonLines ? `${bytes}\n` : bytes);
    const kind = run.file.includes('legacy') ? '`LegacyOpenTelemetry` (`ai.*` spans)' : '`OpenTelemetry` (GenAI-convention spans)';
    files.push({
      file: run.file,
      scenario: `\`${run.stream ? 'streamText' : 'generateText'}\` with a \`shell\` tool, recorded by ${kind}: the model asks for \`echo hello\`, the tool runs it, the model answers (${spans.length} spans; the SDK's total usage: ${usage.inputTokens} in / ${usage.outputTokens} out; reply: "${text}")`,
      how: `\`JsonTraceSerializer.serializeRequest(spans)\` of the run's finished spans, bytes written as-is${run.jsonLines ? ' (one request, one line plus a newline)' : ' (one compact JSON document, no trailing newline)'}`,
    });
  }
  await provider.shutdown();
  return files;
}
