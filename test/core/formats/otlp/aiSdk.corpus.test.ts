import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrace } from '../../../../src/core/loadTrace';
import { summarize } from '../../../../src/core/summary';
import { usageMismatches } from '../../../../src/core/usage/usageChecks';
import { usageReport } from '../../../../src/core/usage/usageReport';
import { WRITER_CORPUS } from '../../../helpers/corpus';

/** The Vercel AI SDK's spans (test/corpus/ai-sdk-*, scripts/corpus/ai-sdk.mjs): both integrations, both calls. */
const DIR = join(WRITER_CORPUS, 'ai-sdk-7.0.185');
const FILES = ['generate-text.otlp.json', 'generate-text-legacy.otlp.json', 'stream-text.otlp.jsonl', 'stream-text-legacy.otlp.jsonl'];

type Attr = { key: string; value: Record<string, unknown> };
interface Span { name: string; spanId: string; parentSpanId?: string; attributes: Attr[] }

/** The file's spans, read plainly (every line one export request). */
function spansOf(file: string): Span[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).flatMap((l) => JSON.parse(l).resourceSpans.flatMap((rs: any) => rs.scopeSpans.flatMap((ss: any) => ss.spans)));
}

function attr(s: Span, key: string): unknown {
  const v = s.attributes.find((a) => a.key === key)?.value;
  if (!v) return undefined;
  return 'intValue' in v ? Number(v.intValue) : v.stringValue ?? v.doubleValue ?? v.boolValue;
}

/** What the SDK itself wrote: the run's total on its root span, each step's on its model-call span, its tool spans. */
function sdkFacts(file: string) {
  const spans = spansOf(file);
  const legacy = spans.some((s) => attr(s, 'ai.operationId') !== undefined);
  const root = spans.find((s) => !s.parentSpanId)!;
  const calls = spans.filter((s) => (legacy ? /\.do(Generate|Stream)$/.test(String(attr(s, 'ai.operationId'))) : attr(s, 'gen_ai.operation.name') === 'chat'));
  const tools = spans.filter((s) => (legacy ? attr(s, 'ai.operationId') === 'ai.toolCall' : attr(s, 'gen_ai.operation.name') === 'execute_tool'));
  const usage = (s: Span) =>
    legacy
      ? { input: attr(s, 'ai.usage.inputTokens') as number, output: attr(s, 'ai.usage.outputTokens') as number, cacheRead: attr(s, 'ai.usage.inputTokenDetails.cacheReadTokens') as number }
      : { input: attr(s, 'gen_ai.usage.input_tokens') as number, output: attr(s, 'gen_ai.usage.output_tokens') as number, cacheRead: attr(s, 'gen_ai.usage.cache_read.input_tokens') as number };
  return { legacy, root, total: usage(root), steps: calls.map(usage), calls, tools, model: String(attr(root, legacy ? 'ai.model.id' : 'gen_ai.request.model')) };
}

const close = (a: number | null, b: number) => assert.ok(a !== null && Math.abs(a - b) < 1e-12, `${a} ≈ ${b}`);

describe('the Vercel AI SDK as a writer: its OpenTelemetry spans (issue 42)', () => {
  for (const name of FILES) {
    describe(name, () => {
      const file = join(DIR, name);
      const sdk = sdkFacts(file);

      it('the SDK writes the run total on the root and each step on its model call: the total is counted once', async () => {
        // The file's own premise: the steps add up to the root, so parent + children would be twice the run.
        assert.equal(sdk.steps.length, 2);
        assert.equal(sdk.steps.reduce((n, u) => n + u.input, 0), sdk.total.input);
        assert.equal(sdk.steps.reduce((n, u) => n + u.output, 0), sdk.total.output);
        const m = await loadTrace(file);
        const u = usageReport(m);
        assert.deepEqual([u.total.inputTokens, u.total.outputTokens, u.total.cacheReadTokens], [sdk.total.input, sdk.total.output, sdk.total.cacheRead]);
        assert.ok(sdk.total.cacheRead > 0, 'the second step reads the first from the cache');
        const s = summarize(m);
        assert.deepEqual([s.totals.inputTokens, s.totals.outputTokens], [sdk.total.input, sdk.total.output]);
        assert.deepEqual(usageMismatches(m), [], 'the root agrees with its model calls');
      });

      it('the model by its id, one call per model-call span, priced from the bundled table with the cache reads', async () => {
        const u = usageReport(await loadTrace(file));
        assert.equal(sdk.model, 'gpt-4.1-mini');
        assert.deepEqual(u.byModel.map((x) => [x.model, x.calls, x.costSource]), [[sdk.model, sdk.calls.length, 'table']]);
        assert.deepEqual(u.unpriced, []);
        // gpt-4.1-mini in the bundled table: $0.40 / M input, $0.10 / M cached input, $1.60 / M output.
        const t = sdk.total;
        close(u.total.costUsd, ((t.input - t.cacheRead) * 0.4 + t.cacheRead * 0.1 + t.output * 1.6) / 1e6);
      });

      it('one tool call per tool span, with its name, argument and outcome', async () => {
        const m = await loadTrace(file);
        assert.equal(sdk.tools.length, 1);
        assert.equal(summarize(m).totals.toolCalls, sdk.tools.length);
        assert.deepEqual(usageReport(m).byTool.map((x) => [x.tool, x.calls, x.errors]), [['shell', 1, 0]]);
        const tools = [...Array(m.events.size).keys()].filter((i) => m.events.categoryOf(i) === 'tool').map((i) => m.events.get(i));
        assert.deepEqual(tools.map((e) => [e.tool, e.status]), [['shell', 'ok']]);
        assert.match(tools[0].label, /^shell: echo hello → ok/);
        // The root is the run, the aggregate of its steps: not a model call.
        const root = [...Array(m.events.size).keys()].find((i) => m.events.parent(i) < 0)!;
        assert.equal(m.events.categoryOf(root), 'run');
      });
    });
  }

  it('the legacy ai.* spans and the GenAI-convention spans of one call read the same: tokens, cost, tool calls', async () => {
    for (const [a, b] of [[FILES[0], FILES[1]], [FILES[2], FILES[3]]]) {
      const [ua, ub] = [usageReport(await loadTrace(join(DIR, a))), usageReport(await loadTrace(join(DIR, b)))];
      assert.deepEqual(
        [ub.total.inputTokens, ub.total.outputTokens, ub.total.cacheReadTokens, ub.total.costUsd, ub.byTool.length],
        [ua.total.inputTokens, ua.total.outputTokens, ua.total.cacheReadTokens, ua.total.costUsd, ua.byTool.length],
        `${a} / ${b}`,
      );
    }
  });
});
