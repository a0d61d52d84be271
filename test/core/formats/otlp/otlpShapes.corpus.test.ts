import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { treeJson } from '../../../../src/cli/treeJson';
import { runChecks } from '../../../../src/core/formatRules';
import { loadTrace, TraceModel } from '../../../../src/core/loadTrace';
import { summarize } from '../../../../src/core/summary';
import { WRITER_CORPUS, corpusPath } from '../../../helpers/corpus';

type Obj = Record<string, any>;

/** Every OTLP-family file of the real-writer corpus, the outside corpus and the console-span fixture. */
function otlpFiles(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.jsonl?$/.test(n)) out.push(p);
    }
  };
  for (const d of readdirSync(WRITER_CORPUS)) if (/^(otel|ai-sdk)-/.test(d)) walk(join(WRITER_CORPUS, d));
  for (const d of readdirSync(corpusPath('outside'))) if (/^(otlp|jaeger)-/.test(d)) walk(join(corpusPath('outside'), d));
  out.push(resolve('test/fixtures/otlp/python-console-spans.json'));
  return out;
}

/** The file's values read plainly: one document, JSON lines, or pretty-printed values one after another. */
function valuesOf(text: string): Obj[] {
  try {
    return [JSON.parse(text)];
  } catch {
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    try {
      return lines.map((l) => JSON.parse(l));
    } catch {
      return text.split(/(?<=^\})\n(?=\{)/m).map((p) => JSON.parse(p));
    }
  }
}

interface PlainSpan { trace: string; span: string; parent: string | null; tool: boolean }

const pad = (s: string, n: number) => s.toLowerCase().padStart(n, '0');

/** Each span's own ids and parent id, read straight from the fields each shape names them by. */
function plainSpans(values: Obj[]): PlainSpan[] {
  const out: PlainSpan[] = [];
  for (let v of values) {
    if (v.result) v = v.result;
    for (const rs of v.resourceSpans ?? v.resource_spans ?? []) {
      for (const ss of rs.scopeSpans ?? rs.scope_spans ?? []) {
        for (const s of ss.spans) {
          const attrs = s.attributes ?? [];
          const op = attrs.find((a: Obj) => a.key === 'gen_ai.operation.name');
          // the AI SDK's own tool span (LegacyOpenTelemetry) names its operation `ai.toolCall`
          const aiOp = attrs.find((a: Obj) => a.key === 'ai.operationId');
          const tool = (op?.value.stringValue ?? op?.value.string_value) === 'execute_tool' || aiOp?.value.stringValue === 'ai.toolCall';
          out.push({ trace: (s.traceId ?? s.trace_id).toLowerCase(), span: (s.spanId ?? s.span_id).toLowerCase(), parent: (s.parentSpanId ?? s.parent_span_id ?? '').toLowerCase() || null, tool });
        }
      }
    }
    for (const t of v.data ?? (v.traceID ? [v] : [])) {
      for (const s of t.spans) {
        const ref = s.references.find((r: Obj) => r.refType === 'CHILD_OF');
        out.push({ trace: pad(s.traceID, 32), span: pad(s.spanID, 16), parent: ref ? pad(ref.spanID, 16) : null, tool: false });
      }
    }
    if (v.context) out.push({ trace: v.context.trace_id.slice(2), span: v.context.span_id.slice(2), parent: v.parent_id ? v.parent_id.slice(2) : null, tool: v.attributes['gen_ai.operation.name'] === 'execute_tool' });
  }
  return out;
}

function expectedDialect(file: string, values: Obj[]): string {
  const v = values[0];
  if (v.result) return 'jaeger-api-v3';
  if (v.resourceLogs) return 'otlp-logs';
  if (v.resource_spans) return 'otlp-snake-case';
  if (v.data || v.traceID) return 'jaeger-ui';
  if (v.context) return 'python-console';
  return values.length > 1 ? 'otlp-json-lines' : 'otlp-json';
}

