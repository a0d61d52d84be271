import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { summarize } from '../../src/core/summary';
import { headerOf } from '../../src/viewer/sessionModelInfo';
import { statisticsOf } from '../../src/viewer/timeline/sessionTimeline';
import { WRITER_CORPUS, corpusPath } from '../helpers/corpus';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** Counts the call records of a parsed line (or document) by its format's own words, apart from the adapters. */
type RawCounter = (v: Any, ids: Set<string>) => void;

const content = (v: Any): Any[] => (Array.isArray(v?.message?.content) ? v.message.content : []);

const counters: Record<string, RawCounter> = {
  // A tool_use block of an assistant message; a split response repeats nothing, so ids are distinct anyway.
  claude: (v, ids) => content(v).forEach((b, k) => b?.type === 'tool_use' && ids.add(b.id ?? `${v.uuid}#${k}`)),
  codex: (v, ids) => {
    if (['function_call', 'custom_tool_call', 'local_shell_call'].includes(v?.payload?.type)) ids.add(v.payload.call_id);
    if (['command_execution', 'mcp_tool_call'].includes(v?.item?.type)) ids.add(v.item.id);
  },
  gemini: (v, ids) => {
    if (v?.type === 'tool_use') ids.add(v.tool_id);
    for (const c of Array.isArray(v?.toolCalls) ? v.toolCalls : []) ids.add(c.id);
  },
  otlp: function walk(v, ids) {
    if (Array.isArray(v)) return v.forEach((x) => walk(x, ids));
    if (v === null || typeof v !== 'object') return;
    if (typeof v.spanId === 'string' && (v.attributes ?? []).some((a: Any) => a.key === 'gen_ai.operation.name' && a.value?.stringValue === 'execute_tool')) ids.add(v.spanId);
    for (const x of Object.values(v)) walk(x, ids);
  },
  // murmur writes a shell command as its own `shell` event (and totals it apart, total_shell_calls).
  murmur: (v, ids) => ['tool_call', 'shell'].includes(v?.event_type) && ids.add(v.event_id),
  lumen: (v, ids) => v?.kind === 'tool_call' && ids.add(String(v.seq)),
  agentledger: (v, ids) => v?.type === 'tool_call_requested' && ids.add(v.event_id),
  // The span log (trace.jsonl) keeps a request's payload, and so its tool name, in a blob.
  agentledgerSpans: (v, ids) => v?.name === 'tool_call_requested' && ids.add(v.span_id),
};

function rawCalls(file: string, counter: RawCounter): number {
  const text = readFileSync(file, 'utf8');
  const ids = new Set<string>();
  const values = file.endsWith('.json') ? [JSON.parse(text)].flatMap((d) => d.loglines ?? d) : text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
  for (const v of values) counter(v, ids);
  return ids.size;
}

const W = (p: string): string => resolve(WRITER_CORPUS, p);
const S = (p: string): string => resolve(__dirname, '..', '..', 'samples', p);
const FILES: [string, string][] = [
  [S('claude-code/921f39d1-40c5-4a48-826b-c8319e0f40bc.jsonl'), 'claude'],
  [W('claude-code-2.1.332/shell-ok/stream-json.jsonl'), 'claude'],
  [W('claude-code-2.1.332/subagent/stream-json.jsonl'), 'claude'],
  [W('claude-code-2.1.332/shell-fail/projects/-home-user-project/3dc26acc-d87d-484b-8039-4fff8b8812ed.jsonl'), 'claude'],
  [corpusPath('other/claude-code/sample_session.jsonl'), 'claude'],
  // A JSON document of transcript lines (`loglines`): the Tools table said Bash 10, the header 12 calls in all, the latency table 5.
  [corpusPath('other/claude-code/sample_session.json'), 'claude'],
  [S('codex/rollout-2026-01-01T10-00-00-019b78ff-f900-7000-b662-e79c6061077d.jsonl'), 'codex'],
  [W('codex-0.171.0/shell-ok/exec.jsonl'), 'codex'],
  [W('codex-0.171.0/shell-fail/sessions/2026/12/01/rollout-2026-12-01T16-25-02-01a2326c-85f2-7120-8246-9bbbb6d42b0e.jsonl'), 'codex'],
  [W('gemini-cli-0.61.0/shell-ok/stream-json.jsonl'), 'gemini'],
  [W('gemini-cli-0.61.0/shell-fail/tmp/project/chats/session-2026-12-01T16-25-95d457d6.jsonl'), 'gemini'],
  [W('otel-js-2.12.1/otlp-traces.jsonl'), 'otlp'],
  [S('otlp/trace.otlp.json'), 'otlp'],
  [S('murmur/ses_583584f8e94410c93669237ac44d5d21/trace.jsonl'), 'murmur'],
  [corpusPath('lumen/.lumen/trace/ef05f773-1151-4c7a-817e-a78bf76ed21e.jsonl'), 'lumen'],
  [S('agentledger/run_4c6f798988127e13/events.jsonl'), 'agentledger'],
  [corpusPath('agentledger/approval-granted/trace.jsonl'), 'agentledgerSpans'],
  [corpusPath('agentledger/budget-exceeded/trace.jsonl'), 'agentledgerSpans'],
  [corpusPath('agentledger/approval-denied/trace.jsonl'), 'agentledgerSpans'],
];

const sum = (rows: { count?: number; calls?: number }[]): number => rows.reduce((a, r) => a + (r.calls ?? r.count ?? 0), 0);

describe('tool calls: one count in the header, summary, statistics and latency tables (issue 16)', () => {
  for (const [file, counter] of FILES) {
    it(`${file.replace(/^.*?(samples|corpus)\//, "")}: every count equals the call records of its lines`, async () => {
      const expected = rawCalls(file, counters[counter]);
      assert.ok(expected > 0, 'a file with tool calls');
      const model = await loadTrace(file);
      const summary = summarize(model);
      const stats = statisticsOf(model);
      assert.equal(headerOf(model).toolCalls, expected, 'header');
      assert.equal(summary.totals.toolCalls, expected, 'summary totals.toolCalls');
      assert.equal(sum(summary.usage.byTool), expected, 'summary usage.byTool');
      assert.equal(sum(stats.byTool), expected, 'statistics Tools table');
      assert.equal(sum(stats.latencyByTool), expected, 'statistics latency table');
      // Per tool, not only in all: the Tools and latency tables name the same tools with the same counts.
      const perTool = (rows: { name?: string; tool?: string; calls?: number; count?: number }[]) => Object.fromEntries(rows.map((r) => [r.tool ?? r.name, r.calls ?? r.count]));
      assert.deepEqual(perTool(stats.latencyByTool), perTool(stats.byTool));
      assert.deepEqual(perTool(stats.byTool), perTool(summary.usage.byTool));
    });
  }
});
