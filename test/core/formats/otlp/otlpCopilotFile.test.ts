import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runChecks } from '../../../../src/core/formatRules';
import { loadTrace, TraceModel } from '../../../../src/core/loadTrace';
import { summarize } from '../../../../src/core/summary';
import { WRITER_CORPUS } from '../../../helpers/corpus';

type Obj = Record<string, any>;

// GitHub Copilot CLI's OpenTelemetry file export (COPILOT_OTEL_EXPORTER_TYPE=file): one span or metric a line, plain
// attribute maps, `startTime: [s, ns]`. See test/corpus/copilot-cli-1.0.102/SOURCE.md.
const ROOT = join(WRITER_CORPUS, 'copilot-cli-1.0.102');
const CASES = readdirSync(ROOT, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();

const lines = (path: string): Obj[] => readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
const otelFile = (c: string) => join(ROOT, c, 'otel', 'copilot-otel.jsonl');

/** The session's own usage records (`session.usage_record`, one per model request), summed. */
function usageRecords(c: string): { input: number; output: number; cacheRead: number; requests: number } {
  const dir = join(ROOT, c, '.copilot', 'session-state');
  const [session] = readdirSync(dir);
  const sum = { input: 0, output: 0, cacheRead: 0, requests: 0 };
  for (const e of lines(join(dir, session, 'events.jsonl'))) {
    if (e.type !== 'session.usage_record') continue;
    const u = e.data.usage ?? e.data;
    sum.input += u.inputTokens;
    sum.output += u.outputTokens;
    sum.cacheRead += u.cacheReadTokens;
    sum.requests++;
  }
  return sum;
}

/** `name ← parent name` of every span event, in file order, the names read from each event's own line. */
function spanParents(m: TraceModel, values: Obj[]): string[] {
  const out: string[] = [];
  const nameOf = (i: number) => values[m.events.lineOf(i) - 1].name;
  for (let i = 0; i < m.events.size; i++) {
    if (values[m.events.lineOf(i) - 1].type !== 'span') continue;
    const p = m.events.parent(i);
    out.push(`${nameOf(i)} ← ${p < 0 ? '-' : nameOf(p)}`);
  }
  return out;
}

describe('otlp: GitHub Copilot CLI OpenTelemetry file export', () => {
  it('the corpus has the six cases', () => {
    assert.deepEqual(CASES, ['edit', 'resume', 'shell-fail', 'shell-ok', 'subagent', 'text']);
  });

  for (const c of CASES) {
    describe(c, () => {
      it('is otlp (js-file-export), one event a line, and its tokens equal the session\'s own usage records', async () => {
        const file = otelFile(c);
        const m = await loadTrace(file);
        assert.equal(m.format, 'otlp');
        const s = summarize(m) as Obj;
        assert.equal(s.dialect, 'js-file-export');
        assert.equal(m.events.size, lines(file).length);
        const metrics = lines(file).map((v, i) => [v, i] as const).filter(([v]) => v.type === 'metric');
        assert.ok(metrics.length > 0);
        for (const [v, i] of metrics) assert.equal(m.events.get(i).label, `metric ${v.name} (not shown as events)`);
        const want = usageRecords(c);
        assert.ok(want.requests > 0);
        const chats = lines(file).filter((v) => v.type === 'span' && v.attributes['gen_ai.operation.name'] === 'chat');
        assert.equal(chats.length, want.requests, 'one chat span per model request');
        assert.deepEqual([s.totals.inputTokens, s.totals.outputTokens], [want.input, want.output]);
        assert.equal(s.usage.total.cacheReadTokens ?? 0, want.cacheRead);
        assert.equal(s.usage.byModel.reduce((n: number, x: Obj) => n + x.calls, 0), want.requests);
      });

      it('verifies and checks with no warning or error', async () => {
        const m = await loadTrace(otelFile(c));
        for (const mode of ['verify', 'check'] as const) {
          const bad = (await runChecks(m, mode)).findings.filter((f) => f.severity !== 'info');
          assert.deepEqual(bad.map((f) => `${f.rule}@${f.line}: ${f.message}`), [], mode);
        }
      });
    });
  }

  it('nests the spans: invoke_agent → chat / execute_tool, the subagent\'s invoke_agent under its task call', async () => {
    const m = await loadTrace(otelFile('subagent'));
    assert.deepEqual(spanParents(m, lines(otelFile('subagent'))), [
      'execute_tool bash bash ← invoke_agent general-purpose',
      'chat gpt-4.1 ← invoke_agent general-purpose',
      'chat gpt-4.1 ← invoke_agent general-purpose',
      'execute_tool task ← invoke_agent',
      'invoke_agent general-purpose ← execute_tool task',
      'chat gpt-4.1 ← invoke_agent',
      'chat gpt-4.1 ← invoke_agent',
      'invoke_agent ← -',
    ]);
    const tools = [];
    for (let i = 0; i < m.events.size; i++) if (m.events.get(i).category === 'tool') tools.push(m.events.get(i).tool);
    assert.deepEqual(tools, ['bash', 'task']);
  });

  it('reads [s, ns] times as the span\'s own nanoseconds', async () => {
    const file = otelFile('shell-ok');
    const m = await loadTrace(file);
    const first = lines(file)[0];
    const ms = first.startTime[0] * 1000 + Math.floor(first.startTime[1] / 1e6);
    assert.equal(m.events.get(0).time, ms);
    const dur = (first.endTime[0] - first.startTime[0]) * 1000 + (first.endTime[1] - first.startTime[1]) / 1e6;
    assert.equal(m.events.get(0).durationMs, dur);
  });

  it('a span line with a broken time or attributes is read without crashing: no time, not a made-up one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'copilot-otel-'));
    try {
      const [a, b] = lines(otelFile('text')).filter((v) => v.type === 'span');
      const path = join(dir, 'copilot-otel.jsonl');
      writeFileSync(path, [{ ...a, startTime: [1, 2e9], endTime: 'soon', attributes: 'none' }, b].map((v) => JSON.stringify(v)).join('\n') + '\n');
      const m = await loadTrace(path);
      assert.equal(m.format, 'otlp');
      assert.equal(m.events.size, 2);
      assert.equal(m.events.get(0).time, null);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