async function withTemp(text: string, name: string, f: (p: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'otlp-shapes-'));
  writeFileSync(join(dir, name), text);
  try {
    await f(join(dir, name));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The tree follows the spans' own parent fields: each span's parent node is the first span with its parent id. */
function assertTreeFollows(model: TraceModel, spans: PlainSpan[]): void {
  const nodes = treeJson(model).nodes;
  assert.equal(nodes.length, spans.length);
  const first = new Map<string, number>();
  spans.forEach((s, i) => first.has(`${s.trace}/${s.span}`) || first.set(`${s.trace}/${s.span}`, i));
  spans.forEach((s, i) => {
    const n = nodes[i];
    assert.equal(n.index, i);
    assert.equal(n.id, `${s.trace}/${s.span}`);
    const parent = s.parent === null ? undefined : first.get(`${s.trace}/${s.parent}`);
    assert.equal(n.parentIndex, parent ?? null, `span ${n.id}`);
    assert.equal(n.parentLine, parent === undefined ? null : nodes[parent].line);
  });
}

describe('otlp shapes of the corpus', () => {
  for (const file of otlpFiles()) {
    describe(file.replace(/^.*\/(corpus|fixtures)\//, ''), () => {
      const text = readFileSync(file, 'utf8');
      const values = valuesOf(text);
      let model: TraceModel;
      before(async () => (model = await loadTrace(file)));

      it('is detected as otlp with its shape as dialect', () => {
        assert.equal(model.format, 'otlp');
        assert.equal(summarize(model).dialect, expectedDialect(file, values));
      });

      it('verifies and checks with no error', async () => {
        for (const mode of ['verify', 'check'] as const) {
          const r = await runChecks(model, mode);
          assert.deepEqual(r.findings.filter((f) => f.severity === 'error').map((f) => `${f.rule}@${f.line}: ${f.message}`), [], mode);
        }
      });

      const spans = plainSpans(values);
      if (spans.length > 0) {
        it('tree --json follows every span\'s own parent field, by index', () => assertTreeFollows(model, spans));
        it('counts tool calls from execute_tool (or ai.toolCall) spans only', () => assert.equal(summarize(model).totals.toolCalls, spans.filter((s) => s.tool).length));
      }
    });
  }

  it('reads a Jaeger API v3 reply like the export it wraps', async () => {
    const src = resolve('test/corpus/otel-js-2.12.1/otlp-traces.json');
    const wrapped = JSON.stringify({ result: JSON.parse(readFileSync(src, 'utf8')) }, null, 2);
    await withTemp(wrapped, 'reply.json', async (p) => {
      const m = await loadTrace(p);
      assert.equal(summarize(m).dialect, 'jaeger-api-v3');
      assertTreeFollows(m, plainSpans([JSON.parse(wrapped)]));
      const r = await runChecks(m, 'verify');
      assert.ok(r.ok);
      // each span points at the line of its own spanId in the pretty-printed reply
      const lines = wrapped.split('\n');
      for (const n of treeJson(m).nodes) assert.ok(lines[n.line - 1].includes(n.id!.split('/')[1]), `line ${n.line}`);
    });
  });

  it('reads OTLP logs: one event per log record, naming its span; GenAI tool messages are the tool calls', async () => {
    const file = resolve('test/corpus/otel-js-2.12.1/otlp-logs.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    const records = doc.resourceLogs.flatMap((r: Obj) => r.scopeLogs.flatMap((s: Obj) => s.logRecords));
    const m = await loadTrace(file);
    assert.equal(m.events.size, records.length);
    records.forEach((r: Obj, i: number) => {
      assert.equal(m.events.kindOf(i), r.eventName);
      assert.deepEqual(m.events.mentionsOf(i).find((x) => x.field === 'spanId')?.id, `${r.traceId}/${r.spanId}`);
    });
    assert.equal(summarize(m).totals.toolCalls, records.filter((r: Obj) => r.eventName === 'gen_ai.tool.message').length);
    const pretty = JSON.stringify(doc, null, 2);
    await withTemp(pretty, 'logs.json', async (p) => {
      const pm = await loadTrace(p);
      const lines = pretty.split('\n');
      records.forEach((r: Obj, i: number) => assert.ok(lines[pm.events.lineOf(i) - 1].includes(`"timeUnixNano": "${r.timeUnixNano}"`), `log ${i}`));
    });
  });

  it('finds a torn tail and a damaged value in console spans at the line they start, and keeps the other spans', async () => {
    const file = resolve('test/fixtures/otlp/python-console-spans.json');
    const text = readFileSync(file, 'utf8');
    const starts = text.split('\n').flatMap((l, i) => (l === '{' ? [i + 1] : []));
    await withTemp(text.slice(0, text.length - 200), 'torn.json', async (p) => {
      const r = await runChecks(await loadTrace(p), 'verify');
      assert.deepEqual(r.findings.filter((f) => f.rule.startsWith('parse/')).map((f) => `${f.rule}@${f.line}`), [`parse/torn-tail@${starts[starts.length - 1]}`]);
      assert.equal(r.checked, starts.length - 1);
    });
    const lines = text.split('\n');
    lines[starts[1]] = lines[starts[1]].replace('"name"', 'name');
    await withTemp(lines.join('\n'), 'bad.json', async (p) => {
      const r = await runChecks(await loadTrace(p), 'verify');
      assert.deepEqual(r.findings.filter((f) => f.severity === 'error').map((f) => `${f.rule}@${f.line}`), [`parse/invalid-json@${starts[1]}`]);
      assert.equal(r.checked, starts.length - 1);
    });
  });

  it('finds a removed parent span, a cut line and a torn tail of a collector JSON Lines file at their lines', async () => {
    const file = resolve('test/corpus/otel-js-2.12.1/otlp-traces.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
    const doc = JSON.parse(lines[1]);
    const spans = doc.resourceSpans[0].scopeSpans[0].spans as Obj[];
    const root = spans.find((s) => !s.parentSpanId)!;
    doc.resourceSpans[0].scopeSpans[0].spans = spans.filter((s) => s !== root);
    await withTemp([lines[0], JSON.stringify(doc)].join('\n') + '\n', 'noroot.jsonl', async (p) => {
      const r = await runChecks(await loadTrace(p), 'verify');
      const orphans = spans.filter((s) => s.parentSpanId === root.spanId).length;
      assert.equal(r.findings.filter((f) => f.rule === 'otlp/parent-exists' && f.line === 2).length, orphans);
    });
    await withTemp(lines[0] + '\n' + lines[1].slice(0, 300), 'torn.jsonl', async (p) => {
      const r = await runChecks(await loadTrace(p), 'verify');
      assert.ok(r.findings.some((f) => f.line === 2 && f.rule.startsWith('parse/')));
    });
    await withTemp(lines[0].slice(0, 500) + '\n' + lines[1] + '\n', 'cut.jsonl', async (p) => {
      const r = await runChecks(await loadTrace(p), 'verify');
      assert.ok(r.findings.some((f) => f.line === 1 && f.rule === 'parse/invalid-json' && f.severity === 'error'));
    });
  });

  it('reads Jaeger UI JSON wrapped in {"data": [...]} like the bare trace', async () => {
    const src = corpusPath('outside/jaeger-ui/ui_01.json');
    const trace = JSON.parse(readFileSync(src, 'utf8'));
    const wrapped = JSON.stringify({ data: [trace], total: 0, limit: 0, offset: 0, errors: null }, null, 2);
    await withTemp(wrapped, 'jaeger.json', async (p) => {
      const m = await loadTrace(p);
      assert.equal(summarize(m).dialect, 'jaeger-ui');
      assertTreeFollows(m, plainSpans([{ data: [trace] }]));
    });
  });

  it('reads a collector file that mixes trace and log export requests, one per line', async () => {
    const traces = readFileSync(resolve('test/corpus/otel-js-2.12.1/otlp-traces.jsonl'), 'utf8').split('\n').filter((l) => l !== '');
    const logs = JSON.stringify(JSON.parse(readFileSync(resolve('test/corpus/otel-js-2.12.1/otlp-logs.json'), 'utf8')));
    const metrics = JSON.stringify({ resourceMetrics: [{ resource: {}, scopeMetrics: [] }] });
    await withTemp([traces[0], logs, traces[1], metrics].join('\n') + '\n', 'collector.jsonl', async (p) => {
      const m = await loadTrace(p);
      assert.equal(m.format, 'otlp');
      const byLine = [1, 2, 3, 4].map((l) => Array.from({ length: m.events.size }, (_, i) => i).filter((i) => m.events.lineOf(i) === l).length);
      const spansPerLine = traces.map((l) => plainSpans([JSON.parse(l)]).length);
      const logCount = JSON.parse(logs).resourceLogs[0].scopeLogs.reduce((n: number, s: Obj) => n + s.logRecords.length, 0);
      assert.deepEqual(byLine, [spansPerLine[0], logCount, spansPerLine[1], 1]);
      assert.equal(m.events.kindOf(m.events.size - 1), 'metrics');
      assert.ok((await runChecks(m, 'verify')).ok);
    });
  });

  it('does not take HTTP or database spans for tool calls', async () => {
    const m = await loadTrace(resolve('test/fixtures/otlp/python-console-spans.json'));
    const http = treeJson(m).nodes.find((n) => n.label.startsWith('POST /exec'))!;
    assert.equal(m.events.categoryOf(http.index), 'span');
    assert.equal(summarize(m).totals.toolCalls, 1);
  });
});
