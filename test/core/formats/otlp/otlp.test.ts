import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WRITER_CORPUS } from '../../../helpers/corpus';
import { otlpAdapter } from '../../../../src/core/formats/otlp/adapter';
import { nanosToMs, spanDurationMs } from '../../../../src/core/formats/otlp/otlpSpans';
import { loadTrace } from '../../../../src/core/loadTrace';
import { summarize } from '../../../../src/core/summary';
import { corpus, corpusFiles, findingsOf, fixture, nodes, parentLines, runAll } from '../../../fixtures/other/harness';

const CANONICAL = corpus('other/otlp/trace.json');
const GENAI = fixture('genai.otlp.jsonl');
const AGENTLEDGER: [string, number][] = [
  ['approval-denied', 13],
  ['approval-granted', 28],
  ['budget-exceeded', 22],
  ['cancelled', 17],
  ['side-effect-idempotency', 22],
];

describe('otlp adapter: the canonical example (opentelemetry-proto examples/trace.json)', () => {
  it('reads its one span at its own line, as a root with a remote parent', async () => {
    const m = await loadTrace(CANONICAL);
    assert.equal(m.format, 'otlp');
    assert.equal(m.document, true);
    assert.ok(m.detection.confidence >= 0.95);
    assert.equal(m.events.size, 1);
    const e = m.events.get(0);
    assert.equal(e.line, 31);
    assert.equal(e.parent, -1);
    assert.equal(e.id, '5b8efff798038103d269b633813fc60c/eee19b7ec3c1b174');
    assert.equal(e.parentId, '5b8efff798038103d269b633813fc60c/eee19b7ec3c1b173');
    assert.equal(e.kind, "I'm a server span");
    assert.equal(e.label, "I'm a server span 1.0 s");
    assert.equal(e.time, 1544712660000);
    assert.equal(e.durationMs, 1000);
    assert.equal(e.group, '5b8efff798038103d269b633813fc60c');
    assert.deepEqual(e.mentions, [
      { field: 'traceId', id: '5B8EFFF798038103D269B633813FC60C' },
      { field: 'parentSpanId', id: '5b8efff798038103d269b633813fc60c/eee19b7ec3c1b173' },
    ]);
  });

  it('verify notes the remote parent (info), check is clean', async () => {
    const v = await runAll(CANONICAL, 'verify');
    assert.deepEqual(v.map((f) => `${f.rule}@${f.line}/${f.severity}`), ['otlp/parent-exists@31/info']);
    assert.deepEqual(await findingsOf(CANONICAL, 'check'), []);
  });
});

describe('otlp adapter: AgentLedger trace.otlp.json exports', () => {
  for (const [run, count] of AGENTLEDGER) {
    it(`${run}: ${count} spans, flat (no parentSpanId), ordered by agentledger.seq, clean`, async () => {
      const file = corpus(`agentledger/${run}/trace.otlp.json`);
      const m = await loadTrace(file);
      assert.equal(m.format, 'otlp');
      assert.ok(m.detection.confidence >= 0.95);
      assert.equal(m.events.size, count);
      assert.equal(m.tree.roots.length, count);
      const n = nodes(m);
      assert.deepEqual(n.map((x) => m.events.seqOf(n.indexOf(x))), Array.from({ length: count }, (_, i) => i + 1));
      const text = readFileSync(file, 'utf8').split('\n');
      for (const x of n) assert.ok(text[x.line - 1].includes(`"spanId": "${x.id!.split('/')[1]}"`), `line ${x.line} holds span ${x.id}`);
      assert.equal(n[0].kind, 'run_created');
      assert.ok(m.events.get(4).hashRefs.some((h) => h.field === 'attributes.agentledger.payload_hash' && h.algorithm === 'sha256'));
      assert.deepEqual(await findingsOf(file, 'verify'), []);
      assert.deepEqual(await findingsOf(file, 'check'), []);
    });
  }

  it('marks failure and cancellation spans by name when the status is unset', async () => {
    const m = await loadTrace(corpus('agentledger/cancelled/trace.otlp.json'));
    const marked = nodes(m).map((x, i) => [x.kind, m.events.statusOf(i)]).filter(([, s]) => s !== 'ok');
    assert.deepEqual(marked, [['failure_classified', 'error'], ['error_raised', 'error'], ['run_cancel_requested', 'warning'], ['step_cancelled', 'warning'], ['run_cancelled', 'warning']]);
  });
});

