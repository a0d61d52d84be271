// Issue 38, GitHub Copilot CLI: its real files (test/corpus/copilot-cli-*) read as `copilot-cli`, by the session
// model, with the usage of its own `session.usage_record`s counted once (input includes the cache read), failed
// calls counted, no finding on an intact file; and its OpenTelemetry export (read by `otlp`) costed as it records.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { loadTrace } from '../../../../src/core/loadTrace';
import { summarize } from '../../../../src/core/summary';
import { runChecks } from '../../../../src/core/formatRules';
import type { TraceModel } from '../../../../src/core/traceModel';
import { jsonLines, writerFiles } from '../../../helpers/writerCorpus';

const ALL = writerFiles('copilot-cli');
const SESSIONS = ALL.filter((f) => f.includes('/.copilot/session-state/') && basename(f) === 'events.jsonl');
const STDOUT = ALL.filter((f) => /\/output(-\d+)?\.jsonl$/.test(f));
const OTEL = ALL.filter((f) => f.endsWith('/otel/copilot-otel.jsonl'));
const name = (f: string) => f.slice(f.search(/copilot-cli-\d/));
const indices = (m: TraceModel) => [...Array(m.events.size).keys()];
const kind = (m: TraceModel, i: number) => m.events.kindOf(i);
const mention = (m: TraceModel, i: number, field: string) => m.events.mentionsOf(i).find((x) => x.field === field)?.id ?? null;

/** A failed call as Copilot records it: `success: false`, or a shell command that exited non-zero (`success: true`). */
const failed = (v: any) => v.type === 'tool.execution_complete' && (v.data.success === false || (typeof v.data.shellExecution?.exitCode === 'number' && v.data.shellExecution.exitCode !== 0));

