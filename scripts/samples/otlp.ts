// OTLP/JSON trace (the other-formats specification, other-formats.md §3) with OpenTelemetry GenAI attributes: one
// `invoke_agent` root span, `chat` client spans and `execute_tool` spans under it. One tool span fails
// (status code 2) and one is refused; times are nanosecond decimal strings, ids lowercase hex.
import { BASE_MS, Json, SampleFile, SeededIds } from './common';
import * as S from './story';

const MODEL = 'claude-sonnet-4-5';

type Attr = { key: string; value: Json };
const str = (key: string, v: string): Attr => ({ key, value: { stringValue: v } });
const int = (key: string, v: number): Attr => ({ key, value: { intValue: String(v) } });
const arr = (key: string, vs: string[]): Attr => ({ key, value: { arrayValue: { values: vs.map((v) => ({ stringValue: v })) } } });
const ns = (ms: number): string => `${BigInt(ms) * 1000000n}`;

interface ToolStep {
  thought: string;
  tool: string;
  args: Json;
  result: string;
  ms: number;
  error?: { type: string; message: string };
  approval?: 'granted' | 'denied';
}

const STEPS: ToolStep[] = [
  { thought: S.THOUGHTS.readTest, tool: 'read_file', args: { path: S.TEST_PATH }, result: S.TEST_SOURCE, ms: 3 },
  { thought: S.THOUGHTS.readMissing, tool: 'read_file', args: { path: S.MISSING_PATH }, result: '', ms: 1, error: { type: 'FileNotFoundError', message: `file not found: ${S.MISSING_PATH}` } },
  { thought: S.THOUGHTS.readSource, tool: 'read_file', args: { path: S.SRC_PATH }, result: S.SRC_BEFORE, ms: 2 },
  { thought: S.THOUGHTS.runTests, tool: 'run_command', args: { command: S.TEST_COMMAND }, result: `exit code 1\n${S.TEST_OUTPUT_FAIL}`, ms: 912 },
  { thought: S.THOUGHTS.edit, tool: 'write_file', args: { path: S.SRC_PATH, content: S.SRC_AFTER }, result: `wrote ${S.byteLength(S.SRC_AFTER)} bytes`, ms: 5120, approval: 'granted' },
  { thought: S.THOUGHTS.rerun, tool: 'run_command', args: { command: S.TEST_COMMAND }, result: `exit code 0\n${S.TEST_OUTPUT_PASS}`, ms: 874 },
  { thought: S.THOUGHTS.push, tool: 'run_command', args: { command: S.PUSH_COMMAND }, result: '', ms: 6300, approval: 'denied', error: { type: 'ToolCallDenied', message: `denied by user: ${S.PUSH_DENIAL}` } },
];

/** Builds the spans of one agent invocation, laid out on a millisecond clock. */
class SpanBuilder {
  readonly ids = new SeededIds('otlp');
  readonly traceId = this.ids.hex(32);
  readonly rootId = this.ids.hex(16);
  readonly spans: Json[] = [];
  ms = BASE_MS;

  span(name: string, kind: number, start: number, end: number, attributes: Attr[], extra: Record<string, Json> = {}): void {
    this.spans.push({ traceId: this.traceId, spanId: this.ids.hex(16), parentSpanId: this.rootId, name, kind, startTimeUnixNano: ns(start), endTimeUnixNano: ns(end), attributes, ...extra });
  }

  chat(input: Json[], output: Json, finish: string, tokens: [number, number], latency: number): void {
    const start = this.ms + 1;
    this.ms = start + latency;
    this.span(`chat ${MODEL}`, 3, start, this.ms, [
      str('gen_ai.operation.name', 'chat'), str('gen_ai.provider.name', 'anthropic'), str('gen_ai.request.model', MODEL),
      str('gen_ai.response.model', `${MODEL}-20250929`), int('gen_ai.usage.input_tokens', tokens[0]), int('gen_ai.usage.output_tokens', tokens[1]),
      arr('gen_ai.response.finish_reasons', [finish]), str('gen_ai.input.messages', JSON.stringify(input)), str('gen_ai.output.messages', JSON.stringify([output])),
    ]);
  }

  tool(step: ToolStep, callId: string): void {
    const start = this.ms + 1;
    this.ms = start + step.ms;
    const attrs = [str('gen_ai.operation.name', 'execute_tool'), str('gen_ai.tool.name', step.tool), str('gen_ai.tool.call.id', callId), str('gen_ai.tool.type', 'function')];
    if (step.error) attrs.push(str('error.type', step.error.type));
    const extra: Record<string, Json> = { status: step.error ? { code: 2, message: step.error.message } : { code: 1 } };
    if (step.approval) {
      extra.events = [
        { timeUnixNano: ns(start), name: 'approval.requested', attributes: [str('approval.reason', `${step.tool} needs the user's approval`)] },
        { timeUnixNano: ns(this.ms - 1), name: `approval.${step.approval}`, attributes: [str('approval.actor', 'user')] },
      ];
    }
    this.span(`execute_tool ${step.tool}`, 1, start, this.ms, attrs, extra);
  }
}

/** The otlp sample: `otlp/trace.otlp.json`, one pretty-printed ExportTraceServiceRequest. */
export function generateOtlp(): SampleFile[] {
  const b = new SpanBuilder();
  const conversationId = b.ids.uuid4();
  const messages: Json[] = [{ role: 'user', parts: [{ type: 'text', content: S.PROMPT }] }];
  STEPS.forEach((step, i) => {
    const callId = `toolu_01${b.ids.base62(22)}`;
    const output: Json = { role: 'assistant', parts: [{ type: 'text', content: step.thought }, { type: 'tool_call', id: callId, name: step.tool, arguments: step.args }], finish_reason: 'tool_call' };
    b.chat(messages.slice(), output, 'tool_call', [1380 + 260 * i, 48 + 9 * i], 1500 + 110 * i);
    b.tool(step, callId);
    messages.push(output, { role: 'tool', parts: [{ type: 'tool_call_response', id: callId, response: step.error ? step.error.message : step.result }] });
  });
  b.chat(messages, { role: 'assistant', parts: [{ type: 'text', content: S.FINAL_ANSWER }], finish_reason: 'stop' }, 'stop', [3610, 132], 2400);
  const root = {
    traceId: b.traceId, spanId: b.rootId, name: 'invoke_agent test-fixer', kind: 1, startTimeUnixNano: ns(BASE_MS), endTimeUnixNano: ns(b.ms + 2),
    attributes: [str('gen_ai.operation.name', 'invoke_agent'), str('gen_ai.agent.name', 'test-fixer'), str('gen_ai.provider.name', 'anthropic'), str('gen_ai.conversation.id', conversationId), str('gen_ai.request.model', MODEL)],
    status: { code: 1 },
  };
  const doc = {
    resourceSpans: [{
      resource: { attributes: [str('service.name', 'test-fixer'), str('service.version', '0.4.2'), str('telemetry.sdk.language', 'python')] },
      scopeSpans: [{ scope: { name: 'opentelemetry.instrumentation.genai', version: '0.3.0' }, spans: [root, ...b.spans] }],
    }],
  };
  return [{ path: 'otlp/trace.otlp.json', data: `${JSON.stringify(doc, null, 2)}\n` }];
}