describe('otlp adapter: JSON lines of documents with GenAI spans', () => {
  it('emits one event per span, parents within the same trace, GenAI labels, tokens, errors', async () => {
    const m = await loadTrace(GENAI);
    assert.equal(m.format, 'otlp');
    assert.equal(m.document, false);
    assert.equal(m.events.size, 5);
    assert.deepEqual(parentLines(m), [1, 1, null, null, null]);
    assert.equal(m.events.lineOf(m.events.parent(0)), 1);
    assert.equal(m.events.get(m.events.parent(0)).kind, 'invoke_agent', 'children written before their parent still attach');
    const [tool, chat, agent, failed, remote] = [0, 1, 2, 3, 4].map((i) => m.events.get(i));
    assert.equal(tool.label, 'get_weather → ok, 12 ms');
    assert.equal(tool.category, 'tool');
    assert.equal(tool.tool, 'get_weather');
    assert.equal(chat.label, 'model gpt-4o-2024-08-06: 1,200 in / 340 out');
    assert.deepEqual([chat.category, chat.model, chat.tokensIn, chat.tokensOut], ['inference', 'gpt-4o-2024-08-06', 1200, 340]);
    assert.equal(agent.category, 'run');
    assert.equal(failed.status, 'error');
    assert.equal(failed.label, 'model gpt-4o → error: upstream request timed out');
    assert.equal(failed.id, '4bf92f3577b34da6a3ce929d0e0e4736/b7ad6b7169203331', 'same span id as line 1, other trace');
    assert.ok(failed.mentions.some((x) => x.field === 'links[0]' && x.id === '0af7651916cd43dd8448eb211c80319c/00f067aa0ba902b7'));
    assert.equal(remote.parent, -1);
    // Tokens are the usage rollup's (an agent span's usage would otherwise be added to its calls').
    assert.deepEqual(m.formatTotals, { errors: 1, toolCalls: 1 });
    assert.deepEqual([summarize(m).totals.inputTokens, summarize(m).totals.outputTokens], [1200, 340]);
    assert.deepEqual(await findingsOf(GENAI, 'verify'), ['otlp/parent-exists@2']);
    assert.deepEqual(await findingsOf(GENAI, 'check'), []);
  });

  it('counts each span\'s end in the run\'s duration: the root span that ends last sets the end (issue 40)', async () => {
    // otel-js 2.12.1's own export: the second root span starts at …318990 ms and ends at …320926, after every other start.
    const m = await loadTrace(join(WRITER_CORPUS, 'otel-js-2.12.1', 'otlp-traces.jsonl'));
    const s = summarize(m);
    assert.equal(s.startTime, new Date(1796142317093).toISOString());
    assert.equal(s.endTime, new Date(1796142320926).toISOString());
    assert.equal(s.durationMs, 3833);
  });

  it('converts 19-digit nanosecond strings exactly', () => {
    assert.equal(nanosToMs('1795966890599080704'), 1795966890599.0807);
    assert.equal(spanDurationMs('1795966890599080704', '1795966890600080705'), 1.000001);
    assert.equal(nanosToMs('12ms'), null);
  });
});

describe('otlp detection', () => {
  it('claims the OTLP files of the corpus (agentledger trace.otlp.json, Jaeger UI and snake_case included) and nothing else', async () => {
    for (const file of corpusFiles()) {
      const m = await loadTrace(file);
      const mine = m.detection.candidates.find((c) => c.format === 'otlp');
      const expected = file.includes('/other/otlp/') || file.endsWith('trace.otlp.json') || /\/outside\/(jaeger-ui|otlp-snake-case)\//.test(file);
      assert.equal((mine?.confidence ?? 0) >= 0.5, expected, `${file}: ${JSON.stringify(m.detection.candidates)}`);
      if (expected) assert.equal(m.format, 'otlp', file);
    }
  });

  it('needs resourceSpans, resourceLogs or resourceMetrics (in any spelling), Jaeger or console spans', () => {
    const sniff = (values: unknown[], document = false) => otlpAdapter.sniff({ values, fileName: 'x.json', path: 'x.json', document });
    assert.equal(sniff([{ spans: [] }]).confidence, 0);
    assert.equal(sniff([{ resource_spanz: [] }]).confidence, 0);
    assert.ok(sniff([{ resourceSpans: [] }], true).confidence >= 0.9);
    assert.deepEqual([sniff([{ resourceLogs: [] }], true).dialect, sniff([{ resource_spans: [] }], true).dialect, sniff([{ result: { resourceSpans: [] } }], true).dialect], ['otlp-logs', 'otlp-snake-case', 'jaeger-api-v3']);
  });
});