describe('copilot-cli: the real GitHub Copilot CLI files (issue 38)', () => {
  it('the corpus holds session files, stdout streams and OpenTelemetry exports; every other file of the folder is accounted for', () => {
    assert.ok(SESSIONS.length >= 5 && STDOUT.length >= 6 && OTEL.length >= 5, ALL.join('\n'));
    assert.deepEqual(ALL.filter((f) => !SESSIONS.includes(f) && !STDOUT.includes(f) && !OTEL.includes(f)), []);
  });

  for (const f of [...SESSIONS, ...STDOUT]) {
    it(`${name(f)}: copilot-cli, every result under its call, every subagent under its task call, turns nested, no warning or error`, async () => {
      const m = await loadTrace(f);
      assert.equal(m.format, 'copilot-cli', m.detection.reason);
      assert.equal(m.detection.dialect, SESSIONS.includes(f) ? 'session-state' : 'output-json');
      assert.equal(m.events.size, jsonLines(f).length, 'one event a line');
      const values = jsonLines(f).map((l) => l.value);
      const valueOf = (i: number) => values[m.events.lineOf(i) - 1];
      for (const i of indices(m)) {
        const v = valueOf(i);
        const p = m.events.parent(i);
        if (v.type === 'tool.execution_complete') {
          assert.ok(p >= 0 && kind(m, p) === 'tool.execution_start' && valueOf(p).data.toolCallId === v.data.toolCallId, `line ${m.events.lineOf(i)}: under its call`);
          assert.equal(m.events.statusOf(i), failed(v) ? 'error' : 'ok');
          assert.equal(m.events.statusOf(p), failed(v) ? 'error' : 'ok', 'a failed result makes its call an error');
        }
        if (v.type === 'subagent.started') {
          assert.ok(p >= 0 && valueOf(p).type === 'tool.execution_start' && valueOf(p).data.toolName === 'task' && valueOf(p).data.toolCallId === v.data.toolCallId, `line ${m.events.lineOf(i)}: under its task call`);
        }
        // Every event of a subagent (agentId) is inside its subagent.started.
        if (typeof v.agentId === 'string' && v.type !== 'subagent.started') {
          let a = p;
          while (a >= 0 && !(valueOf(a).type === 'subagent.started' && valueOf(a).agentId === v.agentId)) a = m.events.parent(a);
          assert.ok(a >= 0, `line ${m.events.lineOf(i)}: inside its subagent`);
        }
        // Turns nest: a prompt is under its run (session file), a root (stdout) or its subagent; never a staircase.
        if (v.type === 'user.message') {
          const at = p < 0 ? null : valueOf(p).type;
          assert.ok(at === null || at === 'session.start' || at === 'session.resume' || at === 'subagent.started', `line ${m.events.lineOf(i)}: under ${at}`);
        }
        if (v.type === 'assistant.message') assert.equal(valueOf(p).type, 'assistant.turn_start', `line ${m.events.lineOf(i)}: a model step of its turn`);
        assert.ok(m.tree.depth(i) <= 10, `line ${m.events.lineOf(i)}: depth ${m.tree.depth(i)}`);
        // The recorded link stays the event's fact (the stdout's links to session-only events as a mention).
        if (v.parentId) assert.ok(m.events.get(i).parentId === v.parentId || mention(m, i, 'parentId') === v.parentId, `line ${m.events.lineOf(i)}: link kept`);
      }
      for (const mode of ['verify', 'check'] as const) {
        const res = await runChecks(m, mode);
        const loud = res.findings.filter((x) => x.severity === 'error' || x.severity === 'warning');
        assert.deepEqual(loud.map((x) => `${x.line} ${x.rule} ${x.message}`), [], mode);
      }
      const s = summarize(m);
      assert.equal(s.totals.toolCalls, values.filter((v) => v.type === 'tool.execution_start').length);
      assert.equal(s.totals.errors, values.filter(failed).length, 'failed calls counted once');
    });
  }

  for (const f of SESSIONS) {
    it(`${name(f)}: tokens are its usage records once (input includes cache read), cost recorded 0, equal to the last shutdown's totals`, async () => {
      const values = jsonLines(f).map((l) => l.value);
      let input = 0, output = 0, cached = 0, records = 0, cost = 0;
      for (const v of values) {
        if (v.type !== 'session.usage_record') continue;
        input += v.data.usage.inputTokens;
        output += v.data.usage.outputTokens;
        cached += v.data.usage.cacheReadTokens;
        cost += v.data.usage.cost;
        records++;
        assert.equal(v.data.usage.isByok, true, 'the corpus runs BYOK');
      }
      const s = summarize(await loadTrace(f));
      assert.equal(s.usage.total.inputTokens, input);
      assert.equal(s.usage.total.outputTokens, output);
      assert.equal(s.usage.total.cacheReadTokens, cached);
      assert.equal(s.usage.byModel.reduce((n, x) => n + x.calls, 0), records, 'one counted call a usage record');
      assert.equal(s.usage.total.costUsd, cost, 'the cost Copilot records (0 under BYOK), not a price');
      assert.deepEqual(s.usage.byModel.map((x) => x.costSource), ['trace']);
      assert.equal(s.usage.complete, true);
      // The last shutdown's running totals (after a resume: both runs) equal the records: they were not added.
      const shutdowns = values.filter((v) => v.type === 'session.shutdown');
      const last = shutdowns[shutdowns.length - 1];
      const metrics = Object.values(last.data.modelMetrics) as any[];
      assert.equal(metrics.reduce((n, x) => n + x.usage.inputTokens, 0), input);
      assert.equal(metrics.reduce((n, x) => n + x.usage.outputTokens, 0), output);
    });
  }

  for (const f of STDOUT) {
    it(`${name(f)}: no token usage in the stdout: usage missing, not 0; deltas not counted`, async () => {
      const s = summarize(await loadTrace(f));
      assert.equal(s.usage.total.inputTokens, null);
      assert.equal(s.usage.total.outputTokens, null);
      assert.equal(s.usage.complete, false, 'its model calls report no usage');
    });
  }

  it('a resumed session is two runs in one file: two roots, each prompt under its own run', async () => {
    const f = SESSIONS.find((x) => x.includes('/resume/'))!;
    const m = await loadTrace(f);
    const roots = indices(m).filter((i) => m.events.parent(i) < 0);
    assert.deepEqual(roots.map((i) => kind(m, i)), ['session.start', 'session.resume']);
    const prompts = indices(m).filter((i) => kind(m, i) === 'user.message');
    assert.deepEqual(prompts.map((i) => m.events.parent(i)), roots);
  });

  it('a failing shell command (success: true, exit 2) is a failed call', async () => {
    const files = [...SESSIONS, ...STDOUT].filter((x) => x.includes('/shell-fail/'));
    assert.equal(files.length, 2);
    for (const f of files) {
      const m = await loadTrace(f);
      const call = indices(m).find((i) => m.events.categoryOf(i) === 'tool')!;
      assert.equal(m.events.statusOf(call), 'error', name(f));
      assert.equal(summarize(m).totals.errors, 1, name(f));
    }
  });

  it('the edit case: view, create and edit succeed; the view of a missing file (success: false, error) is the one failed call', async () => {
    const files = [...SESSIONS, ...STDOUT].filter((x) => x.includes('/edit/'));
    assert.equal(files.length, 2, 'the edit case has its session file and its stdout');
    for (const f of files) {
      const m = await loadTrace(f);
      const calls = indices(m).filter((i) => m.events.categoryOf(i) === 'tool');
      assert.deepEqual(calls.map((i) => `${m.events.toolOf(i)} ${m.events.statusOf(i)}`), ['view ok', 'create ok', 'edit ok', 'view error'], name(f));
      assert.equal(summarize(m).totals.errors, 1, name(f));
    }
  });

  for (const f of [SESSIONS.find((x) => x.includes('/subagent/'))!, STDOUT.find((x) => x.includes('/subagent/'))!]) {
    it(`${name(f)}: a damaged copy (an invalid line in the middle, a torn last line) still reads, with a finding at each`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'copilot-cli-'));
      try {
        const lines = readFileSync(f, 'utf8').split('\n').filter((l) => l !== '');
        const mid = Math.floor(lines.length / 2);
        const damaged = [...lines.slice(0, mid), '{"type":"assistant.message","data":{', ...lines.slice(mid, -1), lines[lines.length - 1].slice(0, 40)];
        const folder = join(dir, '.copilot', 'session-state', 'x');
        mkdirSync(folder, { recursive: true });
        const path = join(folder, basename(f));
        writeFileSync(path, damaged.join('\n'));
        const m = await loadTrace(path);
        assert.equal(m.format, 'copilot-cli');
        assert.equal(m.events.size, lines.length - 1, 'every intact line is an event');
        for (const mode of ['verify', 'check'] as const) {
          const r = await runChecks(m, mode);
          assert.ok(r.findings.some((x) => x.line === mid + 1 && x.rule === 'parse/invalid-json' && x.severity === 'error'), mode);
          assert.ok(r.findings.some((x) => x.line === damaged.length && x.rule.startsWith('parse/')), mode);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it('a session file cut at its head still reports the link it lost (only the stdout keeps unknown parents as facts)', async () => {
    const f = SESSIONS.find((x) => x.includes('/shell-ok/'))!;
    const dir = mkdtempSync(join(tmpdir(), 'copilot-cli-'));
    try {
      const lines = readFileSync(f, 'utf8').split('\n').filter((l) => l !== '');
      for (const [cut, head] of [[lines.slice(1), 'session.start removed'], [['{"type":"session.start","data":{', ...lines.slice(1)], 'session.start torn']] as const) {
        const path = join(dir, `${cut.length}-${head.length}.jsonl`);
        writeFileSync(path, cut.join('\n') + '\n');
        const m = await loadTrace(path);
        assert.equal(m.format, 'copilot-cli', head);
        const first = jsonLines(f)[1].value;
        const r = await runChecks(m, 'verify');
        const line = head === 'session.start removed' ? 1 : 2;
        assert.ok(r.findings.some((x) => x.line === line && x.rule === 'tree/dangling-parent' && x.message.includes(first.parentId)), `${head}: ${JSON.stringify(r.findings)}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a non-zero Copilot cost counts premium requests, not dollars: the tokens are priced from the table (session file and OTel export)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'copilot-cli-'));
    try {
      const premium = (v: any) => {
        if (v.type === 'session.usage_record') return { ...v, data: { ...v.data, usage: { ...v.data.usage, cost: 1, isByok: false } } };
        if (v.type === 'span' && 'github.copilot.cost' in v.attributes) return { ...v, attributes: { ...v.attributes, 'github.copilot.cost': 1 } };
        return v;
      };
      for (const f of [SESSIONS.find((x) => x.includes('/text/'))!, OTEL.find((x) => x.includes('/text/'))!]) {
        const path = join(dir, basename(f));
        writeFileSync(path, jsonLines(f).map((l) => JSON.stringify(premium(l.value))).join('\n') + '\n');
        const s = summarize(await loadTrace(path));
        assert.deepEqual(s.usage.byModel.map((x) => x.costSource), ['table'], name(f));
        assert.ok((s.usage.total.costUsd ?? 0) > 0, name(f));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const f of OTEL) {
    it(`${name(f)} (otlp): the cost Copilot records (github.copilot.cost, 0 under BYOK) is taken, not priced; invoke_agent totals not added`, async () => {
      const spans = jsonLines(f).map((l) => l.value).filter((v) => v.type === 'span');
      const chats = spans.filter((v) => v.attributes['gen_ai.operation.name'] === 'chat');
      const agents = spans.filter((v) => v.attributes['gen_ai.operation.name'] === 'invoke_agent');
      const m = await loadTrace(f);
      assert.equal(m.format, 'otlp');
      const s = summarize(m);
      assert.equal(s.usage.total.inputTokens, chats.reduce((n, v) => n + v.attributes['gen_ai.usage.input_tokens'], 0));
      assert.equal(s.usage.total.outputTokens, chats.reduce((n, v) => n + v.attributes['gen_ai.usage.output_tokens'], 0));
      assert.equal(s.usage.total.costUsd, chats.reduce((n, v) => n + v.attributes['github.copilot.cost'], 0));
      assert.deepEqual(s.usage.byModel.map((x) => x.costSource), ['trace']);
      assert.equal(s.usage.explain.aggregatesNotAdded, agents.filter((v) => typeof v.attributes['gen_ai.usage.input_tokens'] === 'number').length);
    });
  }
});
